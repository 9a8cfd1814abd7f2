import ArgumentParser
import LedgerApplication
import LedgerCore
import LedgerPostgres

extension SubjectMark: ExpressibleByArgument {}

/// `consent-ledger subjects`.
struct Subjects: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find subjects by the start of their pseudonym, or by a denial, rescission or violation in their history.",
        discussion: """
            Lists subjects in pseudonym order, one per line: the pseudonym, the age category of the latest \
            age signal, and the counts of consent items, denials, rescissions and rule violations \
            (--format json: one object per line). Reads the live projections, which `project run` or \
            `serve` keep up; when they lag the log, the listing says how far they are. More than --limit \
            subjects: the last line names the --after value for the next page.

            Examples:
              consent-ledger subjects --log acme --prefix p_7f
              consent-ledger subjects --log acme --has denial
              consent-ledger subjects --log acme --has violation --format json
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The log.")
    var log: String

    @Option(help: "Only pseudonyms that start with this.")
    var prefix: String = ""

    @Option(help: ArgumentHelp("Only subjects whose history holds a denial, a rescission or a violation.",
                               valueName: "denial|rescission|violation"))
    var has: SubjectMark?

    @Option(help: "At most this many subjects (1 to 1000).")
    var limit: Int = 100

    @Option(help: "Start after this pseudonym (the next page of a longer listing).")
    var after: String?

    @Option(help: "text (for people) or json (one object per line).")
    var format: OutputFormat = .text

    func validate() throws {
        guard (1...SubjectDirectory.maxLimit).contains(limit) else {
            throw ValidationError("--limit must be from 1 to \(SubjectDirectory.maxLimit)")
        }
    }

    func run() async throws {
        let page = try await Ledger.with(try database.target(), progress: Console.note) { ledger in
            try await ledger.findSubjects(log: log, prefix: prefix, has: has, limit: limit, after: after)
        }
        if page.projectedThrough < page.head {
            Console.note("note: the projections stand at position \(page.projectedThrough) of \(page.head): "
                + "subjects of the last \(page.head - page.projectedThrough) events are not listed yet (`consent-ledger project run` catches up)")
        }
        var out = StandardOutput()
        for entry in page.entries {
            switch format {
            case .json: try out.line(String(decoding: try CanonicalJSON.encode(encodable: entry), as: UTF8.self))
            case .text: try out.line(Self.line(entry))
            }
        }
        try out.flush()
        let filters = (prefix.isEmpty ? [] : ["starting with \(prefix)"]) + (has.map { ["with a \($0.rawValue)"] } ?? [])
        let what = "\(page.entries.count) subject\(page.entries.count == 1 ? "" : "s")" + (filters.isEmpty ? "" : " " + filters.joined(separator: " and "))
        if let next = page.next {
            Console.note("\(what) shown; more follow: add --after \(next)")
        } else {
            Console.note("\(what) in log \(log)")
        }
    }

    /// `p_7f3a9c  13to15  3 consent items, 1 denial, 0 rescissions, 0 violations  (last #738)`.
    static func line(_ e: SubjectDirectory.Entry) -> String {
        func count(_ n: Int64, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        return [e.subject, e.erased ? "erased" : (e.ageCategory ?? "no age signal"),
                [count(e.consentItems, "consent item"), count(e.denials, "denial"), count(e.rescissions, "rescission"),
                 count(e.violations, "violation")].joined(separator: ", "),
                "(last #\(e.lastPosition))"].joined(separator: "  ")
    }
}
