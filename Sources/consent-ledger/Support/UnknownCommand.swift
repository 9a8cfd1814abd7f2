import ArgumentParser

/// Finds a mistyped subcommand before the argument parser does: `consent-ledger apend --log x` would
/// otherwise be reported as "Unknown option '--log'", which sends the user looking at the wrong word.
enum UnknownCommand {
    /// The message for the first word that should name a subcommand and names none, or nil.
    ///
    /// Walks the command tree along `arguments`: while the current command has subcommands and the
    /// next word is not an option, that word must be one of their names (or `help`).
    static func message(for arguments: [String], root: ParsableCommand.Type) -> String? {
        var command = root
        var path = [root.configuration.commandName ?? "consent-ledger"]
        for word in arguments {
            let children = command.configuration.subcommands
            guard !children.isEmpty, !word.hasPrefix("-") else { return nil }
            if word == "help" { return nil }
            let names = children.map { $0.configuration.commandName ?? $0._commandName }
            guard let index = names.firstIndex(of: word) else {
                var text = "'\(word)' is not a command of `\(path.joined(separator: " "))`."
                if let nearest = nearest(to: word, among: names) { text += " Did you mean '\(nearest)'?" }
                return text + " Commands: \(names.joined(separator: ", ")). See `\(path.joined(separator: " ")) --help`."
            }
            command = children[index]
            path.append(word)
        }
        return nil
    }

    /// The name closest to `word` by edit distance, if it is close enough to be a typo.
    static func nearest(to word: String, among names: [String]) -> String? {
        let scored = names.map { ($0, distance(Array(word), Array($0))) }.min { $0.1 < $1.1 }
        guard let (name, score) = scored, score <= max(2, word.count / 3) else { return nil }
        return name
    }

    /// Levenshtein distance.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
