import Foundation
@testable import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

@Suite("Projection SQL helpers")
struct ProjectionSQLTests {
    @Test("the SQL upcast of AgeRangeShared version 1 gives what the Swift catalogue's upcast gives", arguments: [
        #"{}"#,
        #"{"lowerBound":13,"upperBound":15,"ageRangeDeclaration":"guardianDeclared"}"#,
        #"{"parentalControls":null}"#,
        #"{"parentalControls":{}}"#,
        #"{"parentalControls":{"communicationLimits":true}}"#,
        #"{"parentalControls":{"communicationLimits":false,"significantAppChangeApprovalRequired":true}}"#,
        #"{"upperBound":12,"parentalControls":{"significantAppChangeApprovalRequired":true,"communicationLimits":true}}"#,
    ])
    func upcastAgrees(payload: String) async throws {
        guard case .object(let members) = try JSONParser.parse(payload) else { Issue.record("not an object"); return }
        let swift = JSONValue.object(AgeRangeShared.upcastVersion1(members))
        let db = try await TestDatabase.create()
        try await db.as(.auditor) { client async throws in
            for try await text in try await client.query("SELECT ledger.upcast_age_range_shared_v1(\(payload)::jsonb)::text").decode(String.self) {
                #expect(try JSONParser.parse(text) == swift, "\(payload)")
            }
        }
    }

    @Test("version keys order dotted versions numerically and refuse other strings")
    func versionKeys() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.auditor) { client async throws in
            let rows = try await client.query("""
                SELECT ledger.version_key('3.10.1') > ledger.version_key('3.9'),
                       ledger.version_key('3.0') <= ledger.version_key('3.0.0'),
                       ledger.version_key('3.0-beta') IS NULL
                """)
            for try await (newer, prefix, refused) in rows.decode((Bool, Bool, Bool).self) {
                #expect(newer)
                #expect(prefix)
                #expect(refused)
            }
        }
    }
}
