import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file only its owner may read: a report names children's pseudonyms, parents' answers and the
/// findings about them, so it is written 0600 from its first byte, whatever the umask, and an
/// existing file is made 0600 before it is overwritten (issue 36).
enum PrivateFile {
    /// Writes `bytes` to `path`, creating it 0600 or truncating it after making it 0600.
    static func write(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.error("cannot open \(path) to write", errno) }
        defer { close(descriptor) }
        guard fchmod(descriptor, 0o600) == 0 else { throw Self.error("cannot make \(path) readable by its owner only", errno) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in Glibc.write(descriptor, buffer.baseAddress! + written, bytes.count - written) }
            guard count > 0 else { throw Self.error("cannot write \(path)", errno) }
            written += count
        }
    }

    private static func error(_ what: String, _ code: Int32) -> CocoaError {
        CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "\(what): \(String(cString: strerror(code)))"])
    }
}
