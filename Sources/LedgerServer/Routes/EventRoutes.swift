import Foundation
import HTTPTypes
import Hummingbird
import LedgerAPIModel
import LedgerApplication
import LedgerCore
import NIOCore

/// `POST /v1/logs/{log}/events` (append a batch: ingest and admin keys) and
/// `GET /v1/logs/{log}/events` (read after a position, streamed NDJSON: auditor and admin keys).
struct EventRoutes {
    let operations: any LedgerOperations
    let settings: ServerSettings
    /// The bounded queue: 503 or 429 with Retry-After when full.
    let admission: AppendAdmission

    var collection: RouteCollection<LedgerRequestContext> {
        let routes = RouteCollection(context: LedgerRequestContext.self)
        routes.post("logs/{log}/events", use: append)
        routes.get("logs/{log}/events", use: read)
        return routes
    }

    /// The body is NDJSON (one event per line) or a JSON array of events; the whole body is one
    /// atomic batch. `Idempotency-Key` makes a retry safe (the default key is the batch's hash; a
    /// single event without one joins the group commit, where a retry is answered by event id).
    @Sendable func append(request: Request, context: LedgerRequestContext) async throws -> Response {
        let log = try context.path("log")
        let key = try context.require([.ingest, .admin], log: log)
        let body = try await request.body.collect(upTo: settings.maxBodyBytes)
        let events = try EventBatchBody.events(in: Array(buffer: body), maxEvents: settings.maxBatchEvents)
        let idempotencyKey = request.headers[.idempotencyKey]
        if let idempotencyKey, idempotencyKey.isEmpty || idempotencyKey.count > 200 {
            throw Problem(.badRequest, code: "invalid-request", detail: "Idempotency-Key must be 1 to 200 characters")
        }
        let result = try await admission.admit(events: events.count, key: key.keyID) {
            try await operations.append(log: log, events: events, idempotencyKey: idempotencyKey)
        }
        if !result.idempotentReplay { ServerMetrics.appended(events.count, log: log) }
        return try Response.json(APIModel.AppendResult(log: log, idempotentReplay: result.idempotentReplay, events: result.events),
                                 status: result.idempotentReplay ? .ok : .created)
    }

    /// `?after=N&limit=K&stream=S`: the records exactly as hashed, one per line, with their hashes.
    @Sendable func read(request: Request, context: LedgerRequestContext) async throws -> Response {
        let log = try context.path("log")
        _ = try context.require([.auditor, .admin], log: log)
        let after = try Self.integer(request.uri.queryParameters["after"], name: "after", minimum: 0) ?? 0
        let limit = try Self.integer(request.uri.queryParameters["limit"], name: "limit", minimum: 1)
        let stream = request.uri.queryParameters["stream"].map(String.init)
        _ = try await operations.requireHead(log: log)
        let operations = self.operations
        let access = context.readAccess(request)
        let detail = "after position \(after)" + (limit.map { ", at most \($0)" } ?? "") + (stream.map { ", stream \($0)" } ?? "")
        // The whole log is a read of every subject's data; one stream, of each subject in it, recorded
        // as each first appears, before its first record is written (issue 36, finding 5).
        if stream == nil {
            try await operations.recordRead(log: log, access: access, what: "events", subject: ReadAccess.everySubject, detail: detail)
        }
        return Response(status: .ok, headers: [.contentType: "application/x-ndjson"], body: ResponseBody { writer in
            var buffer = ByteBuffer()
            var recorded: Set<String> = []
            try await operations.readEvents(log: log, after: after, limit: limit, stream: stream) { event in
                if stream != nil, let subject = try LedgerRecord(parsing: event.record).event["subject"]?.stringValue,
                   !recorded.contains(subject) {
                    try await operations.recordRead(log: log, access: access, what: "events", subject: subject, detail: detail)
                    recorded.insert(subject)
                }
                buffer.writeBytes(event.ndjsonLine)
                if buffer.readableBytes >= 1 << 16 {
                    try await writer.write(buffer)
                    buffer.clear()
                }
            }
            if buffer.readableBytes > 0 { try await writer.write(buffer) }
            try await writer.finish(nil)
        })
    }

    /// The largest number a query parameter takes: 2^53 - 1, the largest every JSON client can hold
    /// exactly (docs/openapi.json says the same).
    static let maximumInteger: Int64 = 9_007_199_254_740_991

    /// A whole-number query parameter, or nil when absent; a 400 naming it when malformed.
    static func integer(_ text: Substring?, name: String, minimum: Int64) throws -> Int64? {
        guard let text else { return nil }
        guard let value = Int64(text), value >= minimum, value <= maximumInteger else {
            throw Problem(.badRequest, code: "invalid-request",
                          detail: "\(name) must be a whole number from \(minimum) to \(maximumInteger), not \(text)", field: name)
        }
        return value
    }
}

extension HTTPField.Name {
    /// `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header).
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
}
