import HTTPTypes
import Hummingbird
import LedgerApplication
import LedgerCore
import NIOCore
import ServiceLifecycle

/// `GET /v1/logs/{log}/findings/stream?kind=violation|anomaly` (auditor, admin): the log's findings
/// as server-sent events, every one after the cursor, then each new one as the anomalies projection
/// finds it (decision 0081). Each event is `id: <position>.<rule>`, `event: finding` and the item as
/// one line of JSON; a client that reconnects with `Last-Event-ID` (or `?after=`) misses nothing and
/// gets nothing twice. A comment line goes out when nothing has for ``keepAlive``, so a client gone
/// is noticed and proxies keep the connection. The stream holds one of its key's reads under way
/// while it is open (decision 0055), and no database connection while it waits; its opening is
/// entered in the record of reads (every subject, `*`). It ends when the client goes or the server
/// stops.
struct FindingsStreamRoutes {
    let operations: any LedgerOperations
    /// The longest silence on an open stream.
    var keepAlive: Duration = .seconds(15)
    /// The longest a new finding can wait when its fold's notification was missed.
    var backstop: Duration = .seconds(2)

    static let lastEventID = HTTPField.Name("Last-Event-ID")!

    var collection: RouteCollection<LedgerRequestContext> {
        let routes = RouteCollection(context: LedgerRequestContext.self)
        routes.get("logs/{log}/findings/stream", use: stream)
        return routes
    }

    @Sendable func stream(request: Request, context: LedgerRequestContext) async throws -> Response {
        let log = try context.path("log")
        _ = try context.require([.auditor, .admin], log: log)
        let query = request.uri.queryParameters
        let kind = try LedgerRule.Kind.query(query["kind"])
        let (text, field) = request.headers[Self.lastEventID].map { ($0, "Last-Event-ID") }
            ?? (query["after"].map(String.init) ?? "0", "after")
        guard let cursor = FindingsFeed.Cursor(text) else {
            throw Problem(.badRequest, code: "invalid-field", detail: "\(field): \(FindingsFeed.Cursor.expected), not \(text)", field: field)
        }
        // The log and the projection are checked before the 200 goes out: after it, an error can
        // only end the stream.
        _ = try await operations.findings(log: log, after: cursor, kind: kind, limit: 1)
        // Findings name subjects: the stream is entered in the record of reads, once, as it opens.
        try await context.recordRead(request, operations: operations, log: log, what: "findings stream", subject: ReadAccess.everySubject,
                                     detail: "after \(cursor)" + (kind.map { ", \($0.rawValue)s only" } ?? ""))
        let (operations, keepAlive, backstop) = (self.operations, self.keepAlive, self.backstop)
        return Response(status: .ok,
                        headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store"],
                        body: ResponseBody { writer in
                            var quietSince = ContinuousClock.now
                            try await writer.write(ByteBuffer(string: ": findings of \(log) after \(cursor)\n\n"))
                            do {
                                try await operations.followFindings(log: log, after: cursor, kind: kind, backstop: backstop) { items in
                                    if Task.isShuttingDownGracefully { throw CancellationError() }
                                    if items.isEmpty {
                                        guard ContinuousClock.now - quietSince >= keepAlive else { return }
                                        try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                                    } else {
                                        var buffer = ByteBuffer()
                                        for item in items { buffer.writeString(try Self.event(item)) }
                                        try await writer.write(buffer)
                                    }
                                    quietSince = .now
                                }
                            } catch is CancellationError {
                                // The server is stopping: the client reconnects with its last id.
                            }
                            try await writer.finish(nil)
                        })
    }

    /// One server-sent event: `id`, `event: finding` and the item as canonical JSON on one line.
    static func event(_ item: FindingsFeed.Item) throws -> String {
        "id: \(item.id)\nevent: finding\ndata: \(String(decoding: try CanonicalJSON.encode(encodable: item), as: UTF8.self))\n\n"
    }
}
