import ArgumentParser
import LedgerApplication
import LedgerCore
import LedgerPostgres

/// `consent-ledger replay`.
struct Replay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay a subject's history event by event, with the state after each.",
        discussion: """
            For disputes ("my parent never approved that"): every event about the subject, in ledger \
            order, each with a plain sentence and the subject's state after it (age category and \
            declaration, parental controls, features open and closed, consents by status). The state \
            comes from the same SQL that builds the subject_state and consent_register projections. \
            --as-of stops at a position or a time (by the ledger's clock, or the device's with \
            --clock occurred). --format json prints every step with its full payload and state.

            EXAMPLES:
              consent-ledger replay --log acme --subject p_7f3a9c
              consent-ledger replay --log acme --subject p_7f3a9c --as-of 2026-11-20T17:00:00Z --clock occurred
            """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var moment: AsOfOptions

    @Option(help: "The log.")
    var log: String

    @Option(help: "The subject's pseudonym.")
    var subject: String

    @Option(help: "text (for people) or json.")
    var format: OutputFormat = .text

    func run() async throws {
        let asOf = try moment.moment()
        let history = try await Ledger.with(try database.target(), progress: Console.note) { ledger in
            try await ReadRecording.record(ledger, log: log, what: "replay", subject: subject, detail: "as of \(asOf)")
            return try await ledger.replay(log: log, subject: subject, asOf: asOf)
        }
        var out = StandardOutput()
        switch format {
        case .json: try out.line(CanonicalJSON.encodeString(Self.json(history)))
        case .text: for line in Self.lines(history) { try out.line(line) }
        }
        try out.flush()
    }

    /// The replay for people, line by line.
    static func lines(_ history: SubjectReplay.History) -> [String] {
        var out: [String] = []
        out.append("Subject \(history.subject) in log \(history.log), as of \(history.asOf) (through position \(history.throughPosition)): \(history.steps.count) events")
        for step in history.steps {
            let e = step.event
            out.append("")
            out.append("#\(e.position)  \(e.occurredAt)  \(e.type)  [\(e.actor)\(e.app.map { ", " + $0 } ?? "")]")
            out.append("    \(e.sentence)")
            out.append(step.changedState ? "    → \(StateSummary.line(step.state))" : "    → (state unchanged)")
        }
        if let last = history.steps.last {
            out.append("")
            out.append("State after the last event: \(StateSummary.line(last.state))")
        }
        return out
    }

    static func json(_ history: SubjectReplay.History) -> JSONValue {
        .object([
            "log": .string(history.log), "subject": .string(history.subject), "asOf": .string(history.asOf.description),
            "throughPosition": .number(Double(history.throughPosition)),
            "steps": .array(history.steps.map { step in
                .object([
                    "event": eventJSON(step.event), "state": step.state, "changedState": .bool(step.changedState),
                ])
            }),
        ])
    }

    static func eventJSON(_ e: ReplayedEvent) -> JSONValue {
        var members: [String: JSONValue] = [
            "position": .number(Double(e.position)), "eventId": .string(e.eventId), "type": .string(e.type),
            "stream": .string(e.stream), "occurredAt": .string(e.occurredAt), "recordedAt": .string(e.recordedAt),
            "actor": .string(e.actor), "sentence": .string(e.sentence), "payload": e.payload,
        ]
        if let app = e.app { members["app"] = .string(app) }
        if let derived = e.derived { members["derived"] = derived }
        return .object(members)
    }
}
