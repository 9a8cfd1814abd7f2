import Foundation
import Hummingbird
import LedgerAPIModel
import LedgerApplication
import LedgerCore

/// `GET /v1/logs/{log}/subjects?prefix=P&has=denial|rescission|violation&limit=N&after=S` (auditor,
/// admin): find subjects; `GET /v1/logs/{log}/subjects/{subject}/state?asOf=P|T&clock=recorded|occurred`
/// (auditor, admin): the subject's state as of a position or time; and
/// `POST /v1/logs/{log}/subjects/{subject}/erase` (admin only): destroy the subject's key and record
/// `SubjectErased`.
struct SubjectRoutes {
    let operations: any LedgerOperations

    var collection: RouteCollection<LedgerRequestContext> {
        let routes = RouteCollection(context: LedgerRequestContext.self)
        routes.get("logs/{log}/subjects", use: find)
        routes.get("logs/{log}/subjects/{subject}/state", use: state)
        routes.post("logs/{log}/subjects/{subject}/erase", use: erase)
        return routes
    }

    @Sendable func find(request: Request, context: LedgerRequestContext) async throws -> Response {
        let log = try context.path("log")
        _ = try context.require([.auditor, .admin], log: log)
        let query = request.uri.queryParameters
        let prefix = query["prefix"].map(String.init) ?? ""
        var has: SubjectMark?
        if let text = query["has"].map(String.init) {
            guard let mark = SubjectMark(rawValue: text) else {
                throw Problem(.badRequest, code: "invalid-field", detail: "has must be denial, rescission or violation, not \(text)", field: "has")
            }
            has = mark
        }
        var limit = 100
        if let text = query["limit"].map(String.init) {
            guard let value = Int(text), (1...SubjectListing.maxLimit).contains(value) else {
                throw Problem(.badRequest, code: "invalid-field", detail: "limit must be a whole number from 1 to \(SubjectListing.maxLimit)",
                              field: "limit")
            }
            limit = value
        }
        let after = query["after"].map(String.init)
        let page = try await operations.findSubjects(log: log, prefix: prefix, has: has, limit: limit, after: after)
        return try Response.json(APIModel.SubjectList(log: log, subjects: page.entries, next: page.next,
                                                      projectedThrough: page.projectedThrough, head: page.head))
    }

    @Sendable func state(request: Request, context: LedgerRequestContext) async throws -> Response {
        let log = try context.path("log")
        let subject = try context.path("subject")
        _ = try context.require([.auditor, .admin], log: log)
        let query = request.uri.queryParameters
        guard let clock = AsOf.Clock(rawValue: query["clock"].map(String.init) ?? "recorded") else {
            throw Problem(.badRequest, code: "invalid-field", detail: "clock must be recorded or occurred", field: "clock")
        }
        let asOf = try AsOf.parse(query["asOf"].map(String.init), clock: clock)
        if case .position(let position) = asOf, position > EventRoutes.maximumInteger {
            throw Problem(.badRequest, code: "invalid-request", detail: "asOf must be at most \(EventRoutes.maximumInteger)", field: "asOf")
        }
        try await context.recordRead(request, operations: operations, log: log, what: "state", subject: subject, detail: "as of \(asOf)")
        let states = try await operations.state(log: log, subject: subject, asOf: asOf)
        guard let snapshot = states.snapshots.first else {
            throw Problem(.notFound, code: "subject-not-found", detail: "log \(log) has no events about subject \(subject) as of \(asOf)",
                          hint: states.emptyMoment)
        }
        return try Response.json(APIModel.SubjectState(log: log, subject: subject, position: states.position,
                                                       state: try JSONParser.parse(snapshot)))
    }

    /// Body: `{"reason": "erasureRequest", "requestReference": "ticket-123", "operatorId": "op_1"}`.
    @Sendable func erase(request: Request, context: LedgerRequestContext) async throws -> Response {
        let log = try context.path("log")
        let subject = try context.path("subject")
        _ = try context.require([.admin], log: log)
        let body = try await request.body.collect(upTo: 64 << 10)
        let object = try JSONBody.object(Array(buffer: body), members: ["reason", "requestReference", "operatorId"],
                                         example: #"{"reason": "erasureRequest"}"#)
        let reason = try JSONBody.requiredString(object, "reason",
                                                 hint: "One of \(SubjectErasure.reasons.joined(separator: ", ")).")
        let erasure = try SubjectErasure.event(subject: subject, reason: reason, requestReference: try JSONBody.string(object, "requestReference"),
                                               operatorId: try JSONBody.string(object, "operatorId"))
        let appended = try await operations.erase(log: log, subject: subject, erasure: erasure)
        return try Response.json(APIModel.ErasureResult(log: log, subject: subject, position: appended.position, eventId: appended.eventId))
    }
}
