import LedgerCore
import LedgerReportModel
/// The later sections of the regulator report: significant changes, exceptions, violations,
/// coverage, retention, integrity and the policy in force.
extension RegulatorHTML {
    // MARK: Significant changes

    static func changesSection(_ changes: [RegulatorSignificantChangeRow]) -> HTML {
        let rows = changes.map { change -> [HTML] in
            [ReportMarkup.cell("\(ReportMarkup.id(change.changeId))<br>app \(ReportMarkup.id(change.app))"
                + "<br>version \(ReportMarkup.text(change.introducedInVersion))"),
             ReportMarkup.cell(ReportMarkup.time(change.declaredAt)),
             ReportMarkup.cell(ReportMarkup.time(change.notifiedToStoreAt, otherwise: "no notice on record")),
             ReportMarkup.countCell(change.minorsAsked), ReportMarkup.countCell(change.approved),
             ReportMarkup.countCell(change.denied), ReportMarkup.countCell(change.adultsAcknowledged),
             ReportMarkup.cell(ReportMarkup.evidence(positions: change.evidencePositions, eventIds: change.evidenceEventIds))]
        }
        let body = rows.isEmpty
            ? ReportMarkup.paragraph("No significant change was declared in this period, and none declared earlier had questions or acknowledgments in it.", className: "empty")
            : ReportMarkup.table(columns: [("Change", ""), ("Declared", ""), ("Store notified", ""), ("Minors asked", "num"), ("Approved", "num"), ("Denied", "num"),
                                           ("Adults acknow\u{AD}ledged", "num"), ("Evidence (declaration, notice)", "")], rows: rows, className: "data changes")
        return ReportMarkup.section(id: "significant-changes", title: title("significant-changes"),
            intro: "App updates declared significant (which a minor’s parent must approve), in order of declaration: when the developer notified the app store of it, "
                + "how many minors were asked about each in the period, "
                + "how many parents approved or denied, and how many adults acknowledged it.", body)
    }

    // MARK: Exceptions

    static func exceptionsSection(_ exceptions: RegulatorExceptionsSection) -> HTML {
        let byAge = exceptions.byRatedAge
        let requested = byAge.map { $0.requested }
        let approved = byAge.map { $0.approved }
        let declined = byAge.map { $0.declined }
        let rows = byAge.enumerated().map { index, rating -> [HTML] in
            ["<th scope=\"row\">\(rating.ratedAge)</th>", ReportMarkup.countCell(requested[index]),
             ReportMarkup.countCell(approved[index]), ReportMarkup.countCell(declined[index])]
        }
        let html = ReportMarkup.figures([
            ("Requested", ReportMarkup.count(exceptions.requested), nil),
            ("Approved by message", ReportMarkup.count(exceptions.approvedByMessage), nil),
            ("Approved in person", ReportMarkup.count(exceptions.approvedInPerson), nil),
            ("Declined", ReportMarkup.count(exceptions.declined), nil),
        ]) + ReportMarkup.subsection("By the app’s age rating", ReportMarkup.table(
            columns: [("Age rating", ""), ("Requested", "num"), ("Approved", "num"), ("Declined", "num")],
            rows: rows + [total(label: "All ratings", [requested, approved, declined])], className: "data compact"))
        let inPerson = exceptions.approveInPerson
        let devices = "<div class=\"pair\">\n"
            + ReportMarkup.subsection("Install attempts", intro: "InstallAttempted, by outcome (cancelled: an exception was queued instead).",
                                      keyCountTable(exceptions.installsByOutcome, keyHeader: "Outcome"))
            + ReportMarkup.subsection("Devices’ rating limits", intro: "DeviceRatingLimitObserved: the highest rating a device allowed (noLimit: all apps).",
                                      keyCountTable(exceptions.deviceRatingLimits, keyHeader: "Limit"))
            + "</div>\n"
            + ReportMarkup.subsection("Approve in Person", ReportMarkup.figures([
                ("Sheets shown", ReportMarkup.count(inPerson.presented), nil),
                ("Failed to show", ReportMarkup.count(inPerson.failed), "no exception request was pending"),
            ]))
        return ReportMarkup.section(id: "exceptions", title: title("exceptions"),
            intro: "Requests to use an app rated above the child’s age (MarketplaceKit age-rating exceptions) made in the period, and the first decision on each before the period’s end; "
                + "then the period’s install attempts, the devices’ rating limits and the Approve in Person sheets.",
            html + devices)
    }

    // MARK: Violations

    static func violationsSection(_ violations: [RegulatorViolationRow]) -> HTML {
        var counts: [String: Int] = [:]
        var descriptions: [String: String] = [:]
        let rows = violations.map { violation -> [HTML] in
            let rule = violation.rule
            counts[rule, default: 0] += 1
            if descriptions[rule] == nil { descriptions[rule] = violation.description }
            return [
                ReportMarkup.cell("<strong>\(rule)</strong>"),
                ReportMarkup.cell(ReportMarkup.subject(violation.subject, erased: violation.subjectErased)),
                ReportMarkup.cell(ReportMarkup.time(violation.occurredAt)),
                ReportMarkup.cell(HTML(text: violation.detail)
                    + "<br>about <span class=\"pos\">#\(violation.position)</span> \(ReportMarkup.id(violation.eventId))"
                    + (violation.needsReview.map { "<br><strong>Needs review:</strong> " + HTML(text: $0) } ?? .empty)),
                ReportMarkup.cell(ReportMarkup.evidence(positions: violation.evidencePositions, eventIds: violation.evidenceEventIds)),
            ]
        }
        var html: HTML = .empty
        if rows.isEmpty {
            html += ReportMarkup.paragraph("The ledger’s rules found no violations in this period.", className: "empty")
        } else {
            let perRule = counts.keys.sorted().map { "\(counts[$0]!) × \($0)" }.joined(separator: ", ")
            html += ReportMarkup.paragraph("\(ReportFormat.plural(rows.count, "violation")) found: \(perRule). A subject marked erased was erased "
                + "by the report’s position; the pseudonym is not personal data and stays.")
            html += ReportMarkup.table(columns: [("Rule", ""), ("Subject", ""), ("Occurred", ""), ("What happened", ""), ("Evidence", "")],
                                       rows: rows, className: "data violations")
        }
        // What each rule means: as the report describes it, then the rules it found nothing for.
        let known = RegulatorVocabulary.rules.map(\.rule)
        let names = known + descriptions.keys.filter { !known.contains($0) }.sorted()
        let rules = names.map { rule -> HTML in
            let description = descriptions[rule] ?? RegulatorVocabulary.description(of: rule)
            return "<li><strong>\(rule)</strong> (\(ReportFormat.plural(counts[rule] ?? 0, "violation"))): \(ReportMarkup.prose(description))</li>"
        }
        html += "<p class=\"note\">The rules the ledger checks:</p><ul class=\"note rules\">\(rules)</ul>\n"
        return ReportMarkup.section(id: "violations", title: title("violations"),
            intro: "What the ledger’s own rules found in the period, in log order, each with the events that show it.", html)
    }

    // MARK: Coverage

    static func coverageSection(_ coverage: RegulatorCoverageSection) -> HTML {
        let installs = coverage.installs
        let backfill = coverage.backfill
        func percent(_ share: Double?, _ empty: String) -> HTML {
            share.map { HTML(text: ReportFormat.percent($0)) } ?? ReportMarkup.none(empty)
        }
        let html = ReportMarkup.figures([
            ("Installs", ReportMarkup.count(installs), "a (subject, app) pair with an event in the period"),
            ("Age range requested at download", ReportMarkup.count(coverage.requestedAtDownload),
             percent(coverage.shareAtDownload, "— (no installs)") + " of installs"),
            ("Age range requested at launch", ReportMarkup.count(coverage.requestedAtLaunch),
             percent(coverage.shareAtLaunch, "— (no installs)") + " of installs"),
        ]) + ReportMarkup.subsection("Back-fill of existing installs", ReportMarkup.figures([
            ("Existing installs", ReportMarkup.count(backfill.existingInstalls), "no request at download on record"),
            ("Of those, with an age range requested", ReportMarkup.count(backfill.withAgeSignal),
             percent(backfill.share, "— (no existing installs)") + " by the period’s end"),
            ("Back-fill requests in the period", ReportMarkup.count(backfill.backfillRequests), "AgeRangeRequested with trigger backfill"),
        ]))
        return ReportMarkup.section(id: "coverage", title: coverage.title,
            intro: "The share of installs whose age range the app asked for when it was downloaded or launched, and the progress of asking for installs that predate it. "
                + lawsSentence(laws: coverage.laws, parts: coverage.lawsForParts, notInForce: coverage.lawsNotInForce),
            html)
    }

    // MARK: Retention

    static func retentionSection(_ retention: RegulatorRetentionSection) -> HTML {
        let policy = retention.policy
        var html = ReportMarkup.subsection("The retention policy",
            ReportMarkup.facts([("Policy id", ReportMarkup.id(policy.policyId))])
                + ReportMarkup.markdown(policy.statement))
        let applied = retention.retentionApplied.map { item -> [HTML] in
            [ReportMarkup.cell(ReportMarkup.id(item.policyId)),
             ReportMarkup.cell(HTML(text: item.scope) + "<br><span class=\"note\">\(item.reason)</span>"),
             ReportMarkup.cell(ReportMarkup.time(item.cutoff, otherwise: "no cutoff")),
             ReportMarkup.countCell(item.subjects),
             ReportMarkup.cell(ReportMarkup.time(item.occurredAt)),
             ReportMarkup.cell(ReportMarkup.evidence(positions: item.evidencePositions, eventIds: item.evidenceEventIds))]
        }
        html += ReportMarkup.subsection("Retention applied", applied.isEmpty
            ? ReportMarkup.paragraph("No retention was applied in this period.", className: "empty")
            : ReportMarkup.table(columns: [("Policy", ""), ("Scope and reason", ""), ("Cutoff", ""), ("Subjects", "num"), ("Occurred", ""), ("Evidence", "")],
                                 rows: applied))
        let erasures = retention.erasures.map { item -> [HTML] in
            [ReportMarkup.cell(ReportMarkup.subject(item.subject, erased: true)),
             ReportMarkup.cell(HTML(text: item.reason)),
             ReportMarkup.cell(ReportMarkup.time(item.occurredAt)),
             ReportMarkup.cell(ReportMarkup.evidence(positions: item.evidencePositions, eventIds: item.evidenceEventIds))]
        }
        html += ReportMarkup.subsection("Subjects erased", intro: "SubjectErased: the subject’s key was destroyed, so their personal data can no longer be read.",
            erasures.isEmpty ? ReportMarkup.paragraph("No subject was erased in this period.", className: "empty")
                : ReportMarkup.table(columns: [("Subject", ""), ("Reason", ""), ("Occurred", ""), ("Evidence", "")], rows: erasures))
        return ReportMarkup.section(id: "retention", title: retention.title,
            intro: "The written retention policy in force and what was erased in the period (in every jurisdiction, since erasure is per subject). "
                + lawsSentence(laws: retention.laws, parts: retention.lawsForParts, notInForce: retention.lawsNotInForce), html)
    }

    /// What a section's laws are: those that govern the whole jurisdiction, with their citations, and
    /// those that govern only a part of it; or that no law of the ledger's catalogue governs it.
    static func lawsSentence(laws: [RegulatorLaw], parts: [RegulatorLaw], notInForce: [RegulatorLaw]) -> String {
        var sentence = laws.isEmpty
            ? "No law of the ledger’s catalogue on this subject governs the whole of this jurisdiction."
            : "Governed by " + (laws.map { "\($0.title) (\($0.citation))" }.joined(separator: "; ")) + "."
        if !parts.isEmpty {
            sentence += " Within this jurisdiction, " + (parts.map { "\($0.title) governs \($0.jurisdictions.joined(separator: ", "))" }
                .joined(separator: "; ")) + ": a report for each of those jurisdictions is titled by its law."
        }
        if !notInForce.isEmpty {
            sentence += " Not in force at any time in this period, so not applied: "
                + (notInForce.map { "\($0.title) (\($0.status))" }.joined(separator: "; "))
                + " (statuses as checked on \(notInForce[0].statusChecked))."
        }
        return sentence
    }

    // MARK: Integrity

    static func integritySection(_ integrity: RegulatorIntegritySection, provenance: ReportPage.Provenance) -> HTML {
        let passed = integrity.passed
        let from = Int(integrity.verifiedFrom), through = Int(integrity.verifiedThrough)
        var facts: [(String, HTML)] = []
        if let checkpoint = integrity.checkpoint {
            facts += [
                ("Signed checkpoint", "The log’s first \(ReportFormat.count(Int(checkpoint.treeSize))) events, signed by "
                    + "\(HTML(text: checkpoint.keyName)) (key \(ReportMarkup.id(checkpoint.keyId))), "
                    + "\(ReportMarkup.time(checkpoint.signedAt))"),
                ("Its root hash", ReportMarkup.id(checkpoint.rootHash)),
                ("The signed note", noteMarkup(checkpoint.note)),
            ]
        } else {
            facts.append(("Signed checkpoint", "None at or below position \(ReportFormat.count(provenance.position)): the report rests on "
                + "the chain hash there (\(ReportMarkup.id(provenance.headHash))), and every position up to it was re-hashed."))
        }
        facts += [
            ("Positions re-hashed by this report", from <= through ? "\(ReportFormat.count(from)) to \(ReportFormat.count(through))" : "none (nothing after the checkpoint)"),
            ("Cited records before them, proved in the signed tree", HTML(text: ReportFormat.count(Int(integrity.citedProved)))),
            ("Projections last proven equal to the log", integrity.projectionsProven.map { proven in
                HTML(text: "to position \(ReportFormat.count(Int(proven.position))), ") + ReportMarkup.time(proven.verifiedAt)
            } ?? HTML(text: "never, at or below this position (consent-ledger verify --projections)")),
            ("Result", passed ? "<span class=\"pass\">passed</span>" : "<span class=\"fail\">FAILED</span>"),
            ("First problem", ReportMarkup.text(integrity.problem, otherwise: "none")),
            ("What was checked", HTML(text: integrity.method)),
        ]
        return ReportMarkup.section(id: "integrity", title: title("integrity"),
            intro: "Whether the records this report was computed from are the ones the ledger signed: the signed checkpoints still hold, "
                + "every record from the period’s first on hashes, links to the one before it and agrees with its columns, and every record "
                + "the report cites before that is proved in the signed tree.",
            (passed ? .empty : ReportMarkup.paragraph("The log failed verification: the figures above may rest on records changed behind the ledger’s back.", className: "warning"))
                + ReportMarkup.facts(facts))
    }

    /// A signed note line by line, long tokens (base64 signatures) breakable every 16 characters
    /// so that the page keeps its width.
    static func noteMarkup(_ note: String) -> HTML {
        let lines = note.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line -> String in
            line.split(separator: " ", omittingEmptySubsequences: false).map { token -> String in
                guard token.count > 24 else { return HTML.escape(String(token)) }
                let characters = Array(token)
                return stride(from: 0, to: characters.count, by: 16)
                    .map { HTML.escape(String(characters[$0..<min($0 + 16, characters.count)])) }
                    .joined(separator: "<wbr>")
            }.joined(separator: " ")
        }
        return HTML(markup: "<code class=\"id\">" + lines.joined(separator: "<br>") + "</code>")
    }

    // MARK: Policy

    static func policySection(_ policy: RegulatorPolicySection) -> HTML {
        let retention = policy.retention
        let hours = policy.rescissionEnforcementWindowHours
        var facts: [(String, HTML)] = [("Source", ReportMarkup.id(policy.source))]
        if let id = policy.policyId { facts.append(("Policy", ReportMarkup.id(id))) }
        if let version = policy.policyVersion { facts.append(("Policy version", ReportMarkup.id(version))) }
        facts.append(("Rescission enforcement window", "\(ReportFormat.plural(hours, "hour")): how long after a rescission the app may take to close the feature"))
        if let days = policy.ageSignalRecheckDays {
            facts.append(("Age signal re-check interval", "\(ReportFormat.plural(days, "day")): how long an age signal may be relied on"))
        }
        facts.append(("Retention policy", ReportMarkup.id(retention.policyId)))
        // Only the rules the policy changes: every other rule of docs/rules.md applies everywhere.
        for rule in policy.rules {
            if !rule.enabled {
                facts.append(("Rule " + rule.rule, "off: its findings are not listed"))
            } else if let codes = rule.jurisdictions {
                facts.append(("Rule " + rule.rule, "applied only to events of \(codes.joined(separator: ", "))"))
            }
        }
        let html = ReportMarkup.facts(facts) + ReportMarkup.markdown(retention.statement)
        return ReportMarkup.section(id: "policy", title: title("policy"),
            intro: "The settings the rules above were applied with: the built-in defaults, or a policy file identified by its SHA-256.", html)
    }
}
