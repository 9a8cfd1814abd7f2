import ArgumentParser
import LedgerApplication
import LedgerCore
import LedgerPostgres

/// `consent-ledger state`.
struct State: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print subjects' state as of a moment (time travel), one JSON object per subject.",
        discussion: """
            Folds the log up to --as-of (a position, or a time by the ledger's or the device's clock) \
            into temporary copies of subject_state and consent_register, and prints each subject's \
            snapshot: age category and declaration, parental controls, latest signal per platform, \
            features, consents. Without --as-of it folds up to the head. The live projections answer the \
            same from SQL (`SELECT * FROM subject_state.subjects`), without folding.

            EXAMPLES:
              consent-ledger state --log acme --subject p_7f3a9c --format text
              consent-ledger state --log acme --as-of 120 --format json
            """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var moment: AsOfOptions

    @Option(help: "The log.")
    var log: String

    @Option(help: "Only this subject.")
    var subject: String?

    @Option(help: "text (one summary line per subject) or json (one object per line).")
    var format: OutputFormat = .json

    func run() async throws {
        let asOf = try moment.moment()
        let states = try await Ledger.with(try database.target(), progress: Console.note) { ledger in
            // Without --subject every subject's state is read: recorded as a read of all ("*").
            try await ReadRecording.record(ledger, log: log, what: "state", subject: subject ?? ReadAccess.everySubject, detail: "as of \(asOf)")
            return try await ledger.state(log: log, subject: subject, asOf: asOf)
        }
        let (position, snapshots, emptyMoment) = (states.position, states.snapshots, states.emptyMoment)
        Console.note("log \(log) as of \(asOf): \(snapshots.count) subject\(snapshots.count == 1 ? "" : "s"), through position \(position)")
        if let emptyMoment { Console.note("note: " + emptyMoment) }
        var out = StandardOutput()
        for snapshot in snapshots {
            switch format {
            case .json: try out.line(snapshot)
            case .text:
                let value = try JSONParser.parse(snapshot)
                try out.line("\(value["subject"]?.stringValue ?? "?"): \(StateSummary.line(value))")
            }
        }
        try out.flush()
    }
}
