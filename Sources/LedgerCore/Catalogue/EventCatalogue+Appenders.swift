extension EventCatalogue {
    /// Refuses an event that `route` may not append, by its type's ``EventSchema/appenders``: the
    /// one rule every writer applies before it stores anything (the database applies the same
    /// rule, generated from the same values, in `ledger.append_route_problem`). An unknown type
    /// passes: validation refuses it.
    ///
    /// ```swift
    /// try EventCatalogue.checkAppender(of: erasure.envelope, route: .append)
    /// // append-not-permitted: SubjectErased is recorded by the ledger itself: use `consent-ledger erase` …
    /// ```
    /// - Throws: `append-not-permitted` (403), its field `type` or `actor.kind`.
    public static func checkAppender(of envelope: EventEnvelope, route: AppendRoute) throws(LedgerError) {
        guard let schema = schema(for: envelope.type),
              let problem = appendProblem(schema, actor: envelope.actor.kind, route: route) else { return }
        throw LedgerError(.appendNotPermitted, problem.message, field: problem.field, hint: appendHint)
    }

    /// ``checkAppender(of:route:)`` for each event of a batch, naming the first refused one's
    /// 1-based index in ``LedgerError/line``.
    public static func checkAppenders(of events: [EventInput], route: AppendRoute) throws(LedgerError) {
        for (index, event) in events.enumerated() {
            do {
                try checkAppender(of: event.envelope, route: route)
            } catch {
                throw error.at(line: index + 1)
            }
        }
    }

    /// The hint of every refusal.
    static let appendHint = "Nothing of the batch was stored; the table of who may append each type is in docs/events.md (decision 0056)."

    /// Why `route` may not append an event of `schema`'s type recorded as `actor`, as a message and
    /// the field at fault; nil when it may. The SQL is written from this function's cases
    /// (`AppendRouteSQL` in LedgerGenerators).
    package static func appendProblem(_ schema: EventSchema, actor: String, route: AppendRoute) -> (message: String, field: String)? {
        guard let appender = schema.appenders.first(where: { $0.route == route }) else {
            return (typeMessage(schema), "type")
        }
        if appender.actors.contains(actor) { return nil }
        return (actorMessage(schema, actor: actor, route: route), "actor.kind")
    }

    /// The message for a type `route` never appends.
    static func typeMessage(_ schema: EventSchema) -> String {
        let routes = schema.appenders.map(\.route)
        let who = routes.allSatisfy(\.isLedgerOperation) ? "is recorded by the ledger itself" : "is not appended this way"
        return "\(schema.type) \(who): \(AppendRoute.instead(routes))"
    }

    /// The message for a type `route` appends, but not as `actor`.
    static func actorMessage(_ schema: EventSchema, actor: String, route: AppendRoute) -> String {
        let allowed = schema.appenders.first { $0.route == route }?.actors ?? []
        var message = "\(schema.type) with actor \(actor) is not appended this way (here its actor is one of \(allowed.joined(separator: ", ")))"
        let elsewhere = schema.appenders.filter { $0.route != route && $0.actors.contains(actor) }.map(\.route)
        if !elsewhere.isEmpty { message += ": " + AppendRoute.instead(elsewhere) }
        return message
    }
}
