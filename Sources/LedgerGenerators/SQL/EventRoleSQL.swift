import LedgerCore

/// Writes one SQL function per event role (``EventRole``): `ledger.is_age_signal(p_type text,
/// p_payload jsonb)`, true for an event that plays the role, from the types' ``EventSchema/roles``.
/// The projections' folds call these instead of naming the types, so a new age signal is declared
/// in its type's file and every fold follows. Simple SQL expressions, so the planner inlines them.
enum EventRoleSQL {
    /// The generated file.
    static var file: CatalogueSQL.File {
        var text = CatalogueSQL.banner + """
            -- One function per event role (EventRole): whether an event of type p_type with payload
            -- p_payload (upcast to its current version) plays it. The projections' folds call them
            -- instead of naming event types (issue 37).
            """ + "\n\n"
        for role in EventRole.Name.allCases {
            var cases = "CASE p_type\n"
            for schema in EventCatalogue.schemas {
                for played in schema.roles where played.name == role {
                    let test = played.condition.map { "coalesce(p_payload ->> \(SQLText.literal($0.field)) = \(SQLText.literal($0.value)), false)" }
                        ?? "true"
                    cases += "  WHEN \(SQLText.literal(schema.type)) THEN \(test)\n"
                }
            }
            cases += "  ELSE false\nEND"
            text += """
                -- \(role.sqlFunction): \(role.meaning).
                CREATE OR REPLACE FUNCTION \(role.sqlFunction)(p_type text, p_payload jsonb) RETURNS boolean
                LANGUAGE sql IMMUTABLE PARALLEL SAFE
                AS $fn$
                SELECT \(cases)
                $fn$;

                """
        }
        return CatalogueSQL.File(name: "event-roles.sql", text: text)
    }
}
