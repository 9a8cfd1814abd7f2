/// The printed words for the reports' vocabulary (issue 39: a page to file says "13 to 15" and
/// "supervised, approval pending", not `13to15` and `SUPERVISED_APPROVAL_PENDING`). The JSON keeps
/// the keys; a printed label carries its key in a `title` attribute, so the two can be matched.
enum ReportLabels {
    /// The derived legal categories, which no rule of spelling turns into words.
    static let categories = [
        "under13": "under 13", "13to15": "13 to 15", "16to17": "16 to 17",
        "18toMajority": "18, under the age of majority", "adult": "adult", "unknown": "unknown",
    ]

    /// `key` in words: a legal category as said above; Play's `SUPERVISED_APPROVAL_PENDING` as
    /// "supervised, approval pending"; a camel-case value (`guardianDeclared`,
    /// `ageRatingExceptionNotNeeded`, `governmentIDChecked`) as its lower-case words, an acronym
    /// kept; anything else (`13+`, `none`) as it is.
    static func words(_ key: String) -> String {
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
    static func rowHeader(_ key: String) -> HTML {
        let said = words(key)
        return said == key ? "<th scope=\"row\">\(key)</th>" : "<th scope=\"row\" title=\"\(key)\">\(said)</th>"
    }
}
