import ArgumentParser
import LedgerApplication
import LedgerCore
import LedgerPostgres

/// `consent-ledger explain`.
struct Explain: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Explain why a feature was open or closed for a subject at a moment, citing the events.",
        discussion: """
            Finds the AccessGateApplied in force for the feature at --at (per app), the events it cited, \
            the subject's age signal when it was decided, what the ledger's rules found about it, any \
            rescission it did not follow, and the earlier decisions on the feature. A feature never \
            opened is closed: the answer says so and lists the features the subject has.

            EXAMPLES:
              consent-ledger explain --log acme --subject p_7f3a9c --feature sharedRooms
              consent-ledger explain --log acme --subject p_7f3a9c --feature sharedRooms --at 2026-11-21T09:00:00Z --format json
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The log.")
    var log: String

    @Option(help: "The subject's pseudonym.")
    var subject: String

    @Option(help: "The feature, as the app names it in AccessGateApplied.")
    var feature: String

    @Option(help: ArgumentHelp("A log position or an RFC 3339 time, read on the ledger's clock (recordedAt) unless --clock occurred; default: the head.", valueName: "position|time"))
    var at: String?

    @Option(help: ArgumentHelp("Which clock --at refers to: recorded (default) or occurred.", valueName: "recorded|occurred"))
    var clock: String = "recorded"

    @Option(help: ArgumentHelp("A JSON policy file (docs/reports.md): its rules (on, off, which jurisdictions), its rescissionEnforcementWindowHours and its ageSignalRecheckDays judge the decision.",
                               valueName: "file"))
    var policy: String?

    @Option(help: "text (for people) or json.")
    var format: OutputFormat = .text

    func run() async throws {
        guard let clock = AsOf.Clock(rawValue: clock) else {
            throw ValidationError("--clock must be recorded or occurred, not \(self.clock)")
        }
        let asOf = try AsOf.parse(at, clock: clock)
        let answer = try await Ledger.with(try database.target(), progress: Console.note) { ledger in
            try await ReadRecording.record(ledger, log: log, what: "explain", subject: subject, detail: "feature \(feature) as of \(asOf)")
            return try await ledger.explain(log: log, subject: subject, feature: feature, asOf: asOf,
                                     policy: try ReportOptions(policy: policy).loadPolicy())
        }
        var out = StandardOutput()
        switch format {
        case .json: try out.line(CanonicalJSON.encodeString(Self.json(answer)))
        case .text: for line in Self.lines(answer) { try out.line(line) }
        }
        try out.flush()
    }

    /// The explanation for people, line by line.
    static func lines(_ a: FeatureExplanation) -> [String] {
        var out: [String] = []
        out.append("Feature \(a.feature) for subject \(a.subject) in log \(a.log), as of \(a.asOf) (through position \(a.throughPosition)):")
        if a.decisions.isEmpty {
            out.append("CLOSED: no AccessGateApplied for this feature by then, so the ledger has no record of it ever being opened.")
            out.append(a.otherFeatures.isEmpty ? "The subject had no gated features by then."
                                             : "Features gated for this subject by then: \(a.otherFeatures.joined(separator: ", ")).")
            return out
        }
        for d in a.decisions {
            out.append("")
            out.append("\(d.app.isEmpty ? "(no app named)" : d.app): \(d.state.uppercased())")
            out.append("  since #\(d.gate.position), occurred \(d.gate.occurredAt), recorded \(d.gate.recordedAt): \(d.gate.sentence)")
            if d.cited.isEmpty && d.citedProblems.isEmpty {
                out.append("  It cited no event.")
            } else {
                out.append("  It cited:")
                for e in d.cited { out.append("    #\(e.position) \(e.type), \(e.occurredAt): \(e.sentence)") }
                for problem in d.citedProblems { out.append("    ! \(problem)") }
            }
            if let judged = d.judgedOn {
                out.append("  What the rules judged it on:")
                for line in judged.lines { out.append("    \(line)") }
            } else if case .object = d.ageAtDecision {
                let approval = d.ageAtDecision["approvalRequired"]?.boolValue == true ? "; parents must approve significant changes" : ""
                out.append("  The subject then: \(d.ageAtDecision["category"]?.stringValue ?? "unknown")\(approval) (age signal #\(d.ageAtDecision["position"]?.intValue ?? 0))")
            } else {
                out.append("  The subject then: no age signal on record")
            }
            for answer in d.parentalAnswers { out.append("  Parent's answer on record before it: \(answer)") }
            let failed = d.rules.filter { $0.outcome == .failed }, passed = d.rules.filter { $0.outcome == .passed }
            let off = d.rules.filter { $0.outcome == .notApplied }
            if failed.isEmpty {
                out.append(d.rules.isEmpty ? "  No rule of the ledger judges this decision."
                                           : "  The ledger's rules found nothing wrong with this decision.")
            } else {
                out.append("  Rules broken (docs/rules.md):")
                for check in failed {
                    out.append("    ! \(check.rule): \(check.detail) (evidence \(check.evidence.map { "#\($0)" }.joined(separator: ", ")))")
                    if let review = check.needsReview { out.append("      Needs review: \(review).") }
                }
            }
            if !passed.isEmpty {
                out.append("  Rules passed: " + passed.map { check in
                    check.evidence.isEmpty ? check.rule : "\(check.rule) (\(check.detail))" }.joined(separator: "; "))
            }
            for check in off { out.append("  Rule not applied: \(check.rule): \(check.detail)") }
            for r in d.laterRescissions {
                out.append("  ! After it, #\(r.position) (\(r.occurredAt)): \(r.sentence) The feature stayed open.")
            }
            if d.history.count > 1 {
                out.append("  Decisions on this feature: " + d.history.map { "#\($0.position) \($0.payload["state"]?.stringValue ?? "?") (\($0.occurredAt))" }.joined(separator: "; "))
            }
        }
        return out
    }

    static func json(_ a: FeatureExplanation) -> JSONValue {
        .object([
            "log": .string(a.log), "subject": .string(a.subject), "feature": .string(a.feature),
            "asOf": .string(a.asOf.description), "throughPosition": .number(Double(a.throughPosition)),
            "state": .string(a.decisions.contains { $0.state == "open" } ? "open" : "closed"),
            "otherFeatures": .array(a.otherFeatures.map(JSONValue.string)),
            "decisions": .array(a.decisions.map { d in
                .object([
                    "app": .string(d.app), "state": .string(d.state), "gate": Replay.eventJSON(d.gate),
                    "cited": .array(d.cited.map(Replay.eventJSON)), "citedProblems": .array(d.citedProblems.map(JSONValue.string)),
                    "ageAtDecision": d.ageAtDecision, "judgedOn": d.judgedOn?.json ?? .null,
                    "rules": .array(d.rules.map { check in
                        ["rule": .string(check.rule), "outcome": .string(check.outcome.rawValue),
                         "detail": .string(check.detail), "evidence": .array(check.evidence.map { .number(Double($0)) }),
                         "needsReview": check.needsReview.map(JSONValue.string) ?? .null]
                    }),
                    "parentalAnswers": .array(d.parentalAnswers.map(JSONValue.string)),
                    "laterRescissions": .array(d.laterRescissions.map(Replay.eventJSON)),
                    "history": .array(d.history.map(Replay.eventJSON)),
                ])
            }),
        ])
    }
}
