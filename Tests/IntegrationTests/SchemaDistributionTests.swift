import Foundation
import LedgerCore
@testable import LedgerPostgres
import PostgresNIO
import Testing

/// Issue 22, item 4: every table can be split by `log_id` (Citus), checked on the catalogue of a
/// migrated ledger with every projection installed, since Citus itself is not on this machine.
/// docs/deployment.md holds the statements that would distribute the schema; they are read here.
@Suite("A schema that distributes by log_id")
struct SchemaDistributionTests {
    /// The tables replicated whole instead of split by log, each for its reason (docs/deployment.md).
    static let referenceTables: Set<String> = Set(["ledger.schema_version", "ledger.api_keys", "ledger.console_sessions"]
        + ProjectionDefinition.names.map { "\($0).definition" })

    /// The schemas checked: the ledger's and every projection's.
    static var schemas: [String] { ["ledger"] + ProjectionDefinition.names }

    /// A ledger with its projections installed (their tables exist, empty).
    static func ledger() async throws -> TestDatabase {
        let db = try await TestDatabase.create()
        try await db.as(.administrator) { client async throws in
            for projection in ProjectionDefinition.all { try await ProjectionTestSupport.installEmpty(projection, client: client) }
        }
        return db
    }

    /// Rows of one text column.
    static func strings(_ client: LedgerPool, _ query: PostgresQuery) async throws -> [String] {
        var values: [String] = []
        for try await value in try await client.query(query).decode(String.self) { values.append(value) }
        return values
    }

    @Test("every split table has log_id, in every primary key and unique index")
    func uniqueIndexesHoldLogID() async throws {
        let db = try await Self.ledger()
        try await db.as(.administrator) { client async throws in
            let tables = try await Self.strings(client, """
                SELECT n.nspname || '.' || c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                 WHERE c.relkind IN ('r', 'p') AND n.nspname = ANY (\(Self.schemas)) ORDER BY 1
                """)
            let split = tables.filter { !Self.referenceTables.contains($0) }
            #expect(split.count >= 25, "only \(split.count) split tables found: \(split)")
            #expect(Self.referenceTables.isSubset(of: Set(tables)), "reference tables missing: \(Self.referenceTables.subtracting(tables))")
            let withoutColumn = try await Self.strings(client, """
                SELECT n.nspname || '.' || c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                 WHERE c.relkind IN ('r', 'p') AND n.nspname = ANY (\(Self.schemas))
                   AND NOT EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'log_id' AND NOT a.attisdropped)
                """)
            #expect(Set(withoutColumn).subtracting(Self.referenceTables).isEmpty, "split tables without log_id: \(withoutColumn)")
            let uniqueWithout = try await Self.strings(client, """
                SELECT n.nspname || '.' || c.relname || ': ' || pg_get_indexdef(x.indexrelid)
                  FROM pg_index x JOIN pg_class c ON c.oid = x.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
                 WHERE x.indisunique AND n.nspname = ANY (\(Self.schemas))
                   AND NOT EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'log_id' AND a.attnum = ANY (x.indkey))
                """)
            let offending = uniqueWithout.filter { row in !Self.referenceTables.contains(String(row.prefix { $0 != ":" })) }
            #expect(offending.isEmpty, "unique indexes of split tables without log_id: \(offending)")
        }
    }

    @Test("foreign keys between split tables match on log_id; no reference table refers to a split one")
    func foreignKeysStayInALog() async throws {
        let db = try await Self.ledger()
        try await db.as(.administrator) { client async throws in
            var checked = 0
            for try await (from, to, fromHasLog) in try await client.query("""
                SELECT f.conrelid::regclass::text, f.confrelid::regclass::text,
                       EXISTS (SELECT 1 FROM unnest(f.conkey) WITH ORDINALITY k(attnum, i)
                                 JOIN unnest(f.confkey) WITH ORDINALITY r(attnum, i) USING (i)
                                 JOIN pg_attribute a ON a.attrelid = f.conrelid AND a.attnum = k.attnum
                                 JOIN pg_attribute b ON b.attrelid = f.confrelid AND b.attnum = r.attnum
                                WHERE a.attname = 'log_id' AND b.attname = 'log_id')
                  FROM pg_constraint f JOIN pg_namespace n ON n.oid = f.connamespace
                 WHERE f.contype = 'f' AND n.nspname = ANY (\(Self.schemas))
                """).decode((String, String, Bool).self) {
                checked += 1
                let fromReference = Self.referenceTables.contains(from), toReference = Self.referenceTables.contains(to)
                if fromReference {
                    #expect(toReference, "reference table \(from) refers to split table \(to)")
                } else if !toReference {
                    #expect(fromHasLog, "\(from) refers to \(to) without matching log_id to log_id")
                }
            }
            #expect(checked >= 5, "only \(checked) foreign keys found")
        }
    }

    @Test("docs/deployment.md distributes exactly the ledger's tables, and names functions that exist, keyed by p_log_id")
    func documentedStatements() async throws {
        let text = try String(contentsOf: try JSONSchemaValidator.packageRoot().appendingPathComponent("docs/deployment.md"), encoding: .utf8)
        func named(_ call: String) -> [String] {
            text.matches(of: try! Regex("\(call)\\('([^'%]+)'")).map { String($0.output[1].substring ?? "") }
        }
        let reference = named("create_reference_table"), distributed = named("create_distributed_table")
        let functions = named("create_distributed_function")
        #expect(Set(reference) == Self.referenceTables.filter { $0.hasPrefix("ledger.") })
        let db = try await Self.ledger()
        try await db.as(.administrator) { client async throws in
            let ledgerTables = try await Self.strings(client, """
                SELECT 'ledger.' || c.relname FROM pg_class c WHERE c.relkind IN ('r', 'p') AND c.relnamespace = 'ledger'::regnamespace
                """)
            #expect(Set(reference + distributed) == Set(ledgerTables), "the statements miss \(Set(ledgerTables).subtracting(reference + distributed)) or name \(Set(reference + distributed).subtracting(ledgerTables))")
            #expect(functions.count >= 8)
            for function in functions {
                let first = try await Self.strings(client, PostgresQuery(unsafeSQL:
                    "SELECT coalesce(proargnames[1], '') FROM pg_proc WHERE oid = to_regprocedure('\(function)')"))
                #expect(first == ["p_log_id"], "\(function): \(first.isEmpty ? "no such function" : "first argument \(first[0])")")
            }
        }
    }
}
