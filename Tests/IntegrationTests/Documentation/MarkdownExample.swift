import Foundation

/// A fenced code block of a Markdown document, with the `<!-- example: … -->` comment that may
/// stand on the line before it (blank lines between allowed) and says how the documentation test
/// treats it.
struct MarkdownExample: CustomStringConvertible, Sendable {
    /// What the comment before a block says about it.
    enum Mark: Equatable, Sendable {
        /// `<!-- example: not run, because … -->`: a block that cannot run in a test; the reason is required.
        case notRun(reason: String)
        /// `<!-- example: file NAME -->`: a JSON block written into the example folder as NAME, for the
        /// commands after it (NDJSON, one event per line, when NAME ends in `.ndjson`).
        case file(name: String)
        /// `<!-- example: run in the background -->`: a command that keeps running (`serve`); the
        /// examples after it talk to it.
        case background
        /// A comment that starts `<!-- example:` but says none of these.
        case unknown(String)
    }

    /// The document's path in the repository, e.g. `docs/getting-started.md`.
    let document: String
    /// The 1-based line of the opening fence.
    let line: Int
    /// The fence's info string (`sh`, `json`, `swift`, `text`, …; empty when it has none).
    let language: String
    /// The block's text, without its fences.
    let code: String
    /// The comment before the block, if any.
    let mark: Mark?

    var description: String { "\(document):\(line) (```\(language))" }

    /// The fenced blocks of `text`, in order.
    static func blocks(in text: String, document: String) -> [MarkdownExample] {
        var blocks: [MarkdownExample] = []
        var pendingMark: Mark?
        var current: (line: Int, language: String, fence: String, body: [String])?
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var block = current {
                if trimmed == block.fence {
                    blocks.append(MarkdownExample(document: document, line: block.line, language: block.language,
                                                  code: block.body.joined(separator: "\n"), mark: pendingMark))
                    current = nil
                    pendingMark = nil
                } else {
                    block.body.append(line)
                    current = block
                }
                continue
            }
            if trimmed.hasPrefix("```") {
                let fence = String(trimmed.prefix { $0 == "`" })
                current = (index + 1, String(trimmed.dropFirst(fence.count)).trimmingCharacters(in: .whitespaces), fence, [])
            } else if trimmed.hasPrefix("<!-- example:") {
                pendingMark = Self.mark(trimmed)
            } else if !trimmed.isEmpty {
                pendingMark = nil
            }
        }
        return blocks
    }

    /// Reads `<!-- example: … -->`.
    static func mark(_ comment: String) -> Mark {
        let said = comment.dropFirst("<!-- example:".count).replacingOccurrences(of: "-->", with: "")
            .trimmingCharacters(in: .whitespaces)
        if said.hasPrefix("not run, because ") {
            let reason = said.dropFirst("not run, because ".count).trimmingCharacters(in: .whitespaces)
            return reason.isEmpty ? .unknown(said) : .notRun(reason: reason)
        }
        if said.hasPrefix("file "), let name = said.split(separator: " ").dropFirst().first, !name.contains("/") {
            return .file(name: String(name))
        }
        if said.hasPrefix("run in the background") { return .background }
        return .unknown(said)
    }
}
