import Foundation
import HTTPTypes
import Hummingbird
import LedgerAPIModel
import LedgerApplication
import LedgerCore
import LedgerPostgres
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
        let events = try Self.events(in: Array(buffer: body), maxEvents: settings.maxBatchEvents)
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

    /// The events of a body: a JSON array, or NDJSON. Errors name the 1-based event (`line`).
    static func events(in bytes: [UInt8], maxEvents: Int) throws -> [EventInput] {
        let trimmed = bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        guard !trimmed.isEmpty else {
            throw Problem(.badRequest, code: "invalid-request", detail: "the body is empty",
                          hint: "Send the events as NDJSON (one JSON object per line) or as a JSON array.")
        }
        var values: [JSONValue] = []
        if trimmed.first == UInt8(ascii: "[") {
            let parsed: JSONValue
            do { parsed = try JSONParser.parse(Array(trimmed)) } catch {
                throw Problem(.badRequest, code: "invalid-json", detail: "the body is not valid JSON: \(error)")
            }
            values = parsed.arrayValue ?? []
        } else {
            var number = 0
            for line in trimmed.split(separator: 0x0A, omittingEmptySubsequences: false) {
                number += 1
                let content = line.last == 0x0D ? line.dropLast() : line[...]
                if content.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                do { values.append(try JSONParser.parse(Array(content))) } catch {
                    throw Problem(.badRequest, code: "invalid-json", detail: "line \(number) is not valid JSON: \(error)", line: number,
                                  hint: "Each line must hold exactly one JSON object (NDJSON).")
                }
            }
        }
        guard !values.isEmpty else { throw Problem(.badRequest, code: "invalid-request", detail: "the batch holds no events") }
        guard values.count <= maxEvents else {
            throw Problem(.contentTooLarge, code: "batch-too-large", detail: "\(values.count) events in one batch; at most \(maxEvents)",
                          hint: "Split the batch; give each part its own Idempotency-Key.")
        }
        var events: [EventInput] = []
        events.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            do { events.append(try EventInput(json: value)) } catch { throw Problem(error.at(line: index + 1)) }
        }
        return events
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
        return Response(status: .ok, headers: [.contentType: "application/x-ndjson"], body: ResponseBody { writer in
            var buffer = ByteBuffer()
            try await operations.readEvents(log: log, after: after, limit: limit, stream: stream) { event in
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
