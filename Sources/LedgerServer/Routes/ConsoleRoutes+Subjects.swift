import Foundation
import Hummingbird
import LedgerApplication
import LedgerConsole
import LedgerCore

/// The console's subjects: found by the start of their pseudonym (or an event by its id), a
/// subject's page, and, for a pseudonym the log has never seen, a page offering the near matches.
/// Listing pseudonyms is a read of every subject's data: it is recorded first (`find`, `*`).
extension ConsoleRoutes {
    /// How many subjects a search lists.
    static let searchLimit = 25

    @Sendable func find(request: Request, context: LedgerRequestContext) async throws -> Response {
        let (log, key) = try signedIn(context)
        let eventId = request.uri.queryParameters["eventId"].map(String.init)?.trimmingCharacters(in: .whitespaces) ?? ""
        if !eventId.isEmpty {
            return Self.redirect("/console/logs/\(log)/events/\(try await operations.position(log: log, eventId: eventId))")
        }
        let typed = request.uri.queryParameters["pseudonym"].map(String.init)?.trimmingCharacters(in: .whitespaces) ?? ""
        guard !typed.isEmpty else {
            throw Problem(.badRequest, code: "missing-field", detail: "enter a subject's pseudonym (or its first characters), or an event id",
                          field: "pseudonym")
        }
        let found = try await search(request, context: context, log: log, typed: typed, notFound: false)
        // One subject is the answer: the pseudonym itself, or the only one that starts with it.
        if let only = found.matches.first(where: { $0.subject == typed })
            ?? (found.prefix == typed && found.matches.count == 1 && !found.more ? found.matches.first : nil) {
            return Self.redirect("/console/logs/\(log)/subjects/\(Self.pathSegment(only.subject))")
        }
        return Self.page(SubjectSearchPage.render(found, key: key), status: found.matches.isEmpty ? .notFound : .ok)
    }

    @Sendable func subject(request: Request, context: LedgerRequestContext) async throws -> Response {
        let (log, key) = try signedIn(context)
        let subject = try context.path("subject")
        let query = request.uri.queryParameters
        let asOfText = query["asOf"].map(String.init)?.trimmingCharacters(in: .whitespaces) ?? ""
        let clock = try query["clock"].map { (text: Substring) throws -> AsOf.Clock in
            guard let clock = AsOf.Clock(rawValue: String(text)) else {
                throw Problem(.badRequest, code: "invalid-field", detail: "the clock is recorded or occurred, not \(text)", field: "clock")
            }
            return clock
        } ?? .recorded
        let asOf = try AsOf.parse(asOfText, clock: clock)
        try await context.recordRead(request, operations: operations, log: log, what: "replay", subject: subject, detail: "as of \(asOf)")
        let timeline: (throughPosition: Int64, events: [ReplayedEvent])
        do {
            timeline = try await operations.subjectEvents(log: log, subject: subject, asOf: asOf)
        } catch let error as LedgerError where error.code == .subjectNotFound {
            let found = try await search(request, context: context, log: log, typed: subject, notFound: true)
            return Self.page(SubjectSearchPage.render(found, key: key), status: .notFound)
        }
        let (through, events) = timeline
        // The state as of the point, folded once (the timeline's per-event states are one click away: ?asOf=P).
        let state = events.isEmpty ? nil : try await operations.state(log: log, subject: subject, asOf: asOf).snapshots.first
        // The subject's findings up to the same point (the page's read, recorded above, covers them).
        let findings = events.isEmpty ? []
            : try await operations.findings(log: log, kind: nil, subject: subject, limit: FindingsPage.pageSize, before: through + 1)
        let content = SubjectPage.Content(log: log, subject: subject, throughPosition: through, events: events,
                                          state: try state.map { try JSONParser.parse($0) }, asOfText: asOfText, clock: clock,
                                          checkpoint: try await latestCheckpoint(log), findings: findings)
        return Self.page(SubjectPage.render(content, key: key))
    }

    /// The subjects that start with `typed` or, when none does, with the longest shorter start of
    /// it that some subject has (down to three characters): a mistyped or truncated pseudonym
    /// still finds its subject. The read is recorded first, as a read of every subject.
    func search(_ request: Request, context: LedgerRequestContext, log: String, typed: String, notFound: Bool) async throws
        -> SubjectSearchPage.Content {
        try await context.recordRead(request, operations: operations, log: log, what: "find", subject: ReadAccess.everySubject,
                                     detail: "pseudonyms starting with \(typed)")
        let count = typed.count
        var prefixes = [typed]
        for length in [count - 1, 12, 8, 5, 3] where length >= 3 && length < count && !prefixes.contains(String(typed.prefix(length))) {
            prefixes.append(String(typed.prefix(length)))
        }
        var last: SubjectSearchPage.Content?
        for prefix in prefixes where prefix.unicodeScalars.count <= SubjectPseudonym.maxLength {
            let page: SubjectListing
            do {
                page = try await operations.findSubjects(log: log, prefix: prefix, has: nil, limit: Self.searchLimit, after: nil)
            } catch let error as LedgerError where error.code == .schemaMissing {
                // No projections yet: nothing to offer, the page says so through its empty list.
                let head = try await operations.requireHead(log: log).position
                return SubjectSearchPage.Content(log: log, typed: typed, prefix: typed, matches: [], more: false, notFound: notFound,
                                                 projectedThrough: 0, head: head)
            }
            let content = SubjectSearchPage.Content(log: log, typed: typed, prefix: prefix, matches: page.entries, more: page.next != nil,
                                                    notFound: notFound, projectedThrough: page.projectedThrough, head: page.head)
            if !page.entries.isEmpty { return content }
            last = content
        }
        return last ?? SubjectSearchPage.Content(log: log, typed: typed, prefix: typed, matches: [], more: false, notFound: notFound,
                                                 projectedThrough: 0, head: 0)
    }

    /// `text` as one segment of a path (a `/` in it escaped).
    static func pathSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? text
    }
}
