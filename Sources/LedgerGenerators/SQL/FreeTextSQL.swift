import LedgerCore

/// `ledger.free_text_problem(text)`: birth dates, birth years and exact ages inside free text
/// (decision 0034), from ``ForbiddenFreeText``'s own patterns, so that the database refuses what
/// the Swift check refuses in every free-text field a psql caller sends (decision 0035).
///
/// The patterns are the same strings; only the word boundary is spelled as PostgreSQL's regular
/// expressions spell it (`\y`, where `\b` is a backspace). The Swift check skips an "N years old"
/// whose last word before it makes it a bound or a range (`under 13 years old`); here that is a
/// lookbehind on the same words.
enum FreeTextSQL {
    /// A Swift pattern of ``ForbiddenFreeText`` in PostgreSQL's spelling.
    static func postgres(_ pattern: String) -> String {
        pattern.replacingOccurrences(of: "\\b", with: "\\y")
    }

    /// The "N years old" pattern, unless the last word before it is a bound word.
    static var yearsOld: String {
        "(?<!(?:^|[^[:alpha:]])(?:" + ForbiddenFreeText.boundWords.joined(separator: "|") + ")[^[:alpha:]]*)"
            + postgres(ForbiddenFreeText.yearsOldPattern)
    }

    /// ``ForbiddenFreeText/normalized(_:)`` in SQL: invisible characters removed, NFKC, lowercased.
    static var normalized: String {
        let invisible = ForbiddenFreeText.invisible.sorted().map { String(format: "\\u%04X", $0) }.joined()
        return "lower(normalize(regexp_replace(p_text, '[\(invisible)]', '', 'g'), NFKC))"
    }

    /// The function's file.
    static var file: CatalogueSQL.File {
        let ages = ([yearsOld] + ForbiddenFreeText.otherAgePatterns.map(postgres))
            .map { "\(normalized) ~ \(SQLText.literal($0))" }.joined(separator: "\n              OR ")
        return CatalogueSQL.File(name: "free-text-problem.sql", text: CatalogueSQL.banner + """
            -- ledger.free_text_problem: what a free-text value carries that is never accepted ('a birth date
            -- or birth year', 'an exact age'), or NULL. The patterns are ForbiddenFreeText's (decision 0034),
            -- written here from the Swift ones, matched on the text normalised as it normalises it (invisible
            -- characters removed, NFKC, lowercased); each type's payload_problems function calls it for every
            -- free-text field.
            CREATE OR REPLACE FUNCTION ledger.free_text_problem(p_text text) RETURNS text
            LANGUAGE sql IMMUTABLE PARALLEL SAFE
            AS $fn$
            SELECT CASE
              WHEN \(normalized) ~ \(SQLText.literal(postgres(ForbiddenFreeText.birthDatePattern))) THEN 'a birth date or birth year'
              WHEN \(ages) THEN 'an exact age'
            END
            $fn$;

            """)
    }
}
