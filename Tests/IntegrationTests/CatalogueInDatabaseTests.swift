import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

/// `ledger.append_events` enforces the event catalogue for every caller, as psql would call it
/// (issue 17, decision 0035): the refusals of the Swift path, the derived facts computed by the
/// ledger, duplicate keys refused.
@Suite("The catalogue in the database")
struct CatalogueInDatabaseTests {
    /// An event as a psql user writes it: not canonical, no `derived`.
    static func body(type: String = "AgeRangeShared", schemaVersion: String = "2", stream: String = "subject-p_1",
                     payload: String = #"{"lowerBound":13,"upperBound":15}"#, extra: String = "") -> String {
        #"{"eventId":"\#(UUID().uuidString.lowercased())","stream":"\#(stream)","type":"\#(type)","schemaVersion":\#(schemaVersion),"#
            + #""occurredAt":"2026-11-22T10:15:00Z","subject":"p_1","actor":{"kind":"app"},"#
            + #""app":{"bundleId":"com.example.kids","platform":"iOS"},"jurisdiction":{"code":"US-TX","basis":"asserted"}\#(extra),"#
            + #""payload":\#(payload)}"#
    }

    /// The catalogue's documented example of `type`, as payload text.
    static func example(_ type: String) -> String {
        CanonicalJSON.encodeString(EventCatalogue.schema(for: type)!.example)
    }

    /// Each bad event, and what the refusal must name.
    static let refusals: [(String, String, String)] = [
        ("unknown type", body(type: "AgeRangeGuessed"), "type: unknown event type \"AgeRangeGuessed\""),
        ("unknown schema version", body(schemaVersion: "7"), "schemaVersion: AgeRangeShared has no schema version 7"),
        ("missing required field", body(type: "DeviceRatingLimitObserved", schemaVersion: "1", payload: "{}"),
         "payload.maximumAllowedAgeRating: required field is missing"),
        ("unknown field", body(payload: #"{"lowerBound":13,"upperBound":15,"mood":"happy"}"#), "payload.mood: unknown field"),
        ("wrong kind", body(payload: #"{"lowerBound":"13","upperBound":15}"#), "payload.lowerBound: must be an integer from 1 to 21"),
        ("outside the enum", body(payload: #"{"lowerBound":13,"upperBound":15,"ageRangeDeclaration":"parentSaidSo"}"#),
         #"payload.ageRangeDeclaration: "parentSaidSo" is not an allowed value"#),
        ("outside the codes", body(type: "DeviceRatingLimitObserved", schemaVersion: "1", payload: #"{"maximumAllowedAgeRating":999}"#),
         "payload.maximumAllowedAgeRating: must be one of the integers"),
        ("outside the range", body(payload: #"{"lowerBound":40}"#), "payload.lowerBound: must be an integer from 1 to 21"),
        ("envelope pattern", body().replacingOccurrences(of: "com.example.kids", with: "com example kids"), "app.bundleId: must be a bundle id"),
        ("envelope value", body().replacingOccurrences(of: #""kind":"app""#, with: #""kind":"robot""#), "actor.kind: must be one of"),
        ("envelope unknown field", body(extra: #","colour":"blue""#), "colour: unknown envelope field"),
        ("a field the ledger sets", body(extra: #","recordedAt":"2026-11-22T10:15:00Z""#), "recordedAt: recordedAt is set by the ledger"),
        ("expectedVersion inside the event", body(extra: #","expectedVersion":"any""#), "expectedVersion: a write condition"),
        ("bounds out of order", body(payload: #"{"lowerBound":16,"upperBound":13}"#), "payload.lowerBound: lowerBound (16) is above upperBound (13)"),
        ("a one-year range (an exact age)", body(payload: #"{"lowerBound":13,"upperBound":13}"#), "payload.upperBound: the range 13 to 13 spans 1 year"),
        ("age gates too close", body(type: "AgeRangeRequested", schemaVersion: "1", payload: #"{"ageGates":[13,14],"trigger":"launch"}"#),
         "payload.ageGates[1]: the range 13 to 13 spans 1 year"),
        ("a birth date", body(payload: #"{"lowerBound":13,"upperBound":15,"birthDate":"2013-04-01"}"#),
         "payload.birthDate: a birth date or birth year is never accepted"),
        ("a birth year at the top level", body(extra: #","Year_Of_Birth":2013"#), "Year_Of_Birth: unknown envelope field"),
        ("an exact age, nested", body(payload: #"{"lowerBound":13,"upperBound":15,"child":{"current-age":14}}"#),
         "payload.child.current-age: an exact age is never accepted"),
        ("a forged derived member", body(payload: #"{"lowerBound":13,"upperBound":15}"#,
                                         extra: #","derived":{"legalCategory":"adult","verifiedAdult":true}"#),
         #"derived: must be {"legalCategory":"13to15","verifiedAdult":false}, what the ledger computes"#),
        ("a forged rating label", body(type: "DeviceRatingLimitObserved", schemaVersion: "1", payload: #"{"maximumAllowedAgeRating":313}"#,
                                       extra: #","derived":{"ratingLabel":"18+"}"#),
         #"derived: must be {"ratingLabel":"13+"}"#),
        ("derived facts on a type that derives none", body(type: "AgeRangeDeclined", schemaVersion: "1", payload: example("AgeRangeDeclined"),
                                                           extra: #","derived":{"verifiedAdult":true}"#),
         "derived: AgeRangeDeclined derives no facts"),
        ("a duplicate key", body().replacingOccurrences(of: #""type":"AgeRangeShared""#, with: #""type":"AgeRangeShared","type":"AgeRangeShared""#),
         #"type: duplicate key "type""#),
        ("a duplicate key, nested", body(payload: #"{"lowerBound":13,"upperBound":15,"lowerBound":18}"#),
         #"payload.lowerBound: duplicate key "lowerBound""#),
        ("a duplicate key, escaped", body(payload: #"{"lowerBound":13,"upperBound":15,"\u006cowerBound":13}"#),
         #"payload.lowerBound: duplicate key "lowerBound""#),
        // The screen in front of the key walk counts '":' in the text (decision 0040): a key spaced
        // from its colon, and a string holding an escaped quote and a colon, must still be walked.
        ("a duplicate key spaced from its colon", body(payload: #"{"lowerBound":13,"upperBound":15,"lowerBound" :13}"#),
         #"payload.lowerBound: duplicate key "lowerBound""#),
        ("a duplicate key after a tab", body(payload: "{\"lowerBound\":13,\"upperBound\":15,\"upperBound\"\t:15}"),
         #"payload.upperBound: duplicate key "upperBound""#),
        ("a duplicate key beside an escaped quote and colon in a value",
         body(type: "AgeRangeRequestFailed", schemaVersion: "1",
              payload: #"{"error":"notAvailable","detail":"see \":x","error":"notAvailable"}"#),
         #"payload.error: duplicate key "error""#),
        ("a birth date in free text", body(type: "AgeRangeRequestFailed", schemaVersion: "1",
                                          payload: #"{"error":"notAvailable","detail":"born 2012-05-01, is 14 years old"}"#),
         "payload.detail: a birth date or birth year in free text is never accepted"),
        ("an exact age in free text", body(type: "AgeRangeRequestFailed", schemaVersion: "1",
                                           payload: #"{"error":"notAvailable","detail":"a 14-year-old user"}"#),
         "payload.detail: an exact age in free text is never accepted"),
        ("personal data in clear", body(type: "OperatorDecision", schemaVersion: "1", payload: example("OperatorDecision")),
         "payload.reason: is personal data and must arrive sealed"),
        ("off its stream", body(type: "PermissionQuestionSent", schemaVersion: "\(EventCatalogue.schema(for: "PermissionQuestionSent")!.version)",
                                payload: example("PermissionQuestionSent")),
         "stream: a PermissionQuestionSent belongs on its question stream question-"),
    ]

    @Test("a bad event from psql is refused with CL004 naming the event and the field, and nothing is stored",
          arguments: refusals.map { [$0.0, $0.1, $0.2] })
    func refused(_ testCase: [String]) async throws {
        let (bad, mentions) = (testCase[1], testCase[2])
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            let bodies = [Self.body(), bad]
            do {
                _ = try await client.raw("SELECT * FROM ledger.append_events('acme', \(bodies))")
                Issue.record("\(testCase[0]): the batch was accepted")
            } catch let error as PSQLError {
                #expect(error.serverInfo?[.sqlState] == "CL004", "\(testCase[0])")
                let message = error.serverInfo?[.message] ?? ""
                #expect(message.hasPrefix("event 2 of the batch"), "\(testCase[0]): \(message)")
                #expect(message.contains(mentions), "\(testCase[0]): \(message)")
            }
            #expect(try await client.int("SELECT count(*) FROM ledger.events") == 0)
        }
    }

    /// Free texts the Swift check refuses or lets pass (ForbiddenFreeTextTests' cases), and
    /// combinations of birth words, numbers, dates, bound words and age words around them.
    static var freeTexts: [String] {
        var texts = [
            "born 2012-05-01", "Born on 01/05/2012.", "child was born in 2012", "DOB: 1.5.2012", "date of birth 2012",
            "her birthday is May 1", "birthday: 1st of May", "year of birth = 2013", "is 14 years old", "a 14-year-old user",
            "Fourteen years old", "14 yrs old", "user is 9yo", "kid, 9 y/o", "aged 14", "age: 14", "Age = 9", "her age is 12",
            "Version 2012.05.01 adds drawing together with friends.", "The question expires on 2026-12-01.",
            "Children under 13 years old need a parent's approval.", "For players 13 to 15 years old",
            "between 13 and 15 years old", "at least 16 years old", "ages 13-15", "age rating 12+", "Users under age 13 ask a parent.",
            "Birthday stickers for everyone!", "rebirth", "lily_born2012", "Age gates must be at least two years apart.",
            // Normalised alike (NFKC, invisible characters removed), and the birth words of other languages.
            "b0rn 2012-05-01", "\u{FF42}\u{FF4F}\u{FF52}\u{FF4E} \u{FF12}\u{FF10}\u{FF11}\u{FF12}", "bo\u{200B}rn 2012",
            "b\u{00AD}irth\u{2060}day 1.5.2012", "geboren am 1.5.2012", "Geburtsdatum: 01.05.2012", "née le 1 mai 2012",
            "nacida el 1 de mayo de 2012", "nato il 1 maggio 2012", "født 2012", "YOB 2012", "y.o.b. 2013", "NATO summit 2012 recap",
            "année 2012", "the innate 2012 behaviour", "\u{FF41}\u{FF47}\u{FF45}\u{FF44} 14",
        ]
        let before = ["", "born ", "dob ", "birthday: ", "under ", "from 12 to ", "aged ", "age is ", "rebirth ", "over ", "version ",
                      "b0rn ", "geboren ", "yob ", "né le "]
        let middle = ["2012", "14", "1.5.2012", "May 1", "fourteen", "12-13", "2026-12-01", "9"]
        let after = ["", " years old", "-year-old", " yo", " y/o", "; later", " old", "+"]
        for b in before { for m in middle { for a in after { texts.append(b + m + a) } } }
        return texts
    }

    @Test("ledger.free_text_problem finds what ForbiddenFreeText finds, in the same words, for every free text tried")
    func freeTextAgreement() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.administrator) { client async throws in
            let texts = Self.freeTexts
            var sql: [String?] = []
            let rows = try await client.query("SELECT ledger.free_text_problem(t) FROM unnest(\(texts)::text[]) WITH ORDINALITY AS u(t, i) ORDER BY i")
            for try await value in rows.decode(String?.self) { sql.append(value) }
            #expect(sql.count == texts.count)
            var disagreements: [String] = []
            for (text, found) in zip(texts, sql) where found != ForbiddenFreeText.violation(in: text) {
                disagreements.append("\(text): SQL \(found ?? "nothing"), Swift \(ForbiddenFreeText.violation(in: text) ?? "nothing")")
            }
            #expect(disagreements.isEmpty, "\(disagreements.joined(separator: "\n"))")
            // Both verdicts occur, so the comparison is not empty on either side.
            #expect(sql.contains(nil) && sql.contains("an exact age") && sql.contains("a birth date or birth year"))
        }
    }

    @Test("an event from psql without derived facts gets them from the ledger, and verify passes")
    func derivedAdded() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            let bodies = [
                Self.body(payload: #"{"lowerBound":18,"ageRangeDeclaration":"governmentIDChecked"}"#),
                Self.body(schemaVersion: "1", payload: #"{ "upperBound": 12, "parentalControls": {"communicationLimits": true} }"#),
                Self.body(type: "DeviceRatingLimitObserved", schemaVersion: "1", payload: #"{"maximumAllowedAgeRating":416}"#) + "\n ",
                Self.body(type: "AgeRangeDeclined", schemaVersion: "1", payload: Self.example("AgeRangeDeclined")),
                Self.body(payload: #"{"lowerBound":13,"upperBound":15}"#, extra: #", "derived": {"verifiedAdult": false, "legalCategory": "13to15"}"#),
            ]
            _ = try await client.raw("SELECT * FROM ledger.append_events('acme', \(bodies))")
            var derived: [String] = []
            let rows = try await client.query("SELECT coalesce((convert_from(record, 'UTF8')::jsonb)->'event'->>'derived', '-') FROM ledger.events ORDER BY position")
            for try await value in rows.decode(String.self) { derived.append(value) }
            #expect(derived == [
                #"{"legalCategory": "adult", "verifiedAdult": true}"#,
                #"{"legalCategory": "under13", "verifiedAdult": false}"#,
                #"{"ratingLabel": "16+"}"#,
                "-",
                #"{"legalCategory": "13to15", "verifiedAdult": false}"#,
            ])
            // The text as sent, with the facts appended in RFC 8785 form; a body that carried them stays as sent.
            let first = try await client.raw("SELECT convert_from(record, 'UTF8') FROM ledger.events WHERE position = 1")
            let record = try first[0].decode(String.self)
            #expect(record.contains(#""payload":{"lowerBound":18,"ageRangeDeclaration":"governmentIDChecked"},"derived":{"legalCategory":"adult","verifiedAdult":true}}"#))
            let fifth = try await client.raw("SELECT convert_from(record, 'UTF8') FROM ledger.events WHERE position = 5")
            #expect(try fifth[0].decode(String.self).contains(#""derived": {"verifiedAdult": false, "legalCategory": "13to15"}"#))
            let report = try await LogVerifier(store: EventStore(pool: client)).verify(log: "acme")
            #expect(report.passed)
            #expect(report.verifiedCount == 5)
        }
    }
}
