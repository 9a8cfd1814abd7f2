import Foundation
import LedgerCore
@testable import LedgerPostgres
import LedgerReportModel
import PostgresNIO
import Testing
import LedgerSimulation

/// The published JSON Schemas of the reports (docs/reports/*.schema.json) against real report
/// output: every schema is checked whole by ``JSONSchemaValidator`` (which refuses any keyword it
/// does not check), real reports of the demo story and of a simulated history validate, and
/// broken copies of real reports fail with the violation at the right path.
@Suite("Report schemas")
struct ReportSchemaTests {
    /// The schemas that must exist.
    static let expectedSchemas = ["consent-register", "regulator", "subject-dossier"]

    // MARK: - The schemas themselves

    @Test("every docs/reports/*.schema.json parses and uses only keywords the validator checks")
    func schemasUseOnlyKnownKeywords() throws {
        let files = try JSONSchemaValidator.reportSchemaFiles()
        let names = files.map { $0.lastPathComponent.replacingOccurrences(of: ".schema.json", with: "") }
        #expect(Set(names).isSuperset(of: Self.expectedSchemas), "found \(names)")
        for file in files {
            let validator: JSONSchemaValidator
            do { validator = try JSONSchemaValidator(schemaAt: file) } catch {
                Issue.record("\(error)")
                continue
            }
            #expect(validator.root["$schema"] == "https://json-schema.org/draft/2020-12/schema", "\(file.lastPathComponent)")
            #expect(validator.root["$id"]?.stringValue == "https://consentledger.example/schemas/" + file.lastPathComponent)
            #expect(validator.root["type"] == "object" && validator.root["additionalProperties"] == false, "\(file.lastPathComponent)")
            // Every definition is used, and the report names itself as its file does.
            let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
            for name in (validator.root["$defs"]?.objectValue ?? [:]).keys.sorted() {
                #expect(text.contains("\"#/$defs/\(name)\""), "\(file.lastPathComponent): $defs/\(name) is never referenced")
            }
            let name = file.lastPathComponent.replacingOccurrences(of: ".schema.json", with: "")
            #expect(validator.root["properties"]?["report"]?["const"]?.stringValue == name, "\(file.lastPathComponent)")
            // Every report is sealed and states where it was computed.
            let required = Set(validator.root["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            #expect(required.isSuperset(of: ["report", "parameters", "ledger", "software", "sha256"]), "\(file.lastPathComponent)")
        }
    }

    @Test("the dossier schema lists exactly the catalogue's event types, and the report's columns")
    func dossierSchemaMatchesTheCode() throws {
        let schema = try JSONSchemaValidator(schemaFile: "subject-dossier").root
        let types = schema["$defs"]?["eventType"]?["enum"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(types == EventCatalogue.eventTypes)
        #expect(schema["properties"]?["columns"]?["const"] == .array(SubjectDossierReport.columns.map(JSONValue.string)))
        let stepMembers = schema["$defs"]?["step"]?["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(stepMembers == SubjectDossierReport.columns)
        let registerColumns = try JSONSchemaValidator(schemaFile: "consent-register").root["$defs"]?["row"]?["required"]?
            .arrayValue?.compactMap(\.stringValue) ?? []
        #expect(registerColumns == ConsentRegisterReport.columns)
    }

    // MARK: - Real reports validate

    @Test("the demo story's consent register and the teen's dossier validate, at the head and as of earlier positions")
    func demoStoryValidates() async throws {
        let register = try JSONSchemaValidator(schemaFile: "consent-register")
        let dossier = try JSONSchemaValidator(schemaFile: "subject-dossier")
        let db = try await TestDatabase.create()
        try await DemoStoryProjectionTests.appendStory(db)
        try await db.as(.auditor) { client async throws in
            for asOf in [nil, 1, 5, 6] as [Int64?] {
                let report = try await ConsentRegisterReport.compute(.init(log: "demo", asOf: asOf), pool: client)
                #expect(try register.violations(of: report.json) == [], "register as of \(asOf.map(String.init) ?? "head")")
                let filtered = try await ConsentRegisterReport.compute(
                    .init(log: "demo", asOf: asOf, from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 4_000_000_000),
                          subject: DemoHistory.subject), pool: client)
                #expect(try register.violations(of: filtered.json) == [], "filtered register as of \(asOf.map(String.init) ?? "head")")
                let history = try await SubjectDossierReport.compute(log: "demo", subject: DemoHistory.subject, asOf: asOf, pool: client)
                #expect(try dossier.violations(of: history.json) == [], "dossier as of \(asOf.map(String.init) ?? "head")")
            }
            // The first step (EligibilityChecked) makes the state: what the check said of the app.
            let whole = try await SubjectDossierReport.compute(log: "demo", subject: DemoHistory.subject, pool: client)
            #expect(whole.steps.first?.state?.appFacts.first?.fact == "eligibility")
            #expect(whole.steps.first?.state?.appFacts.first?.value == "eligible")
            #expect(whole.steps.last?.state?.consents.count == 2)
        }
    }

    @Test("a simulated history's register, dossiers and every subject's state validate, with every answer kind and the nulls")
    func simulatedHistoryValidates() async throws {
        let register = try JSONSchemaValidator(schemaFile: "consent-register")
        let dossier = try JSONSchemaValidator(schemaFile: "subject-dossier")
        let db = try await TestDatabase.create()
        let count = try await ProjectionTestSupport.appendSimulated(db, families: 16, days: 45, seed: 74)
        // Facts the simulator never produces, for the nulls they leave: a request before anything
        // that makes a state (the state null), an age range with no declaration, no parental
        // controls and no app (declaration null, parentalControls empty, platform unknown, the
        // step's app null), an Approve in Person sheet that failed (a failed in-person fact), and an
        // answer naming no subject or app to a question the ledger never saw (a register row with
        // subject, app, topic and askedAt null).
        let unknownQuestion = UUID().uuidString.lowercased()
        try await db.as(.application) { client async throws in
            let edges: [JSONValue] = [
                ["eventId": .string(UUID().uuidString.lowercased()), "stream": .string("subject-" + Self.edgeSubject), "type": "AgeRangeRequested",
                 "schemaVersion": 1, "occurredAt": "2027-05-31T23:59:00Z", "subject": .string(Self.edgeSubject), "actor": ["kind": "app"],
                 "payload": ["ageGates": [13, 16, 18], "trigger": "launch"]],
                ["eventId": .string(UUID().uuidString.lowercased()), "stream": .string("subject-" + Self.edgeSubject), "type": "AgeRangeShared",
                 "schemaVersion": 2, "occurredAt": "2027-06-01T00:00:00Z", "subject": .string(Self.edgeSubject), "actor": ["kind": "subject"],
                 "payload": ["lowerBound": 18]],
                ["eventId": .string(UUID().uuidString.lowercased()), "stream": .string("subject-" + Self.edgeSubject),
                 "type": "ApproveInPersonFailed", "schemaVersion": 1, "occurredAt": "2027-06-01T00:00:30Z",
                 "subject": .string(Self.edgeSubject), "actor": ["kind": "app"],
                 "payload": ["error": "missingAgeRatingExceptionRequest", "appleItemID": 6_471_234_567]],
                ["eventId": .string(UUID().uuidString.lowercased()), "stream": .string("question-" + unknownQuestion),
                 "type": "ParentalAnswerReceived", "schemaVersion": 1, "occurredAt": "2027-06-01T00:01:00Z", "actor": ["kind": "guardian"],
                 "payload": ["questionId": .string(unknownQuestion), "choiceId": "allow", "choiceTitle": "Allow", "answer": "approval",
                             "receivedAt": "2027-06-01T00:01:00Z", "channel": "message"]],
            ]
            _ = try await EventStore(pool: client).append(log: "sim", events: try edges.map { try EventInput(json: $0) })
        }
        // The simulator writes no SubjectErased (it is the ledger's own fact): erase one subject.
        let erased = try await db.as(.administrator) { client async throws -> String in
            let subject = try await Self.firstSubject(client, with: "AgeRangeShared")
            let event: JSONValue = [
                "eventId": .string(UUID().uuidString.lowercased()), "stream": .string("subject-" + subject), "type": "SubjectErased",
                "schemaVersion": 1, "occurredAt": "2027-06-01T00:00:00Z", "subject": .string(subject), "actor": ["kind": "ledger"],
                "payload": ["subjectId": .string(subject), "reason": "erasureRequest"],
            ]
            _ = try await EventStore(pool: client).erase(log: "sim", subject: subject, erasure: try EventInput(json: event))
            return subject
        }
        try await db.as(.auditor) { client async throws in
            // The register: every answer kind occurs, and the nullable columns are null somewhere and set elsewhere.
            let report = try await ConsentRegisterReport.compute(.init(log: "sim"), pool: client)
            #expect(try register.violations(of: report.json) == [])
            #expect(Set(report.rows.map(\.answer)) == ["approval", "denial", "expired", "pending", "rescinded", "failed"])
            let rows = try JSONParser.parse(report.json)["rows"]?.arrayValue ?? []
            for column in ["subject", "app", "topic", "changeId", "ratedApp", "ratedAge", "askedAt", "sentVia", "expiresAt", "answeredAt",
                           "answeredBy", "answerChannel", "timeToAnswerSeconds", "failedAt", "failedError", "rescindedAt"] {
                #expect(rows.contains { $0[column] == .null }, "no row with \(column) null")
                #expect(rows.contains { $0[column] != .null }, "no row with \(column) set")
            }
            #expect(report.rows.contains { $0.answeredBy == "not disclosed by platform" })
            #expect(Set(report.rows.compactMap(\.answerChannel)) == ["message", "inPerson"])
            let half = try await ConsentRegisterReport.compute(.init(log: "sim", asOf: Int64(count / 2)), pool: client)
            #expect(try register.violations(of: half.json) == [])

            // Every subject's state, at the head and half way, against the dossier's snapshot definition.
            var seen = StateCoverage()
            for asOf in [AsOf.head, .position(Int64(count / 2))] {
                let (_, texts) = try await TimeTravel(pool: client).snapshots(log: "sim", asOf: asOf)
                #expect(texts.count > 20)
                for text in texts {
                    let state = try JSONParser.parse(text)
                    let problems = try dossier.violations(of: state, against: "#/$defs/snapshot")
                    #expect(problems == [], "\(asOf): \(state["subject"]?.stringValue ?? "?")")
                    seen.note(state)
                }
            }

            // Whole dossiers of the busiest subjects and of one subject per kind of event that shapes the state.
            var subjects = try await Self.busySubjects(client, limit: 3)
            for type in ["ConsentRescinded", "PermissionQuestionFailed", "QuestionExpired", "AgeExceptionDecided", "PlayAgeSignalReceived",
                         "AgeRangeDeclined", "AgeRangeRequestFailed"] {
                subjects.append(try await Self.firstSubject(client, with: type))
            }
            subjects += [erased, Self.edgeSubject]
            for subject in Set(subjects).sorted() {
                let history = try await SubjectDossierReport.compute(log: "sim", subject: subject, pool: client)
                #expect(try dossier.violations(of: history.json) == [], "dossier of \(subject)")
                for step in history.steps {
                    seen.note(try step.state.map { try ReportJSON.value($0) } ?? .null)
                    if step.app == nil { seen.insert("step app null") }
                }
            }
            #expect(seen.missing == [], "states never seen: \(seen.missing)")
        }
    }

    // MARK: - Broken copies of real reports fail where they are broken

    @Test("the validator bites: a member removed, a wrong type, an unknown member, a bad enum value each give their path")
    func brokenReportsFail() async throws {
        let register = try JSONSchemaValidator(schemaFile: "consent-register")
        let dossier = try JSONSchemaValidator(schemaFile: "subject-dossier")
        let db = try await TestDatabase.create()
        try await DemoStoryProjectionTests.appendStory(db)
        let (registerJSON, dossierJSON) = try await db.as(.auditor) { client async throws in
            (try await ConsentRegisterReport.compute(.init(log: "demo"), pool: client).json,
             try await SubjectDossierReport.compute(log: "demo", subject: DemoHistory.subject, pool: client).json)
        }
        let r = try JSONParser.parse(registerJSON), d = try JSONParser.parse(dossierJSON)
        #expect(register.violations(of: r) == [] && dossier.violations(of: d) == [])
        // The demo's dossier: step 5 is after #7 (the gate opened), step 2 after #3 (the age range).
        #expect(d.at(["steps", 5, "state", "features", 0, "state"]) == "open")
        #expect(d.at(["steps", 2, "state", "age", "category"]) == "13to15")

        let cases: [Breakage] = [
            // A member removed.
            Breakage(register, r.removing(["rows", 0, "answer"]), "$.rows[0].answer", "required member is missing"),
            Breakage(register, r.removing(["ledger", "headHash"]), "$.ledger.headHash", "required member is missing"),
            Breakage(dossier, d.removing(["steps", 2, "state", "age", "category"]), "$.steps[2].state.age.category", "required member is missing"),
            // A wrong type.
            Breakage(register, r.setting(["rowCount"], "2"), "$.rowCount", #""2" is a string, expected integer"#),
            Breakage(register, r.setting(["rows", 1, "ratedApp"], 6_471_234_567.5), "$.rows[1].ratedApp", "is a number, expected integer or null"),
            Breakage(register, r.setting(["rows", 0, "evidencePositions", 1], "6"), "$.rows[0].evidencePositions[1]", #""6" is a string, expected integer"#),
            Breakage(dossier, d.setting(["steps", 0, "changedState"], "yes"), "$.steps[0].changedState", #""yes" is a string, expected boolean"#),
            Breakage(dossier, d.setting(["steps", 5, "state", "erased"], .null), "$.steps[5].state.erased", "null, expected boolean"),
            Breakage(dossier, d.setting(["steps", 0, "state"], "none"), "$.steps[0].state", "matches none of the alternatives of oneOf"),
            // An unknown extra member.
            Breakage(register, r.setting(["parameters", "tenant"], "acme"), "$.parameters.tenant", "unknown member (additionalProperties is false)"),
            Breakage(register, r.setting(["rows", 1, "note"], "x"), "$.rows[1].note", "unknown member (additionalProperties is false)"),
            Breakage(dossier, d.setting(["steps", 5, "state", "features", 0, "opened"], true), "$.steps[5].state.features[0].opened",
                     "unknown member (additionalProperties is false)"),
            Breakage(dossier, d.setting(["payload"], [:]), "$.payload", "unknown member (additionalProperties is false)"),
            // A bad enum value.
            Breakage(register, r.setting(["rows", 0, "answer"], "maybe"), "$.rows[0].answer",
                     #""maybe" is not one of "approval", "denial", "expired", "pending", "rescinded", "failed""#),
            Breakage(register, r.setting(["rows", 1, "answerChannel"], "telepathy"), "$.rows[1].answerChannel", #""telepathy" is not one of"#),
            Breakage(dossier, d.setting(["steps", 5, "state", "features", 0, "state"], "ajar"), "$.steps[5].state.features[0].state",
                     #""ajar" is not one of "open", "closed""#),
            Breakage(dossier, d.setting(["steps", 0, "type"], "AgeRangeGuessed"), "$.steps[0].type", #""AgeRangeGuessed" is not one of"#),
            // const, minimum, pattern and format.
            Breakage(dossier, d.setting(["report"], "consent-register"), "$.report", #""consent-register" is not "subject-dossier""#),
            Breakage(dossier, d.setting(["steps", 0, "position"], 0), "$.steps[0].position", "0 is less than the minimum 1"),
            Breakage(register, r.setting(["sha256"], "ABC"), "$.sha256", #""ABC" does not match the pattern ^[0-9a-f]{64}$"#),
            Breakage(register, r.setting(["rows", 0, "askedAt"], "2026-11-20T16:02:25+01:00"), "$.rows[0].askedAt", "is not a date-time"),
            Breakage(register, r.setting(["rows", 0, "evidenceEventIds", 0], "not-a-uuid"), "$.rows[0].evidenceEventIds[0]", "is not a uuid"),
            Breakage(dossier, d.setting(["steps", 1, "actor"], "robot"), "$.steps[1].actor", "does not match the pattern"),
        ]
        for breakage in cases {
            let found = breakage.validator.violations(of: breakage.value)
            #expect(found.count == 1 && found.first?.hasPrefix(breakage.path + ": ") == true && found.first?.contains(breakage.message) == true,
                    "expected \(breakage.path): …\(breakage.message)…, got \(found)")
        }
        // Several breakages are all reported, in document order.
        let many = register.violations(of: r.removing(["rows", 0, "answer"]).setting(["rows", 1, "answer"], "maybe").setting(["extra"], 1))
        #expect(many.map { $0.components(separatedBy: ":").first ?? "" } == ["$.extra", "$.rows[0].answer", "$.rows[1].answer"])
    }

    // MARK: - Helpers

    /// The subject of the hand-made age range appended after the simulated history.
    static let edgeSubject = "p_schema_edge"

    /// The subjects with the most events.
    static func busySubjects(_ client: LedgerPool, limit: Int) async throws -> [String] {
        var subjects: [String] = []
        for try await subject in try await client.query("""
            SELECT subject FROM ledger.events WHERE log_id = 'sim' AND subject IS NOT NULL
             GROUP BY subject ORDER BY count(*) DESC, subject LIMIT \(limit)
            """).decode(String.self) { subjects.append(subject) }
        return subjects
    }

    /// The subject of the first event of `type`.
    static func firstSubject(_ client: LedgerPool, with type: String) async throws -> String {
        for try await subject in try await client.query("""
            SELECT subject FROM ledger.events WHERE log_id = 'sim' AND type = \(type) AND subject IS NOT NULL ORDER BY position LIMIT 1
            """).decode(String.self) { return subject }
        throw LedgerError(.invalidRequest, "the simulated log has no \(type) with a subject")
    }
}

/// Unit tests of the validator itself, on small schemas: what it refuses and what it asserts.
@Suite("Report schemas: the validator")
struct ReportSchemaValidatorTests {
    static func schema(_ text: String) throws -> JSONSchemaValidator {
        try JSONSchemaValidator(schema: try JSONParser.parse(Array(text.utf8)))
    }

    static func refusal(_ text: String) -> String? {
        do { _ = try schema(text); return nil } catch { return "\(error)" }
    }

    @Test("refuses an unknown keyword wherever it hides", arguments: [
        (#"{"type": "object", "minProperties": 1}"#, "#: unknown keyword \"minProperties\""),
        (##"{"properties": {"a": {"type": "string", "contentEncoding": "base64"}}}"##, "#/properties/a: unknown keyword \"contentEncoding\""),
        (##"{"type": "array", "items": {"uniqueItems": true}}"##, "#/items: unknown keyword \"uniqueItems\""),
        (##"{"additionalProperties": {"exclusiveMinimum": 0}}"##, "#/additionalProperties: unknown keyword \"exclusiveMinimum\""),
        (##"{"oneOf": [{"type": "null"}, {"not": {}}]}"##, "#/oneOf/1: unknown keyword \"not\""),
        (##"{"anyOf": [{"type": "null"}, {"if": {}}]}"##, "#/anyOf/1: unknown keyword \"if\""),
        (##"{"$ref": "#/$defs/x", "$defs": {"x": {"default": 1}}}"##, "#/$defs/x: unknown keyword \"default\""),
        (##"{"properties": {"a~b/c": {"dependentRequired": {}}}}"##, "#/properties/a~0b~1c: unknown keyword \"dependentRequired\""),
    ])
    func refusesUnknownKeywords(text: String, problem: String) {
        let refusal = Self.refusal(text)
        #expect(refusal?.contains(problem) == true, "\(refusal ?? "accepted")")
    }

    @Test("refuses malformed or self-contradicting schemas", arguments: [
        (##"{"$ref": "#/$defs/missing"}"##, "leads nowhere"),
        (##"{"$ref": "other.json#/x"}"##, "only \"#/$defs/<name>\" references are supported"),
        (#"{"type": "string", "format": "email"}"#, "is not a supported format"),
        (#"{"type": "int"}"#, "is not a type name"),
        (#"{"type": "string", "pattern": "(["}"#, "does not compile"),
        (#"{"type": "object", "required": ["a"], "properties": {}, "additionalProperties": false}"#, "nothing can validate"),
        (#"{"type": "string", "enum": ["a", null]}"#, "can never match"),
        (#"{"type": "integer", "const": "1"}"#, "can never match"),
        (#"{"type": "array", "items": [{"type": "string"}]}"#, "must be one schema"),
        (#"{"properties": {"a": true}}"#, "boolean schemas are not in the supported subset"),
        (#"{"type": "integer", "pattern": "^1$"}"#, "pattern on a schema whose type admits no string"),
        (#"{"type": "string", "minimum": 1}"#, "minimum on a schema whose type admits no number"),
        (#"{"oneOf": []}"#, "must be a non-empty array"),
        (#"{"properties": {"a": {"$defs": {}}}}"#, "$defs belong at the root only"),
    ])
    func refusesBadSchemas(text: String, problem: String) {
        let refusal = Self.refusal(text)
        #expect(refusal?.contains(problem) == true, "\(refusal ?? "accepted")")
    }

    @Test("integer is a number with no fraction; number takes both")
    func integers() throws {
        let v = try Self.schema(#"{"properties": {"i": {"type": "integer"}, "n": {"type": "number", "minimum": 0}}}"#)
        #expect(v.violations(of: ["i": 3, "n": 2.5]) == [])
        #expect(v.violations(of: try JSONParser.parse(Array(#"{"i": 3.0}"#.utf8))) == [])
        #expect(v.violations(of: ["i": 3.5]) == ["$.i: 3.5 is a number, expected integer"])
        #expect(v.violations(of: ["n": -1]) == ["$.n: -1 is less than the minimum 0"])
        #expect(v.violations(of: ["i": "3"]) == [#"$.i: "3" is a string, expected integer"#])
    }

    @Test("formats: date-time in UTC with Z, real dates, lowercase uuids")
    func formats() throws {
        let v = try Self.schema(#"""
            {"properties": {"t": {"type": "string", "format": "date-time"}, "d": {"type": ["string", "null"], "format": "date"},
                            "u": {"type": "string", "format": "uuid"}}}
            """#)
        #expect(v.violations(of: ["t": "2026-11-20T16:02:25Z", "d": "2024-02-29", "u": "6c1e8a52-3d9b-4f0e-a7c2-91b5e0d4f318"]) == [])
        #expect(v.violations(of: ["t": "2026-11-20T16:02:25.123456Z", "d": .null]) == [])
        #expect(v.violations(of: ["t": "2026-11-20T16:02:25+00:00"]).count == 1)
        #expect(v.violations(of: ["t": "2026-11-20 16:02:25Z"]).count == 1)
        #expect(v.violations(of: ["d": "2026-02-29"]) == [#"$.d: "2026-02-29" is not a date (YYYY-MM-DD)"#])
        #expect(v.violations(of: ["u": "6C1E8A52-3D9B-4F0E-A7C2-91B5E0D4F318"]).count == 1)
    }

    @Test("oneOf wants exactly one alternative, anyOf at least one; a failed oneOf points inside the alternative that fits")
    func alternatives() throws {
        let v = try Self.schema(#"""
            {"properties": {
               "one": {"oneOf": [{"type": "integer"}, {"type": "number"}]},
               "any": {"anyOf": [{"type": "integer"}, {"type": "number"}]},
               "ref": {"oneOf": [{"type": "null"}, {"$ref": "#/$defs/point"}]}},
             "$defs": {"point": {"type": "object", "required": ["x"], "additionalProperties": false,
                                 "properties": {"x": {"type": "integer"}}}}}
            """#)
        #expect(v.violations(of: ["one": 1.5, "any": 1, "ref": .null]) == [])
        #expect(v.violations(of: ["one": 1]) == ["$.one: matches alternatives 1, 2 of oneOf; exactly one must match"])
        #expect(v.violations(of: ["any": "1"]).first?.hasPrefix("$.any: matches none of the alternatives of anyOf") == true)
        #expect(v.violations(of: ["ref": ["x": "1"]]) == [#"$.ref.x: "1" is a string, expected integer"#])
        #expect(v.violations(of: ["ref": [:]]) == ["$.ref.x: required member is missing"])
        #expect(v.violations(of: ["ref": "p"]).first?.hasPrefix("$.ref: matches none of the alternatives of oneOf") == true)
        #expect(try v.violations(of: ["x": 1], against: "#/$defs/point") == [])
        #expect(try v.violations(of: ["y": 1], against: "#/$defs/point") == ["$.x: required member is missing",
                                                                            "$.y: unknown member (additionalProperties is false)"])
    }

    @Test("member names that are not identifiers are quoted in paths")
    func quotedPaths() throws {
        let v = try Self.schema(#"{"additionalProperties": false, "properties": {"ok": {}}}"#)
        #expect(v.violations(of: ["13to15": 1, "a b": 2]) == [#"$["13to15"]: unknown member (additionalProperties is false)"#,
                                                          #"$["a b"]: unknown member (additionalProperties is false)"#])
    }
}

// MARK: - Support

/// A broken copy of a report and where the validator must say it is broken.
private struct Breakage {
    var validator: JSONSchemaValidator
    var value: JSONValue
    var path: String
    var message: String
    init(_ validator: JSONSchemaValidator, _ value: JSONValue, _ path: String, _ message: String) {
        self.validator = validator
        self.value = value
        self.path = path
        self.message = message
    }
}

/// One step of a path into a JSON value: a member name or an array index.
private enum JSONPathStep: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case member(String)
    case index(Int)
    init(stringLiteral value: String) { self = .member(value) }
    init(integerLiteral value: Int) { self = .index(value) }
}

private extension JSONValue {
    /// A copy with the value at `path` replaced by `new` (created when the last step is a new member).
    func setting(_ path: [JSONPathStep], _ new: JSONValue) -> JSONValue { updating(path[...]) { _ in new } }

    /// The value at `path`, if there is one.
    func at(_ path: [JSONPathStep]) -> JSONValue? {
        path.reduce(Optional(self)) { value, step in
            switch step {
            case .member(let name): return value?[name]
            case .index(let index): return value?.arrayValue.flatMap { $0.indices.contains(index) ? $0[index] : nil }
            }
        }
    }

    /// A copy without the member or element at `path`.
    func removing(_ path: [JSONPathStep]) -> JSONValue { updating(path[...]) { _ in nil } }

    private func updating(_ path: ArraySlice<JSONPathStep>, _ change: (JSONValue?) -> JSONValue?) -> JSONValue {
        guard let step = path.first else { return change(self) ?? .null }
        let rest = path.dropFirst()
        switch (step, self) {
        case (.member(let name), .object(var members)):
            members[name] = rest.isEmpty ? change(members[name]) : members[name]?.updating(rest, change)
            return .object(members)
        case (.index(let index), .array(var elements)) where elements.indices.contains(index):
            if rest.isEmpty {
                if let new = change(elements[index]) { elements[index] = new } else { elements.remove(at: index) }
            } else {
                elements[index] = elements[index].updating(rest, change)
            }
            return .array(elements)
        default:
            Issue.record("no \(step) in \(CanonicalJSON.encodeString(self).prefix(60))")
            return self
        }
    }
}

/// Which shapes of state a test saw, so that it can insist the nulls and rarer values occurred.
private struct StateCoverage {
    private(set) var seen: Set<String> = []

    static let wanted: Set<String> = [
        "state null", "age null", "age set", "upper null", "lower null", "declaration null", "verifiedAdult true",
        "age from Play", "parentalControls null", "parentalControls empty", "parentalControls set", "erased",
        "signal category null", "signal failed", "signal declined", "feature open", "feature closed",
        "consent question", "consent exception", "consent answeredBy null", "consent channel null", "consent ratedApp set",
        "consent topic null", "consent changeId set", "consent rescinded", "consent failed", "consent expired", "consent pending",
        "signal platform unknown", "step app null",
        "fact eligibility", "fact deviceRatingLimit", "fact storeConsent", "fact install", "fact approveInPerson",
        "fact approveInPerson failed",
    ]

    mutating func insert(_ shape: String) { seen.insert(shape) }

    var missing: [String] { Self.wanted.subtracting(seen).sorted() }

    mutating func note(_ state: JSONValue) {
        guard case .object = state else { seen.insert("state null"); return }
        let age = state["age"] ?? .null
        if age == .null { seen.insert("age null") } else {
            seen.insert("age set")
            if age["upper"] == .null { seen.insert("upper null") }
            if age["lower"] == .null { seen.insert("lower null") }
            if age["declaration"] == .null { seen.insert("declaration null") }
            if age["verifiedAdult"] == true { seen.insert("verifiedAdult true") }
            if age["source"] == "PlayAgeSignalReceived" { seen.insert("age from Play") }
        }
        switch state["parentalControls"]?.arrayValue?.count {
        case nil: seen.insert("parentalControls null")
        case 0?: seen.insert("parentalControls empty")
        default: seen.insert("parentalControls set")
        }
        if state["erased"] == true { seen.insert("erased") }
        for signal in state["signals"]?.arrayValue ?? [] {
            if signal["category"] == .null { seen.insert("signal category null") }
            if signal["outcome"]?.stringValue?.hasPrefix("failed:") == true { seen.insert("signal failed") }
            if signal["outcome"] == "declined" { seen.insert("signal declined") }
            if signal["platform"] == "unknown" { seen.insert("signal platform unknown") }
        }
        for feature in state["features"]?.arrayValue ?? [] {
            seen.insert("feature \(feature["state"]?.stringValue ?? "?")")
        }
        for fact in state["appFacts"]?.arrayValue ?? [] {
            let name = fact["fact"]?.stringValue ?? "?"
            seen.insert("fact " + (name.split(separator: ":").first.map(String.init) ?? name))
            if name.hasPrefix("approveInPerson"), fact["value"]?.stringValue?.hasPrefix("failed:") == true {
                seen.insert("fact approveInPerson failed")
            }
        }
        for consent in state["consents"]?.arrayValue ?? [] {
            seen.insert("consent \(consent["kind"]?.stringValue ?? "?")")
            seen.insert("consent \(consent["status"]?.stringValue ?? "?")")
            if consent["answeredBy"] == .null { seen.insert("consent answeredBy null") }
            if consent["channel"] == .null { seen.insert("consent channel null") }
            if consent["ratedApp"] != .null { seen.insert("consent ratedApp set") }
            if consent["topic"] == .null { seen.insert("consent topic null") }
            if consent["changeId"] != .null { seen.insert("consent changeId set") }
        }
    }
}
