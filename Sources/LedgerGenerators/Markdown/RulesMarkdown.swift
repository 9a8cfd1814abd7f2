import LedgerCore

/// docs/rules.md, written from the rules catalogue (``RuleCatalogue``) and the laws it cites
/// (``Law``), so the document cannot drift from the rules the ledger applies.
public enum RulesMarkdown {
    /// The whole document.
    public static func render() -> String {
        var out = """
            # The ledger's rules

            Written by `consent-ledger rules --format markdown` from the rules catalogue
            (Sources/LedgerCore/Rules/RuleCatalogue.swift); a test fails when this file is stale.

            The anomalies projection (Sources/LedgerFolds/Anomalies/) judges each event once, by position,
            against what the log held before it, so catch-up, rebuild and time travel find the same.
            Each finding's `kind` is a rule's id and cites every event it rests on. Violations are listed
            by the regulator report and by `explain`; anomalies are surprising facts kept as evidence.
            The citations point at the public texts so a reader can check each rule; they are not legal advice.

            A subject's *age signal* is an AgeRangeShared (Apple), a PlayAgeSignalReceived (Google Play) or an
            AgeVerificationCompleted that passed (the app's own age gate or a third-party verifier, where neither
            platform signal is available); the rules read the subject's latest one before the event they judge,
            with the legal category and `verifiedAdult` the ledger derived for it (docs/events.md). Only a
            third party's check makes an AgeVerificationCompleted a verified adult, never the app's own gate.

            No rule stays silent for want of a fact: where a rule needs one the ledger lacks (the version a
            subject first used the app at, when the app never sent `app.originalAppVersion`), it judges the
            conservative way and marks the finding as *needing review*, naming the missing fact (decision 0064;
            `needs_review` in the findings, `needsReview` in the reports, "Needs review" in `explain`).
            A withdrawal of consent counts only when it is an App Store notification from production whose
            signature verified (decision 0062). Events an app reported from a test environment (`app.environment`
            `sandbox` or `development`) are stored and replayed but judged by no rule and counted in no figure
            (decision 0068). docs/disputes/ holds the histories these rules are written against.


            """
        for (title, kind) in [("Violations", LedgerRule.Kind.violation), ("Anomalies", .anomaly)] {
            let rules = RuleCatalogue.all.filter { $0.kind == kind }
            out += "## \(title)\n\n| rule | judged on | statement |\n| --- | --- | --- |\n"
            for rule in rules { out += "| [`\(rule.id)`](#\(rule.id)) | \(rule.judges) | \(cell(rule.statement)) |\n" }
            out += "\n"
            for rule in rules {
                out += "### \(rule.id)\n\n\(rule.statement)\n\n"
                out += "- **Judged on:** \(rule.judges)\n"
                out += "- **Reads:** \(rule.reads.joined(separator: ", "))\n"
                out += "- **Evidence:** \(rule.evidence)\n"
                if let setting = rule.policySetting { out += "- **Policy setting:** `\(setting)`\n" }
                if rule.basis.isEmpty {
                    out += "- **Basis:** none in law: a data-quality check.\n"
                } else {
                    out += "- **Basis:**\n"
                    for basis in rule.basis { out += "  - \(basis.law.title): \(basis.provision)\n" }
                }
                out += "\n"
            }
        }
        out += "## The laws and platform documents cited\n\n"
            + "A regulator report is titled and judged only by the laws that applied at some time in its period (`in force`); "
            + "it lists the others of its jurisdiction as not in force, with their status (decision 0063). "
            + "Statuses as checked on \(Law.statusChecked): courts and legislatures change them, so check them again before relying on a report.\n\n"
            + "| id | title | citation | governs | effective by its terms | in force | status |\n| --- | --- | --- | --- | --- | --- | --- |\n"
        for law in Law.all {
            let periods = law.inForce.map { period in
                period == .always ? "always" : "\(period.from ?? "always") to \(period.to ?? "now")"
            }
            out += "| `\(law.id)` | \(law.title) | \(cell(law.citation)) | "
                + "\(law.jurisdictions.isEmpty ? "the platform, everywhere" : law.jurisdictions.joined(separator: ", ")) | "
                + "\(law.effective ?? "") | \(periods.isEmpty ? "not in force" : periods.joined(separator: "; ")) | \(cell(law.status)) |\n"
        }
        return out
    }

    private static func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
}
