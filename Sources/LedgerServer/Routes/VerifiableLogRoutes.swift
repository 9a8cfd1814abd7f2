import Foundation
import HTTPTypes
import Hummingbird
import LedgerAPIModel
import LedgerApplication
import LedgerCore
import NIOCore

/// The verifiable log on the wire (docs/proofs.md, docs/http-api.md; decision 0046). Each log's
/// C2SP tlog-tiles prefix is `/v1/logs/{log}`:
///
/// - `GET /v1/logs/{log}/checkpoint`: the newest signed checkpoint, as the C2SP signed note;
/// - `GET /v1/logs/{log}/tile/<L>/<N>[.p/<W>]` and `GET /v1/logs/{log}/tile/entries/<N>[.p/<W>]`:
///   hash tiles and entry bundles;
/// - `GET /v1/logs/{log}/proofs/inclusion?position=P|eventId=E[&size=N][&since=M]` and
///   `GET /v1/logs/{log}/proofs/consistency?from=N[&to=M]`: the bundles `consent-ledger prove`
///   writes, byte for byte;
/// - `POST /v1/logs/{log}/checkpoint/cosignatures`: a witness's cosigned checkpoint note, whose
///   cosignatures (by witnesses named with `serve --witness`) are checked and stored, then served
///   with the checkpoint.
///
/// Auditor and admin keys of the log may read them; with `serve --public-proofs` anyone may read
/// the checkpoint, the hash tiles and consistency proofs (these routes only: never events or
/// reports). Entry bundles and inclusion proofs carry records, a child's data: without a key they
/// are served only with `serve --public-entries` as well (issue 36, finding 11). Every answer that
/// carries records is entered in the record of reads first (finding 5). A key that is sent is still
/// checked. Adding cosignatures always needs an auditor or admin key.
struct VerifiableLogRoutes {
    let operations: any LedgerOperations
    /// Whether the routes answer requests without a key.
    let isPublic: Bool
    /// Whether, on a public server, entry bundles and inclusion proofs (which carry records) are
    /// answered without a key too.
    let entriesArePublic: Bool
    /// The witnesses whose cosignatures are accepted.
    let witnesses: [NoteVerifierKey]

    /// The largest cosigned note accepted: a checkpoint and a few dozen signature lines.
    static let maxNoteBytes = 16 << 10

    /// A full tile's bytes never change: a year, and `immutable`.
    static let immutable = "max-age=31536000, immutable"

    var collection: RouteCollection<LedgerRequestContext> {
        let routes = RouteCollection(context: LedgerRequestContext.self)
        routes.get("logs/{log}/checkpoint", use: checkpoint)
        routes.post("logs/{log}/checkpoint/cosignatures", use: addCosignatures)
        // A tile's index spans path segments (x001/234.p/5), hence the catch-all.
        routes.get("logs/{log}/tile/entries/**", use: entries)
        routes.get("logs/{log}/tile/{level}/**", use: hashes)
        routes.get("logs/{log}/proofs/inclusion", use: inclusion)
        routes.get("logs/{log}/proofs/consistency", use: consistency)
        return routes
    }

    @Sendable func checkpoint(request: Request, context: LedgerRequestContext) async throws -> Response {
        let log = try allowed(context)
        let checkpoint = try await operations.latestCheckpoint(log: log)
        // The checkpoint changes as the log grows: caches must ask again (C2SP: "a few seconds").
        return Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: cacheControl(context, "no-cache")],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: checkpoint.published)))
    }

    @Sendable func addCosignatures(request: Request, context: LedgerRequestContext) async throws -> Response {
        let log = try context.path("log")
        _ = try context.require([.auditor, .admin], log: log)
        let body = try await request.body.collect(upTo: Self.maxNoteBytes)
        guard let note = String(validating: Array(buffer: body), as: UTF8.self) else {
            throw Problem(.badRequest, code: "cosignature-refused", detail: "the body is not UTF-8 text",
                          hint: "Send the cosigned checkpoint note as text/plain.")
        }
        let added = try await operations.addCosignatures(log: log, note: note, witnesses: witnesses)
        return try Response.json(APIModel.CosignatureResult(log: log, treeSize: Int64(added.checkpoint.treeSize), added: added.added,
                                                            alreadyStored: added.alreadyStored, checkpoint: added.checkpoint.published))
    }

    @Sendable func hashes(request: Request, context: LedgerRequestContext) async throws -> Response {
        try await tile(request, context, first: try context.path("level"))
    }

    @Sendable func entries(request: Request, context: LedgerRequestContext) async throws -> Response {
        try await tile(request, context, first: "entries")
    }

    private func tile(_ request: Request, _ context: LedgerRequestContext, first: String) async throws -> Response {
        let carriesRecords = first == "entries"
        let log = try allowed(context, carriesRecords: carriesRecords)
        let address = try TileAddress(segments: [Substring(first)] + context.parameters.getCatchAll())
        let bytes = try await operations.tile(log: log, address)
        if carriesRecords {
            // Up to 256 records of any subjects: a read of every subject's data.
            try await context.recordRead(request, operations: operations, log: log, what: "tile entries",
                                         subject: ReadAccess.everySubject, detail: context.parameters.getCatchAll().joined(separator: "/"))
        }
        // Every tile, full or partial, is the same bytes forever once served: its hashes are of
        // complete subtrees (or its records), which no later append changes.
        return Response(status: .ok, headers: [.contentType: "application/octet-stream", .cacheControl: cacheControl(context, Self.immutable)],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    @Sendable func inclusion(request: Request, context: LedgerRequestContext) async throws -> Response {
        let log = try allowed(context, carriesRecords: true)
        let query = request.uri.queryParameters
        let position: Int64
        switch (try EventRoutes.integer(query["position"], name: "position", minimum: 1), query["eventId"]) {
        case (let given?, nil): position = given
        case (nil, let eventId?): position = try await operations.position(log: log, eventId: String(eventId))
        default:
            throw Problem(.badRequest, code: "missing-field", detail: "give the record's position or its eventId, one of the two",
                          hint: "For example ?position=7 or ?eventId=0b6c6f1e-…")
        }
        let bundle = try await operations.proveInclusion(
            log: log, position: position, checkpointSize: try EventRoutes.integer(query["size"], name: "size", minimum: 1),
            since: try EventRoutes.integer(query["since"], name: "since", minimum: 1))
        // The bundle carries the record: a read of its subject's data, recorded before it is answered.
        if let included = bundle.inclusion, let subject = try LedgerRecord(parsing: included.record).event["subject"]?.stringValue {
            try await context.recordRead(request, operations: operations, log: log, what: "inclusion proof", subject: subject,
                                         detail: "position \(position)")
        }
        return proof(bundle, context)
    }

    @Sendable func consistency(request: Request, context: LedgerRequestContext) async throws -> Response {
        let log = try allowed(context)
        let query = request.uri.queryParameters
        guard let from = try EventRoutes.integer(query["from"], name: "from", minimum: 1) else {
            throw Problem(.badRequest, code: "missing-field", detail: "from, the older tree size, is required", field: "from",
                          hint: "For example ?from=100&to=120 (leave out to for the newest checkpoint).")
        }
        let bundle = try await operations.proveConsistency(log: log, from: from,
                                                           to: try EventRoutes.integer(query["to"], name: "to", minimum: 1))
        return proof(bundle, context)
    }

    /// The log of the request, when its key (or, on a public server, the absence of one) may read
    /// it; what carries records needs a key unless entries were made public too.
    private func allowed(_ context: LedgerRequestContext, carriesRecords: Bool = false) throws -> String {
        let log = try context.path("log")
        let open = isPublic && (!carriesRecords || entriesArePublic)
        if context.key != nil || !open { _ = try context.require([.auditor, .admin], log: log) }
        return log
    }

    private func proof(_ bundle: ProofBundle, _ context: LedgerRequestContext) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: cacheControl(context, "no-cache")],
                 body: ResponseBody(byteBuffer: ByteBuffer(bytes: bundle.bytes)))
    }

    /// Shared caches may keep an answer only when no key was needed for it.
    private func cacheControl(_ context: LedgerRequestContext, _ value: String) -> String {
        (context.key == nil && isPublic ? "public, " : "private, ") + value
    }
}
