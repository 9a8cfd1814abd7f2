/// A subject as the ledger names it: a pseudonym of 1 to 128 characters of A-Z, a-z, 0-9, `.`, `_`,
/// `:` and `-`, the same rule an event's `subject` is held to. Every operation that takes a subject
/// from outside (an HTTP path or query, a CLI option) checks it here before it reads or records
/// anything, so that nothing longer or stranger reaches the record of reads or an index (issue 36).
public enum SubjectPseudonym {
    /// The longest pseudonym (docs/openapi.json's `subject` pattern).
    public static let maxLength = 128

    /// Throws `invalid-field` naming `field` unless `subject` is a pseudonym.
    public static func check(_ subject: String, field: String = "subject") throws(LedgerError) {
        guard FieldReader.Pattern.pseudonym.matches(subject) else {
            let shown = subject.count > 40 ? String(subject.prefix(40)) + "… (\(subject.utf8.count) bytes)" : subject
            throw LedgerError(.invalidField, "\(shown) is not a subject: a subject must be \(FieldReader.Pattern.pseudonym.explanation)",
                              field: field, hint: "Give the subject's pseudonym as the events name it.")
        }
    }
}
