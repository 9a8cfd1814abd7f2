/// Where an event about a question or an age-rating exception must be appended: on that question's
/// or exception's own stream (`question-<questionId>`, `exception-<exceptionId>`). Keeping each
/// lifecycle on one stream is what lets expected versions order it and the ledger find a question
/// for an answer by its stream (the anomalies projection).
public enum StreamConvention {
    /// Event type → (stream prefix, payload field naming the id).
    public static let homes: [String: (prefix: String, field: String)] = [
        "PermissionQuestionSent": ("question-", "questionId"),
        "PermissionQuestionFailed": ("question-", "questionId"),
        "ParentalAnswerReceived": ("question-", "questionId"),
        "QuestionExpired": ("question-", "questionId"),
        "AgeExceptionRequested": ("exception-", "exceptionId"),
        "AgeExceptionDecided": ("exception-", "exceptionId"),
    ]

    /// Throws `invalid-field` (field `stream`) when the event is not on its home stream.
    public static func check(_ envelope: EventEnvelope, payload: JSONValue) throws(LedgerError) {
        guard let home = homes[envelope.type], case .object(let members) = payload,
              case .string(let id)? = members[home.field] else { return }
        let expected = home.prefix + id
        guard envelope.stream == expected else {
            throw LedgerError(.invalidField, "a \(envelope.type) belongs on its \(home.prefix.dropLast()) stream \(expected), not \(envelope.stream)",
                              field: "stream", hint: "Set stream to \(expected).")
        }
    }
}
