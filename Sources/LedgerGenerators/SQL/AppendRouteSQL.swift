import LedgerCore

/// Writes `ledger.append_route_problem(event jsonb, function text)`: who may append each event
/// type (``EventSchema/appenders``) as the database enforces it, for every caller of the function
/// named (decision 0056). The database knows the function it was called through, not the route:
/// `ledger.append_events` stores what any route ending in it may append (the ordinary writers and
/// the verified App Store notifications), `ledger.erase_subject` and `ledger.apply_retention` what
/// their operations may. The messages are ``EventCatalogue/appendProblem(_:actor:route:)``'s.
enum AppendRouteSQL {
    /// The database functions events are stored through, in ``AppendRoute``'s order.
    static var functions: [String] {
        var seen: [String] = []
        for route in AppendRoute.allCases where !seen.contains(route.databaseFunction) { seen.append(route.databaseFunction) }
        return seen
    }

    /// Why `function` may not store an event of `schema`'s type recorded as `actor`
    /// (`<field>: <message>`), or nil when a route ending in it may append it. The message is the
    /// first such route's.
    static func problem(_ schema: EventSchema, actor: String, function: String) -> String? {
        let routes = AppendRoute.allCases.filter { $0.databaseFunction == function }
        guard routes.allSatisfy({ EventCatalogue.appendProblem(schema, actor: actor, route: $0) != nil }),
              let first = routes.first, let problem = EventCatalogue.appendProblem(schema, actor: actor, route: first) else { return nil }
        return problem.field + ": " + problem.message
    }

    /// The generated file.
    static var file: CatalogueSQL.File {
        let kind = "(p_event -> 'actor' ->> 'kind')"
        var cases = "CASE p_function\n"
        for function in functions {
            cases += "  WHEN \(SQLText.literal(function)) THEN CASE p_event ->> 'type'\n"
            for schema in EventCatalogue.schemas {
                let refused = EventEnvelope.Actor.kinds.sorted().compactMap { actor in
                    problem(schema, actor: actor, function: function).map { (actor, $0) }
                }
                guard !refused.isEmpty else { continue }
                if Set(refused.map(\.1)).count == 1, refused.count == EventEnvelope.Actor.kinds.count {
                    cases += "    WHEN \(SQLText.literal(schema.type)) THEN \(SQLText.literal(refused[0].1))\n"
                    continue
                }
                cases += "    WHEN \(SQLText.literal(schema.type)) THEN CASE \(kind)\n"
                for (actor, problem) in refused {
                    cases += "      WHEN \(SQLText.literal(actor)) THEN \(SQLText.literal(problem))\n"
                }
                cases += "    END\n"
            }
            cases += "  END\n"
        }
        cases += "  ELSE 'function: ' || p_function || ' stores no events'\nEND"
        // The same rule for ledger.append_events as rows: a join with the batch's types and actors,
        // which the checked append (decision 0072) evaluates without setting up the whole CASE above
        // on every call (that set-up cost it about 0.1 ms per call).
        var refusals: [String] = []
        for schema in EventCatalogue.schemas {
            for actor in EventEnvelope.Actor.kinds.sorted() {
                if let problem = problem(schema, actor: actor, function: "ledger.append_events") {
                    refusals.append("(\(SQLText.literal(schema.type)), \(SQLText.literal(actor)), \(SQLText.literal(problem)))")
                }
            }
        }
        return CatalogueSQL.File(name: "append-route-problem.sql", text: CatalogueSQL.banner + """
            -- ledger.append_route_problem: why the database function p_function may not store the event
            -- p_event (whose envelope has passed ledger.envelope_problem), as '<field>: <what is wrong>',
            -- or NULL when it may. Who may append each type is the catalogue's (EventSchema.appenders,
            -- decision 0056): the ledger's own facts only through their operations (ledger.erase_subject,
            -- ledger.apply_retention, run as the owner), never through ledger.append_events; the actor
            -- appStore only on a ConsentRescinded, whose signed notification the server verified. Not
            -- STRICT, so that the planner inlines it.
            CREATE OR REPLACE FUNCTION ledger.append_route_problem(p_event jsonb, p_function text) RETURNS text
            LANGUAGE sql IMMUTABLE PARALLEL SAFE
            AS $fn$
            SELECT \(SQLText.indent(cases, by: 0))
            $fn$;

            -- ledger.append_events_route_refusals: the events of a batch (p_types and p_actor_kinds, in
            -- batch order) that ledger.append_events may not store, each with its batch index and the
            -- problem ledger.append_route_problem gives: the same rule as rows, joined with the batch
            -- (the checked append, decision 0072). A plain SQL function that the planner inlines.
            CREATE OR REPLACE FUNCTION ledger.append_events_route_refusals(p_types text[], p_actor_kinds text[])
            RETURNS TABLE (ord bigint, type text, problem text)
            LANGUAGE sql IMMUTABLE PARALLEL SAFE
            AS $fn$
            SELECT u.ord, u.type, r.problem
              FROM unnest(p_types, p_actor_kinds) WITH ORDINALITY AS u(type, kind, ord)
              JOIN (VALUES
                \(refusals.joined(separator: ",\n    "))
              ) AS r(type, kind, problem) ON r.type = u.type AND r.kind = u.kind
            $fn$;

            """)
    }
}
