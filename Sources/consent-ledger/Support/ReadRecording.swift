import Foundation
import LedgerApplication
import LedgerCore
import LedgerPostgres

/// The CLI's part of the record of reads (docs/console.md, "Who looked at a child's data"): the
/// commands that read a subject's data (state, replay, explain, report dossier, report
/// consent-register --subject) and `watch` (every subject's findings) record the read before they
/// print it, as `cli/<OS user>` from this host.
enum ReadRecording {
    /// Who is reading from this command line.
    static var access: ReadAccess {
        ReadAccess(channel: .cli, reader: "cli/" + (ProcessInfo.processInfo.environment["USER"] ?? NSUserName()),
                   client: ProcessInfo.processInfo.hostName)
    }

    /// Records the read; the command stops with the error if it cannot be recorded.
    static func record(_ ledger: Ledger, log: String, what: String, subject: String, detail: String) async throws {
        try await ledger.recordRead(log: log, access: access, what: what, subject: subject, detail: detail)
    }
}
