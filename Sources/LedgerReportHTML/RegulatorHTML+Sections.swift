import LedgerCore
/// The later sections of the regulator report: significant changes, exceptions, violations,
/// coverage, retention, integrity and the policy in force.
extension RegulatorHTML {
    // MARK: Significant changes

    static func changesSection(_ changes: [ReportNode]) throws -> HTML {
        let rows = try changes.map { change -> [HTML] in
            [ReportMarkup.cell("\(ReportMarkup.id(try change.string("changeId")))<br>app \(ReportMarkup.id(try change.optionalString("app")))"
                + "<br>version \(ReportMarkup.text(try change.optionalString("introducedInVersion")))"),
             ReportMarkup.cell(ReportMarkup.time(try change.string("declaredAt"))),
             ReportMarkup.cell(ReportMarkup.time(try change.optionalString("notifiedToStoreAt"), otherwise: "no notice on record")),
             ReportMarkup.countCell(try change.int("minorsAsked")), ReportMarkup.countCell(try change.int("approved")),
             ReportMarkup.countCell(try change.int("denied")), ReportMarkup.countCell(try change.int("adultsAcknowledged")),
             ReportMarkup.cell(ReportMarkup.evidence(positions: try change.ints("evidencePositions"), eventIds: try change.strings("evidenceEventIds")))]
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

    static func exceptionsSection(_ exceptions: ReportNode) throws -> HTML {
        let byAge = try exceptions.objects("byRatedAge")
        let requested = try byAge.map { try $0.int("requested") }
        let approved = try byAge.map { try $0.int("approved") }
        let declined = try byAge.map { try $0.int("declined") }
        let rows = try byAge.enumerated().map { index, rating -> [HTML] in
            ["<th scope=\"row\">\(try rating.string("ratedAge"))</th>", ReportMarkup.countCell(requested[index]),
             ReportMarkup.countCell(approved[index]), ReportMarkup.countCell(declined[index])]
        }
        let html = ReportMarkup.figures([
            ("Requested", ReportMarkup.count(try exceptions.int("requested")), nil),
            ("Approved by message", ReportMarkup.count(try exceptions.int("approvedByMessage")), nil),
            ("Approved in person", ReportMarkup.count(try exceptions.int("approvedInPerson")), nil),
            ("Declined", ReportMarkup.count(try exceptions.int("declined")), nil),
        ]) + ReportMarkup.subsection("By the app’s age rating", ReportMarkup.table(
            columns: [("Age rating", ""), ("Requested", "num"), ("Approved", "num"), ("Declined", "num")],
            rows: rows + [total(label: "All ratings", [requested, approved, declined])], className: "data compact"))
        let inPerson = try exceptions.object("approveInPerson")
        let devices = "<div class=\"pair\">\n"
            + ReportMarkup.subsection("Install attempts", intro: "InstallAttempted, by outcome (cancelled: an exception was queued instead).",
                                      try keyCountTable(exceptions.objects("installsByOutcome"), keyHeader: "Outcome"))
            + ReportMarkup.subsection("Devices’ rating limits", intro: "DeviceRatingLimitObserved: the highest rating a device allowed (noLimit: all apps).",
                                      try keyCountTable(exceptions.objects("deviceRatingLimits"), keyHeader: "Limit"))
            + "</div>\n"
            + ReportMarkup.subsection("Approve in Person", ReportMarkup.figures([
                ("Sheets shown", ReportMarkup.count(try inPerson.int("presented")), nil),
                ("Failed to show", ReportMarkup.count(try inPerson.int("failed")), "no exception request was pending"),
            ]))
        return ReportMarkup.section(id: "exceptions", title: title("exceptions"),
            intro: "Requests to use an app rated above the child’s age (MarketplaceKit age-rating exceptions) made in the period, and the first decision on each before the period’s end; "
                + "then the period’s install attempts, the devices’ rating limits and the Approve in Person sheets.",
            html + devices)
    }

    // MARK: Violations

    static func violationsSection(_ violations: [ReportNode]) throws -> HTML {
        var counts: [String: Int] = [:]
        var descriptions: [String: String] = [:]
        let rows = try violations.map { violation -> [HTML] in
            let rule = try violation.string("rule")
            counts[rule, default: 0] += 1
            if descriptions[rule] == nil { descriptions[rule] = try violation.string("description") }
            return [
                ReportMarkup.cell("<strong>\(rule)</strong>"),
                ReportMarkup.cell(ReportMarkup.subject(try violation.optionalString("subject"), erased: try violation.bool("subjectErased"))),
                ReportMarkup.cell(ReportMarkup.time(try violation.string("occurredAt"))),
                ReportMarkup.cell(HTML(text: try violation.string("detail"))
                    + "<br>about <span class=\"pos\">#\(try violation.int("position"))</span> \(ReportMarkup.id(try violation.string("eventId")))"
                    + (try violation.optionalString("needsReview").map { "<br><strong>Needs review:</strong> " + HTML(text: $0) } ?? .empty)),
                ReportMarkup.cell(ReportMarkup.evidence(positions: try violation.ints("evidencePositions"), eventIds: try violation.strings("evidenceEventIds"))),
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

    static func coverageSection(_ coverage: ReportNode) throws -> HTML {
        let installs = try coverage.int("installs")
        let backfill = try coverage.object("backfill")
        func percent(_ share: Double?, _ empty: String) -> HTML {
            share.map { HTML(text: ReportFormat.percent($0)) } ?? ReportMarkup.none(empty)
        }
        let html = ReportMarkup.figures([
            ("Installs", ReportMarkup.count(installs), "a (subject, app) pair with an event in the period"),
            ("Age range requested at download", ReportMarkup.count(try coverage.int("requestedAtDownload")),
             percent(try coverage.optionalDouble("shareAtDownload"), "— (no installs)") + " of installs"),
            ("Age range requested at launch", ReportMarkup.count(try coverage.int("requestedAtLaunch")),
             percent(try coverage.optionalDouble("shareAtLaunch"), "— (no installs)") + " of installs"),
        ]) + ReportMarkup.subsection("Back-fill of existing installs", ReportMarkup.figures([
            ("Existing installs", ReportMarkup.count(try backfill.int("existingInstalls")), "no request at download on record"),
            ("Of those, with an age range requested", ReportMarkup.count(try backfill.int("withAgeSignal")),
             percent(try backfill.optionalDouble("share"), "— (no existing installs)") + " by the period’s end"),
            ("Back-fill requests in the period", ReportMarkup.count(try backfill.int("backfillRequests")), "AgeRangeRequested with trigger backfill"),
        ]))
        return ReportMarkup.section(id: "coverage", title: try coverage.string("title"),
            intro: "The share of installs whose age range the app asked for when it was downloaded or launched, and the progress of asking for installs that predate it. "
                + (try lawsSentence(coverage)),
            html)
    }

    // MARK: Retention

    static func retentionSection(_ retention: ReportNode) throws -> HTML {
        let policy = try retention.object("policy")
        var html = ReportMarkup.subsection("The retention policy",
            ReportMarkup.facts([("Policy id", ReportMarkup.id(try policy.string("policyId")))])
                + ReportMarkup.markdown(try policy.string("statement")))
        let applied = try retention.objects("retentionApplied").map { item -> [HTML] in
            [ReportMarkup.cell(ReportMarkup.id(try item.string("policyId"))),
             ReportMarkup.cell(HTML(text: try item.string("scope")) + "<br><span class=\"note\">\(try item.string("reason"))</span>"),
             ReportMarkup.cell(ReportMarkup.time(try item.optionalString("cutoff"), otherwise: "no cutoff")),
             ReportMarkup.countCell(try item.int("subjects")),
             ReportMarkup.cell(ReportMarkup.time(try item.string("occurredAt"))),
             ReportMarkup.cell(ReportMarkup.evidence(positions: try item.ints("evidencePositions"), eventIds: try item.strings("evidenceEventIds")))]
        }
        html += ReportMarkup.subsection("Retention applied", applied.isEmpty
            ? ReportMarkup.paragraph("No retention was applied in this period.", className: "empty")
            : ReportMarkup.table(columns: [("Policy", ""), ("Scope and reason", ""), ("Cutoff", ""), ("Subjects", "num"), ("Occurred", ""), ("Evidence", "")],
                                 rows: applied))
        let erasures = try retention.objects("erasures").map { item -> [HTML] in
            [ReportMarkup.cell(ReportMarkup.subject(try item.string("subject"), erased: true)),
             ReportMarkup.cell(HTML(text: try item.string("reason"))),
             ReportMarkup.cell(ReportMarkup.time(try item.string("occurredAt"))),
             ReportMarkup.cell(ReportMarkup.evidence(positions: try item.ints("evidencePositions"), eventIds: try item.strings("evidenceEventIds")))]
        }
        html += ReportMarkup.subsection("Subjects erased", intro: "SubjectErased: the subject’s key was destroyed, so their personal data can no longer be read.",
            erasures.isEmpty ? ReportMarkup.paragraph("No subject was erased in this period.", className: "empty")
                : ReportMarkup.table(columns: [("Subject", ""), ("Reason", ""), ("Occurred", ""), ("Evidence", "")], rows: erasures))
        return ReportMarkup.section(id: "retention", title: try retention.string("title"),
            intro: "The written retention policy in force and what was erased in the period (in every jurisdiction, since erasure is per subject). "
                + (try lawsSentence(retention)), html)
    }

    /// What a section's laws are: those that govern the whole jurisdiction, with their citations, and
    /// those that govern only a part of it; or that no law of the ledger's catalogue governs it.
    static func lawsSentence(_ section: ReportNode) throws -> String {
        let laws = try section.objects("laws")
        let parts = try section.objects("lawsForParts")
        var sentence = laws.isEmpty
            ? "No law of the ledger’s catalogue on this subject governs the whole of this jurisdiction."
            : "Governed by " + (try laws.map { "\(try $0.string("title")) (\(try $0.string("citation")))" }.joined(separator: "; ")) + "."
        if !parts.isEmpty {
            sentence += " Within this jurisdiction, " + (try parts.map { "\(try $0.string("title")) governs \(try $0.strings("jurisdictions").joined(separator: ", "))" }
                .joined(separator: "; ")) + ": a report for each of those jurisdictions is titled by its law."
        }
        let notInForce = try section.objects("lawsNotInForce")
        if !notInForce.isEmpty {
            sentence += " Not in force at any time in this period, so not applied: "
                + (try notInForce.map { "\(try $0.string("title")) (\(try $0.string("status")))" }.joined(separator: "; "))
                + " (statuses as checked on \(try notInForce[0].string("statusChecked")))."
        }
        return sentence
    }

    // MARK: Integrity

    static func integritySection(_ integrity: ReportNode, provenance: ReportPage.Provenance) throws -> HTML {
        let passed = try integrity.bool("passed")
        let from = try integrity.int("verifiedFrom"), through = try integrity.int("verifiedThrough")
        var facts: [(String, HTML)] = []
        if try integrity.member("checkpoint").isNull {
            facts.append(("Signed checkpoint", "None at or below position \(ReportFormat.count(provenance.position)): the report rests on "
                + "the chain hash there (\(ReportMarkup.id(provenance.headHash))), and every position up to it was re-hashed."))
        } else {
            let checkpoint = try integrity.object("checkpoint")
            facts += [
                ("Signed checkpoint", "The log’s first \(ReportFormat.count(try checkpoint.int("treeSize"))) events, signed by "
                    + "\(HTML(text: try checkpoint.string("keyName"))) (key \(ReportMarkup.id(try checkpoint.string("keyId")))), "
                    + "\(ReportMarkup.time(try checkpoint.string("signedAt")))"),
                ("Its root hash", ReportMarkup.id(try checkpoint.string("rootHash"))),
                ("The signed note", noteMarkup(try checkpoint.string("note"))),
            ]
        }
        facts += [
            ("Positions re-hashed by this report", from <= through ? "\(ReportFormat.count(from)) to \(ReportFormat.count(through))" : "none (nothing after the checkpoint)"),
            ("Cited records before them, proved in the signed tree", HTML(text: ReportFormat.count(try integrity.int("citedProved")))),
            ("Projections last proven equal to the log", try integrity.optionalObject("projectionsProven").map { proven in
                HTML(text: "to position \(ReportFormat.count(try proven.int("position"))), ") + ReportMarkup.time(try proven.string("verifiedAt"))
            } ?? HTML(text: "never, at or below this position (consent-ledger verify --projections)")),
            ("Result", passed ? "<span class=\"pass\">passed</span>" : "<span class=\"fail\">FAILED</span>"),
            ("First problem", ReportMarkup.text(try integrity.optionalString("problem"), otherwise: "none")),
            ("What was checked", HTML(text: try integrity.string("method"))),
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

    static func policySection(_ policy: ReportNode) throws -> HTML {
        let retention = try policy.object("retention")
        let hours = try policy.int("rescissionEnforcementWindowHours")
        var facts: [(String, HTML)] = [("Source", ReportMarkup.id(try policy.string("source")))]
        if let id = try policy.optionalString("policyId") { facts.append(("Policy", ReportMarkup.id(id))) }
        if let version = try policy.optionalString("policyVersion") { facts.append(("Policy version", ReportMarkup.id(version))) }
        facts.append(("Rescission enforcement window", "\(ReportFormat.plural(hours, "hour")): how long after a rescission the app may take to close the feature"))
        if let days = (try? policy.optionalInt("ageSignalRecheckDays")) ?? nil {  // absent from reports sealed before it existed
            facts.append(("Age signal re-check interval", "\(ReportFormat.plural(days, "day")): how long an age signal may be relied on"))
        }
        facts.append(("Retention policy", ReportMarkup.id(try retention.string("policyId"))))
        // Only the rules the policy changes: every other rule of docs/rules.md applies everywhere.
        for rule in try policy.objects("rules") {
            if try !rule.bool("enabled") {
                facts.append(("Rule " + (try rule.string("rule")), "off: its findings are not listed"))
            } else if case .array(let codes)? = try? rule.member("jurisdictions") {
                facts.append(("Rule " + (try rule.string("rule")),
                              "applied only to events of \(codes.compactMap(\.stringValue).joined(separator: ", "))"))
            }
        }
        let html = ReportMarkup.facts(facts) + ReportMarkup.markdown(try retention.string("statement"))
        return ReportMarkup.section(id: "policy", title: title("policy"),
            intro: "The settings the rules above were applied with: the built-in defaults, or a policy file identified by its SHA-256.", html)
    }
}
