import Foundation
import LedgerCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock` on a file, so that two processes never create or start the same cluster
/// at once. Released explicitly or when the process ends.
struct FolderLock {
    private let descriptor: Int32

    init(path: String) throws(LedgerError) {
        descriptor = open(path, O_CREAT | O_RDWR, 0o600)
        guard descriptor >= 0 else {
            throw LedgerError(.clusterFailure, "cannot open the lock file \(path) (errno \(errno))")
        }
        guard flock(descriptor, LOCK_EX) == 0 else {
            close(descriptor)
            throw LedgerError(.clusterFailure, "cannot lock \(path) (errno \(errno))")
        }
    }

    func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
