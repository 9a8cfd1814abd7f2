import LedgerAPIModel

/// Why a ``LedgerClient`` call failed.
public enum LedgerClientError: Error, Sendable, CustomStringConvertible {
    /// The server refused the request and said why (problem+json): `code`, `detail`, `field`,
    /// `line` and `hint` say what to fix. After retries, a 503 or 429 ends here too.
    case problem(APIModel.ProblemDocument)
    /// No answer came (connection refused, reset or timed out) after every attempt.
    case transport(String)
    /// An answer came that is not what the API document promises.
    case unexpectedAnswer(status: Int, detail: String)

    /// The error for a person.
    public var description: String {
        switch self {
        case .problem(let problem):
            return "\(problem.status) \(problem.code): \(problem.detail)" + (problem.hint.map { " (\($0))" } ?? "")
        case .transport(let detail):
            return "no answer from the ledger: \(detail)"
        case .unexpectedAnswer(let status, let detail):
            return "unexpected answer (\(status)): \(detail)"
        }
    }
}
