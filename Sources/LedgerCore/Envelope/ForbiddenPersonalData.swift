/// The door that birth dates, birth years and exact ages never get through (docs/design/events.md: "Never
/// accepted: a birth date, a birth year or an exact age"). Age assurance exists so that apps
/// learn an age *range* and nothing more; a ledger that stored birth dates would defeat it.
///
/// The check looks at every key of the event, at any depth, after folding case and dropping
/// everything but letters and digits (so `date_of_birth`, `Date Of Birth` and `birth.date` all
/// fold to the same name), against a fixed list of names. Age *ranges* (`lowerBound`, `upperBound`,
/// `ageLower`, `ageUpper`, `ageGates`) are what the frameworks return and pass. What free text
/// says is checked by ``ForbiddenFreeText``, for every free-text field of the catalogue.
public enum ForbiddenPersonalData {
    /// Folded key names that carry a birth date or year.
    public static let birthDateKeys: Set<String> = [
        "birthdate", "dateofbirth", "dob", "birthday", "birthyear", "yearofbirth", "birthmonth",
        "born", "bornon", "birth",
    ]
    /// Folded key names that carry an exact age.
    public static let exactAgeKeys: Set<String> = [
        "age", "exactage", "currentage", "ageinyears", "ageyears", "userage", "childage",
        "subjectage", "personage", "declaredage", "realage",
    ]

    /// The first forbidden field in `value`, as a JSON path (`payload.child.birthDate`), with
    /// what it is; `nil` when there is none.
    public static func firstViolation(in value: JSONValue, path: String = "") -> (path: String, kind: String)? {
        // Almost every event has none: look for one cheaply first, and name it only when found.
        guard containsViolation(value) else { return nil }
        return namedViolation(in: value, path: path)
    }

    /// The key name as the lists hold it: lowercased, letters and digits only.
    public static func fold(_ key: String) -> String {
        var ascii: [UInt8] = []
        ascii.reserveCapacity(key.utf8.count)
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): ascii.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): ascii.append(byte + 32)
            case 0x80...: return String(key.lowercased().filter { $0.isLetter || $0.isNumber })
            default: continue
            }
        }
        return String(decoding: ascii, as: UTF8.self)
    }

    /// Whether any key of `value`, at any depth, is a forbidden name.
    private static func containsViolation(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let members):
            for (key, member) in members {
                let folded = fold(key)
                if birthDateKeys.contains(folded) || exactAgeKeys.contains(folded) || containsViolation(member) { return true }
            }
            return false
        case .array(let elements):
            return elements.contains(where: containsViolation)
        default:
            return false
        }
    }

    /// The first violation in key order, with its path.
    private static func namedViolation(in value: JSONValue, path: String) -> (path: String, kind: String)? {
        switch value {
        case .object(let members):
            for key in members.keys.sorted() {
                let childPath = path.isEmpty ? key : path + "." + key
                let folded = fold(key)
                if birthDateKeys.contains(folded) { return (childPath, "a birth date or birth year") }
                if exactAgeKeys.contains(folded) { return (childPath, "an exact age") }
                if let found = namedViolation(in: members[key]!, path: childPath) { return found }
            }
            return nil
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let found = namedViolation(in: element, path: "\(path)[\(index)]") { return found }
            }
            return nil
        default:
            return nil
        }
    }

    /// Throws ``LedgerError/Code-swift.struct/forbiddenPersonalData`` when `value` carries one.
    public static func check(_ value: JSONValue) throws(LedgerError) {
        guard let (path, kind) = firstViolation(in: value) else { return }
        throw refusal(kind, path: path, inText: false)
    }

    /// The ``LedgerError/Code-swift.struct/forbiddenPersonalData`` error for `kind` found at
    /// `path`: the field itself (its name), or, `inText`, inside its free text (``ForbiddenFreeText``).
    static func refusal(_ kind: String, path: String, inText: Bool) -> LedgerError {
        LedgerError(
            .forbiddenPersonalData,
            inText ? "\(kind) in free text is never accepted" : "\(kind) is never accepted",
            field: path,
            hint: inText
                ? "Leave it out of \(path): the ledger keeps only the age range the platform returned "
                    + "(lowerBound/upperBound, ageLower/ageUpper) and refuses birth dates, birth years and exact ages, in any field."
                : "Send the age range the platform returned (lowerBound/upperBound, ageLower/ageUpper) "
                    + "and drop \(path). The ledger refuses birth dates, birth years and exact ages."
        )
    }
}
