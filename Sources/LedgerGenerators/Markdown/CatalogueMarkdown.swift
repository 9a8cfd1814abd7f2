import LedgerCore

/// The event catalogue as Markdown (docs/events.md), written from the same ``EventSchema``
/// values that validate events: every type under its docs/design/events.md group, with its summary, schema
/// versions, fields (kind, required, allowed values, personal data), rules, derived facts, older
/// versions and one complete JSON example that passes validation.
///
/// The output depends on the schemas only: the same code always writes the same bytes.
public enum CatalogueMarkdown {
    /// The whole catalogue.
    public static func render() -> String {
        var out: [String] = []
        out.append("# Event catalogue")
        out.append("")
        out.append("Written by `consent-ledger catalogue --format markdown` from the schemas in `Sources/LedgerCore/Catalogue` "
            + "(`CatalogueMarkdown.render()`); do not edit by hand. The same schemas validate every event at append, so this page "
            + "and the ledger cannot disagree. The database enforces them too: `consent-ledger catalogue --sql sql/generated` writes "
            + "them as the SQL functions `ledger.append_events` checks every event with, whoever calls it (psql included; decision 0035).")
        out.append("")
        out.append("Each event is an envelope (docs/architecture.md) whose `type` and `schemaVersion` select a schema below, and whose "
            + "`payload` that schema checks. Conventions:")
        out.append("")
        out.append("- Field names and values are spelled as the platform APIs spell them, so an entry maps back to the call that produced it.")
        out.append("- Paths: `a.b` is member `b` of object `a`; `a[]` stands for every element of array `a`. Errors name the exact path (`payload.ageGates[2]`).")
        out.append("- Required \"yes\": present and not `null`. Required \"no\": may be omitted or `null`. A member the schema does not list is refused.")
        out.append("- Personal data \"yes\": encrypted with the subject's key before canonical encoding and hashing; after the subject is erased it reads as erased, and the chain still verifies. "
            + "`ledger.append_events` accepts such a field only sealed (`{\"$sealed\":\"v1.…\"}`), on an event with a subject.")
        out.append("- Derived facts are computed by the ledger and stored in the event's top-level `\(EventCatalogue.derivedMember)` member. Clients never send them: "
            + "the Swift client and the HTTP API refuse them, and `ledger.append_events` adds them to an event that has none (psql) "
            + "and refuses an event whose `\(EventCatalogue.derivedMember)` differs from what the database computes from the payload.")
        out.append("- Guardians, subjects and operators appear only as pseudonyms. A birth date, birth year or exact age is refused: "
            + "a member named like one (`birthDate`, `dob`, `age`, …) at any depth of the event, and, in every free-text field "
            + "(\"free text\" below, personal or not), a birth word followed by a date or year (`born 2012-05-01`, `DOB: 1.5.2012`, "
            + "`birthday May 1`) or an exact age (`14 years old`, `14-year-old`, `9yo`, `aged 14`, `age: 14`). Dates, versions, "
            + "bounds and ranges pass (`expires 2026-12-01`, `Version 2012.05.01`, `under 13 years old`, `ages 13-15`); "
            + "decision 0034 lists the exact rules.")
        out.append("- Every event may say which build it came from in the envelope's `app.environment`: `production` (installed from the store), `sandbox` (TestFlight, the App Store sandbox, a Play test track) or `development` (run from Xcode or Android Studio). Left out, it is not known.")
        out.append("- Every event may carry in `app.originalAppVersion` the version the person first installed (StoreKit's `AppTransaction.originalAppVersion`). Send it whenever the app can read it: the rules take the version the subject first used the app at from it, and without it they judge a significant change as in force and mark the finding as needing review (decision 0064).")
        out.append("")
        out += appendersSection()
        out.append("")
        out.append("## Contents")
        out.append("")
        for group in EventGroup.allCases {
            let types = EventCatalogue.schemas.filter { $0.group == group }.map { "[\($0.type)](#\($0.type.lowercased()))" }
            out.append("- \(group.title): " + types.joined(separator: ", "))
        }
        for group in EventGroup.allCases {
            out.append("")
            out.append("## \(group.title)")
            for schema in EventCatalogue.schemas where schema.group == group {
                out.append("")
                out += section(schema)
            }
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// Who may append each type: the routes, then one row per type and route (decision 0056).
    static func appendersSection() -> [String] {
        var out: [String] = []
        out.append("## Who may append each type")
        out.append("")
        out.append("Each type says which routes may append it and which actors (`actor.kind`) each may record it with. Every route "
            + "checks its events before anything is stored, and the database checks again for every caller of the function the route "
            + "ends in (`ledger.append_route_problem`, generated from the same values): an event a route may not append is refused with "
            + "`append-not-permitted` (HTTP 403, SQLSTATE CL010), naming the route to use, and nothing of its batch is stored. The "
            + "ledger's own facts come only from their operations, run as the owner; the actor `appStore` only from a signed App Store "
            + "notification the ledger verified itself (decision 0017). The database cannot tell the two routes that end in "
            + "`ledger.append_events` apart: it stores what either may append, and the server's routes tell them apart.")
        out.append("")
        out.append("| Route | Writers | Stored through |")
        out.append("| --- | --- | --- |")
        for route in AppendRoute.allCases {
            out.append(row(["`\(route.rawValue)`", route.writers, "`\(route.databaseFunction)`"]))
        }
        out.append("")
        out.append("| Type | Route | Actors |")
        out.append("| --- | --- | --- |")
        for schema in EventCatalogue.schemas {
            for appender in schema.appenders {
                out.append(row(["[\(schema.type)](#\(schema.type.lowercased()))", "`\(appender.route.rawValue)`",
                                appender.actors.map { "`\($0)`" }.joined(separator: ", ")]))
            }
        }
        return out
    }

    /// The section of one type.
    static func section(_ schema: EventSchema) -> [String] {
        var out: [String] = []
        out.append("### \(schema.type)")
        out.append("")
        out.append(schema.summary)
        out.append("")
        if schema.olderVersions.isEmpty {
            out.append("Schema version \(schema.version).")
        } else {
            let older = schema.olderVersions.map { String($0.version) }.joined(separator: ", ")
            out.append("Schema version \(schema.version). Also reads version\(schema.olderVersions.count == 1 ? "" : "s") \(older), upcast as described below.")
        }
        out.append("")
        out += fieldTable(schema.fields)
        if !schema.rules.isEmpty {
            out.append("")
            out.append("Rules:")
            out.append("")
            out += schema.rules.map { "- " + $0.description }
        }
        if !schema.personalFields.isEmpty {
            out.append("")
            out.append("Personal data: " + schema.personalFields.map { "`\($0)`" }.joined(separator: ", ") + ".")
        }
        if !schema.derived.isEmpty {
            out.append("")
            out.append("Derived facts, stored under `\(EventCatalogue.derivedMember)`:")
            out.append("")
            out.append("| Fact | Kind | Allowed values | How the ledger computes it |")
            out.append("| --- | --- | --- | --- |")
            for fact in schema.derived {
                out.append(row(["`\(fact.name)`", kindSummary(fact.kind), allowedValues(fact.kind), fact.summary]))
            }
        }
        out.append("")
        out.append("Appended by: " + schema.appenders.map { "\($0.route.rawValue) (actor \($0.actors.joined(separator: ", ")))" }
            .joined(separator: "; ") + ".")
        if !schema.roles.isEmpty {
            out.append("")
            out.append("To the projections and the rules: " + schema.roles.map(\.sentence).joined(separator: "; ") + ".")
        }
        out.append("")
        out.append("Example payload:")
        out.append("")
        out.append("```json")
        out.append(PrettyJSON.render(schema.example))
        out.append("```")
        if !schema.derived.isEmpty, let checked = try? EventCatalogue.validate(type: schema.type, schemaVersion: schema.version,
                                                                                  payload: schema.example, context: .standard) {
            out.append("")
            out.append("The ledger derives: `" + CanonicalJSON.encodeString(.object(checked.derived)) + "`.")
        }
        for older in schema.olderVersions.reversed() {
            out.append("")
            out.append("#### \(schema.type) version \(older.version)")
            out.append("")
            out.append(older.changes)
            out.append("")
            out += fieldTable(older.fields)
            if !older.rules.isEmpty {
                out.append("")
                if older.rules == schema.rules {
                    out.append("Rules: as in the current version.")
                } else {
                    out.append("Rules:")
                    out.append("")
                    out += older.rules.map { "- " + $0.description }
                }
            }
        }
        return out
    }

    /// A field table, nested members flattened into paths. Members of a personal-data field are
    /// personal data too.
    static func fieldTable(_ fields: [FieldSchema]) -> [String] {
        if fields.isEmpty { return ["No payload fields: the payload is `{}`."] }
        var out = ["| Field | Kind | Required | Allowed values | Personal data | Description |",
                   "| --- | --- | --- | --- | --- | --- |"]
        func add(_ fields: [FieldSchema], prefix: String, personal: Bool) {
            for field in fields {
                let path = prefix + field.name
                let isPersonal = personal || field.isPersonalData
                out.append(row(["`\(path)`", kindSummary(field.kind), field.isRequired ? "yes" : "no",
                                allowedValues(field.kind), isPersonal ? "yes" : "no", field.summary]))
                addMembers(field.kind, path: path, personal: isPersonal)
            }
        }
        func addMembers(_ kind: FieldKind, path: String, personal: Bool) {
            switch kind {
            case .object(let members):
                add(members, prefix: path + ".", personal: personal)
            case .array(let element, _, _):
                addMembers(element, path: path + "[]", personal: personal)
            case .variant(let cases):
                for variant in cases {
                    let casePath = path + "." + variant.name
                    out.append(row(["`\(casePath)`", "object", "one of the cases", "", personal ? "yes" : "no", variant.summary]))
                    add(variant.fields, prefix: casePath + ".", personal: personal)
                }
            default:
                break
            }
        }
        add(fields, prefix: "", personal: false)
        return out
    }

    /// The Kind column.
    static func kindSummary(_ kind: FieldKind) -> String {
        switch kind {
        case .boolean: return "boolean"
        case .integer(let range):
            return range.upperBound >= FieldKind.largestInteger
                ? "integer, from \(range.lowerBound)" : "integer, \(range.lowerBound) to \(range.upperBound)"
        case .code: return "integer code"
        case .text(let maxLength): return "string, free text of up to \(maxLength) characters"
        case .token(let format): return "string, \(format.shortName)"
        case .oneOf: return "string"
        case .array(let element, let count, let unique):
            let items = count.lowerBound == count.upperBound ? "\(count.lowerBound)" : "\(count.lowerBound) to \(count.upperBound)"
            return "array of \(kindSummary(element)); \(items) items\(unique ? ", distinct" : "")"
        case .object: return "object"
        case .variant(let cases): return "object with exactly one of " + cases.map { "`\($0.name)`" }.joined(separator: ", ")
        }
    }

    /// The Allowed values column.
    static func allowedValues(_ kind: FieldKind) -> String {
        switch kind {
        case .oneOf(let values):
            return values.map { "`\($0.name)`" + ($0.isDeprecated ? " (deprecated)" : "") }.joined(separator: ", ")
        case .code(let codes):
            return codes.map { "`\($0.code)` (\($0.label))" }.joined(separator: ", ")
        case .array(let element, _, _):
            return allowedValues(element)
        default:
            return ""
        }
    }

    static func row(_ cells: [String]) -> String {
        "| " + cells.map { $0.replacingPipes() }.joined(separator: " | ") + " |"
    }
}

extension String {
    /// `|` escaped for a Markdown table cell.
    fileprivate func replacingPipes() -> String {
        var out = ""
        for character in self {
            if character == "|" { out += "\\|" } else { out.append(character) }
        }
        return out
    }
}
