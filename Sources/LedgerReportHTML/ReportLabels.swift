/// The printed words for the reports' vocabulary (issue 39: a page to file says "13 to 15" and
/// "supervised, approval pending", not `13to15` and `SUPERVISED_APPROVAL_PENDING`). The JSON keeps
/// the keys; a printed label carries its key in a `title` attribute, so the two can be matched.
/// The one table of these words: the reports and the auditor's console (LedgerConsole) both read it.
public enum ReportLabels {
    /// The derived legal categories, which no rule of spelling turns into words.
    public static let categories = [
        "under13": "under 13", "13to15": "13 to 15", "16to17": "16 to 17",
        "18toMajority": "18, under the age of majority", "adult": "adult", "unknown": "unknown",
    ]

    /// `key` in words: a legal category as said above; Play's `SUPERVISED_APPROVAL_PENDING` as
    /// "supervised, approval pending"; a camel-case value (`guardianDeclared`,
    /// `ageRatingExceptionNotNeeded`, `governmentIDChecked`) as its lower-case words, an acronym
    /// kept; anything else (`13+`, `none`) as it is.
    public static func words(_ key: String) -> String {
        if let category = categories[key] { return category }
        if key.contains("_") || (key.count > 1 && key == key.uppercased() && key.contains(where: \.isLetter)) {
            let parts = key.lowercased().split(separator: "_").map(String.init)
            guard let head = parts.first else { return key }
            return parts.count > 1 ? head + ", " + parts.dropFirst().joined(separator: " ") : head
        }
        var words: [String] = []
        var word = ""
        let characters = Array(key)
        for (index, character) in characters.enumerated() {
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            // A capital starts a word, unless it continues an acronym (`ID` in `governmentIDChecked`).
            let startsWord = character.isUppercase && !word.isEmpty
                && (!(word.last?.isUppercase ?? false) || (next?.isLowercase ?? false))
            if startsWord {
                words.append(word)
                word = ""
            }
            word.append(character)
        }
        if !word.isEmpty { words.append(word) }
        guard words.count > 1 else { return key }
        return words.map { $0.count > 1 && $0 == $0.uppercased() ? $0 : $0.lowercased() }.joined(separator: " ")
    }

    /// A row header for `key`: its words, the key in the title.
    public static func rowHeader(_ key: String) -> HTML {
        let said = words(key)
        return said == key ? "<th scope=\"row\">\(key)</th>" : "<th scope=\"row\" title=\"\(key)\">\(said)</th>"
    }

    /// A consent register entry's status as stored (`approval`, `denial`, `expired`, `failed`,
    /// `pending`, `rescinded`) in words: "approved", "denied"…
    public static let statuses = [
        "approval": "approved", "denial": "denied", "expired": "expired", "failed": "failed", "pending": "pending",
        "rescinded": "rescinded",
    ]

    /// `status` (a consent register entry's) in words, or as it is when unknown.
    public static func status(_ status: String) -> String { statuses[status] ?? words(status) }

    /// `key` in words as HTML, the key itself in a `title` when the words differ (so the key can
    /// still be found and matched with the JSON).
    public static func labelled(_ key: String, words said: String? = nil) -> HTML {
        let said = said ?? words(key)
        return said == key ? HTML(text: key) : "<span title=\"\(key)\">\(said)</span>"
    }

    /// A rule's id (`access-after-denial`, docs/rules.md) in words: "access after denial".
    public static func rule(_ id: String) -> String { id.replacingOccurrences(of: "-", with: " ") }
}
