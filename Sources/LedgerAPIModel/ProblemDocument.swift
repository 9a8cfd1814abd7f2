extension APIModel {
    /// An error (`Problem`, RFC 9457 `application/problem+json`): what went wrong, where, and what to do.
    public struct ProblemDocument: Codable, Sendable, Equatable, Error {
        /// `https://consent-ledger.dev/problems/<code>`.
        public var type: String
        /// The HTTP status's reason phrase.
        public var title: String
        /// The HTTP status.
        public var status: Int
        /// What went wrong, for a person.
        public var detail: String
        /// The JSON path of the field at fault.
        public var field: String?
        /// The 1-based event of a batch at fault.
        public var line: Int?
        /// What to do about it.
        public var hint: String?

        /// The stable code: the last part of `type` (`wrong-expected-version`, `database-unavailable`, …).
        public var code: String { String(type.split(separator: "/").last ?? "") }

        /// A problem from its parts.
        public init(code: String, title: String, status: Int, detail: String, field: String? = nil, line: Int? = nil, hint: String? = nil) {
            self.type = "https://consent-ledger.dev/problems/\(code)"
            self.title = title
            self.status = status
            self.detail = detail
            self.field = field
            self.line = line
            self.hint = hint
        }
    }
}
