/// Birth dates, birth years and exact ages written inside free text (decision 0034): the catalogue's
/// free-text fields (``FieldKind/text(maxLength:)``) are checked for them as they are validated, so
/// a `detail` of "born 2012-05-01, is 14 years old" is refused like a `birthDate` field.
///
/// The text is first normalised (``normalized(_:)``): NFKC, so that full-width letters and digits
/// (`ｂｏｒｎ　２０１２`) read as ASCII; invisible characters (zero-width spaces and joiners, the
/// soft hyphen, the byte-order mark) removed, so that `bo\u{200B}rn` reads `born`; case folded.
///
/// What is refused:
/// - a **birth word** (`born` or `b0rn`, `birth`, `birthday`, `birthdate`, `date of birth`, `year of
///   birth`, `dob`, `d.o.b.`, `yob`, `y.o.b.`; German `geboren`, `geburtsdatum`, `geburtstag`; French
///   `né le`, `née le`, `date de naissance`; Spanish `nacido`, `nacida`, `fecha de nacimiento`; Italian
///   `nato il`, `nata il`, `data di nascita`; Dutch `geboortedatum`; Danish and Norwegian `født`,
///   Swedish `född`; Polish `urodzony`, `urodzona`) followed, within 40 characters and the same sentence, by a year from 1900 to
///   2099, a numeric date (`2012-05-01`, `01/05/2012`, `1.5.2012`) or a day and month name
///   (`May 1`, `1st of May`);
/// - an **exact age**: a number (digits, or one to twenty in words) followed by `years old`,
///   `year old`, `yrs old`, `y old` (with spaces or hyphens: `14-year-old`), unless the word before
///   the number makes it a bound or a range (`under`, `over`, `below`, `above`, `least`, `most`,
///   `than`, `from`, `to`, `and`, `or`, `ages`); a number followed by `yo` or `y/o`; `aged N`;
///   `age: N`, `age = N`, `age is N`.
///
/// What passes: dates and numbers with no birth word before them (`Version 2012.05.01`, `expires
/// 2026-12-01`), bounds and ranges (`under 13 years old`, `13 to 15 years old`, `ages 13-15`,
/// `age rating 12+`, `users under age 13`), a birth word with no date (`birthday stickers`), and
/// words that only contain one (`rebirth`, `lily_born2012`).
public enum ForbiddenFreeText {
    /// What `text` carries that is never accepted (`a birth date or birth year`, `an exact age`),
    /// or nil.
    public static func violation(in text: String) -> String? {
        let folded = normalized(text)
        if birthWordStems.contains(where: { folded.contains($0) }), hasBirthDate(folded) {
            return "a birth date or birth year"
        }
        if ["old", "yo", "y/o", "age"].contains(where: { folded.contains($0) }), hasExactAge(folded) {
            return "an exact age"
        }
        return nil
    }

    /// `text` in NFKC, without invisible characters, lowercased: what the patterns are matched on
    /// (ledger.free_text_problem normalises alike: FreeTextSQL).
    public static func normalized(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.precomposedStringWithCompatibilityMapping.unicodeScalars.filter { !invisible.contains($0.value) })
        return String(scalars).lowercased()
    }

    /// The soft hyphen, zero-width space, non-joiner and joiner, word joiner and byte-order mark.
    package static let invisible: Set<UInt32> = [0x00AD, 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF]

    /// Every birth word of ``birthDatePattern`` contains one of these: a cheap test before the pattern.
    static let birthWordStems = ["born", "b0rn", "birth", "dob", "d.o.b", "yob", "y.o.b", "gebor", "geburt", "né", "naissance",
                                 "nacid", "nacimiento", "nato", "nata", "nascita", "født", "född", "urodzon"]

    private static let month = "(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?"
    private static let numberWords = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                                      "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
                                      "eighteen", "nineteen", "twenty"]
    /// Words that, just before the number, make "N years old" a bound or a range, not an age.
    package static let boundWords: [String] = ["under", "over", "below", "above", "least", "most", "than", "from",
                                       "to", "and", "or", "ages"]

    // Compiled once; a Regex is not Sendable, but these are only ever read, and matching does
    // not change them. The patterns are constants of this file and tested: a typo fails every
    // test that appends.
    // Word boundaries are the simple kind (between a word character and another), as in
    // PostgreSQL's `\y`, so that ledger.free_text_problem finds the same (Unicode's default would
    // keep "1.5" one word, and "aged 1.5.2012" would pass here and be refused there).
    private static func regex(_ pattern: String) -> Regex<AnyRegexOutput> { try! Regex(pattern).wordBoundaryKind(.simple) }
    private static let number = "(?:\\d{1,3}|" + numberWords.joined(separator: "|") + ")"
    /// The patterns, as text: compiled below for Swift, and written into SQL (`ledger.free_text_problem`,
    /// FreeTextSQL) with PostgreSQL's spelling of a word boundary, so both read the same ones.
    package static let birthDatePattern =
        "\\b(?:b[o0]rn|birth|birthday|birthdate|date of birth|year of birth|dob|d\\.o\\.b\\.?|yob|y\\.o\\.b\\.?"
            + "|geboren|geburtsdatum|geburtstag|née? le|date de naissance|nacid[oa]|fecha de nacimiento|nat[oa] il"
            + "|data di nascita|geboortedatum|født|född|urodzon[ya])(?![a-z0-9_])[^;!?\\n]{0,40}?"
            + "(?:\\b(?:19|20)\\d{2}|\\b\\d{1,4}[-/.]\\d{1,2}[-/.]\\d{1,4}\\b|\\b\(month)\\s+\\d{1,2}\\b"
            + "|\\b\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?\(month))"
    package static let yearsOldPattern = "\\b" + number + "[\\s-]*(?:years?|yrs?|y)[\\s.-]*old\\b"
    package static let otherAgePatterns = ["\\b\\d{1,3}\\s*y/?o\\b", "\\baged\\s+\\d{1,3}\\b", "\\bage\\s*(?:[:=]|is)\\s*\\d{1,3}\\b"]
    nonisolated(unsafe) private static let birthDate = regex(birthDatePattern)
    nonisolated(unsafe) private static let yearsOld = regex(yearsOldPattern)
    nonisolated(unsafe) private static let otherAges = otherAgePatterns.map(regex)

    static func hasBirthDate(_ text: String) -> Bool {
        text.contains(birthDate)
    }

    static func hasExactAge(_ text: String) -> Bool {
        for match in text.matches(of: yearsOld) {
            let before = text[..<match.range.lowerBound].split(whereSeparator: { !$0.isLetter }).last.map(String.init)
            if let before, boundWords.contains(before) { continue }
            return true
        }
        return otherAges.contains { text.contains($0) }
    }
}
