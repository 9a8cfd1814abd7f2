import Foundation
@testable import LedgerCluster
import Testing

/// The programs the tool starts itself (initdb, pg_ctl and the server it leaves running).
@Suite("Programs the tool starts")
struct ProcessRunnerTests {
    @Test("a program started by the tool inherits no descriptor but standard input, output and error")
    func inheritsOnlyTheStandardDescriptors() throws {
        // A server `pg_ctl start` leaves behind keeps what it inherited for its whole life: a read
        // end of another thread's pipe kept that pipe open, and its writer blocked (CI, 2026-11-29).
        let pipe = Pipe()
        defer {
            try? pipe.fileHandleForReading.close()
            try? pipe.fileHandleForWriting.close()
        }
        for descriptor in [pipe.fileHandleForReading.fileDescriptor, pipe.fileHandleForWriting.fileDescriptor] {
            let seen = try ProcessRunner.run("/usr/bin/readlink", ["/proc/self/fd/\(descriptor)"])
            #expect(!seen.succeeded, "descriptor \(descriptor) was inherited: \(seen.output)")
        }
        let standard = try ProcessRunner.run("/usr/bin/readlink", ["/proc/self/fd/1"])
        #expect(standard.succeeded, "standard output is the captured output: \(standard.output)")
    }
}
