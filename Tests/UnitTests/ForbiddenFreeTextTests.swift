import LedgerCore
import Testing

/// Birth dates, birth years and exact ages are refused inside free text too (decision 0034), in
/// every free-text field of the catalogue; dates, versions, ranges and bounds are not.
@Suite("ForbiddenFreeText")
struct ForbiddenFreeTextTests {
    /// An AgeRangeRequestFailed whose free-text `detail` is `text` (issue 17's example shape).
    static func failedRequest(detail: String) -> [String: JSONValue] {
        var object = TestEvents.full(payload: ["error": "notAvailable", "detail": .string(detail)])
        object["type"] = "AgeRangeRequestFailed"
        return object
    }

    @Test("issue 17's detail is refused, naming the field")
    func issueExample() {
        let error = TestEvents.refusal(Self.failedRequest(detail: "born 2012-05-01, is 14 years old"))
        expectRefused(error, .forbiddenPersonalData, field: "payload.detail")
        #expect(error?.message == "a birth date or birth year in free text is never accepted")
        #expect(error?.hint?.contains("payload.detail") == true)
    }

    static let refused: [(String, String)] = [
        ("born 2012-05-01", "a birth date or birth year"),
        ("Born on 01/05/2012.", "a birth date or birth year"),
        ("child was born in 2012", "a birth date or birth year"),
        ("DOB: 1.5.2012", "a birth date or birth year"),
        ("date of birth 2012", "a birth date or birth year"),
        ("her birthday is May 1", "a birth date or birth year"),
        ("birthday: 1st of May", "a birth date or birth year"),
        ("year of birth = 2013", "a birth date or birth year"),
        ("is 14 years old", "an exact age"),
        ("a 14-year-old user", "an exact age"),
        ("Fourteen years old", "an exact age"),
        ("14 yrs old", "an exact age"),
        ("user is 9yo", "an exact age"),
        ("kid, 9 y/o", "an exact age"),
        ("aged 14", "an exact age"),
        ("age: 14", "an exact age"),
        ("Age = 9", "an exact age"),
        ("her age is 12", "an exact age"),
        // Spellings that got past the English-only check (issue 36): digits for letters, full-width
        // letters, invisible characters, other languages, YOB.
        ("b0rn 2012-05-01", "a birth date or birth year"),
        ("\u{FF42}\u{FF4F}\u{FF52}\u{FF4E} \u{FF12}\u{FF10}\u{FF11}\u{FF12}", "a birth date or birth year"),
        ("bo\u{200B}rn 2012", "a birth date or birth year"),
        ("b\u{00AD}irth\u{2060}day 1.5.2012", "a birth date or birth year"),
        ("geboren am 1.5.2012", "a birth date or birth year"),
        ("Geburtsdatum: 01.05.2012", "a birth date or birth year"),
        ("née le 1 mai 2012", "a birth date or birth year"),
        ("nacida el 1 de mayo de 2012", "a birth date or birth year"),
        ("nato il 1 maggio 2012", "a birth date or birth year"),
        ("født 2012", "a birth date or birth year"),
        ("YOB 2012", "a birth date or birth year"),
        ("y.o.b. 2013", "a birth date or birth year"),
    ]

    @Test("birth dates, birth years and exact ages in text are found", arguments: refused)
    func found(text: String, kind: String) {
        #expect(ForbiddenFreeText.violation(in: text) == kind, "\(text)")
        expectRefused(TestEvents.refusal(Self.failedRequest(detail: text)), .forbiddenPersonalData, field: "payload.detail")
    }

    static let allowed = [
        "Version 2012.05.01 adds drawing together with friends.",       // an app version
        "The question expires on 2026-12-01.",                         // the date of an event
        "Approved on 2026-11-20 at 16:02",                             // likewise
        "The operation couldn’t be completed. (error 2012)",           // a number with no birth word
        "Children under 13 years old need a parent's approval.",       // a bound
        "For players 13 to 15 years old", "between 13 and 15 years old", "at least 16 years old",
        "ages 13-15", "age rating 12+", "Users under age 13 ask a parent.", // ranges and ratings
        "Birthday stickers for everyone!", "rebirth", "lily_born2012",  // a birth word with no date, or inside a word
        "Age gates must be at least two years apart.",                 // the simulator's detail
        "parent asked us to delete the birthDate, dob and exact age the child typed in",
        "NATO summit 2012 recap", "année 2012", "the innate 2012 behaviour",   // a birth word only inside another word
    ]

    @Test("dates, versions, bounds, ranges and birth words without a date pass", arguments: allowed)
    func passes(text: String) throws {
        #expect(ForbiddenFreeText.violation(in: text) == nil, "\(text)")
        _ = try EventInput(json: .object(Self.failedRequest(detail: String(text.prefix(500)))))
    }

    @Test("every free-text field of the catalogue is checked, personal or not")
    func everyTextField() throws {
        // A question with its choice titles and a custom topic's description (personal data, sealed later).
        let question: JSONValue = [
            "questionId": "0b7c6f3e-2a4d-4c1b-9e8f-1a2b3c4d5e60",
            "topic": ["custom": ["name": "chat", "description": "Chat for Mia, born 2012-05-01"]],
            "choices": [["id": "yes", "title": "Yes", "answer": "approval"]],
            "sentVia": "askCenter",
        ]
        var object = TestEvents.full(payload: question)
        object["type"] = "PermissionQuestionSent"
        object["stream"] = "question-0b7c6f3e-2a4d-4c1b-9e8f-1a2b3c4d5e60"
        expectRefused(TestEvents.refusal(object), .forbiddenPersonalData, field: "payload.topic.custom.description")

        let titled: JSONValue = ["questionId": question["questionId"]!, "topic": ["custom": ["name": "chat"]],
                  "choices": [["id": "yes", "title": "Yes, she is 9 years old", "answer": "approval"]], "sentVia": "askCenter"]
        object["payload"] = titled
        expectRefused(TestEvents.refusal(object), .forbiddenPersonalData, field: "payload.choices[0].title")
    }
}
