import Foundation
import LedgerApplication
import LedgerCore
import LedgerPostgres
import LedgerReportModel
import Synchronization

/// The operations the routes call, answered from a script instead of a database: each test says
/// what an operation returns or throws, and reads back what the routes asked. Test-only; the
/// server's one implementation is `Ledger`.
final class ScriptedLedger: LedgerOperations, Sendable {
    /// One call the routes made.
    enum Call: Equatable, Sendable {
        case authenticate(String)
        case schemaVersion
        case append(log: String, events: Int, idempotencyKey: String?)
        case requireHead(String)
        case readEvents(log: String, after: Int64, limit: Int64?, stream: String?)
        case findSubjects(log: String, prefix: String, limit: Int, after: String?)
        case state(log: String, subject: String?, asOf: String)
        case erase(log: String, subject: String)
        case report(String)
        case verifiableLog(String)
    }

    /// What the script answers.
    struct Script: Sendable {
        var keys: [String: APIKey] = [:]
        var schemaVersion: Result<Int?, LedgerError> = .success(7)
        var append: [Result<AppendResult, LedgerError>] = []
        var head: Result<LogHead, LedgerError> = .success(LogHead(log: "acme", position: 3, chainHash: [UInt8](repeating: 0, count: 32),
                                                                   createdAt: Date(timeIntervalSince1970: 0)))
        var events: [StoredEvent] = []
        var subjects: Result<SubjectListing, LedgerError> = .success(.init(entries: [], next: nil, projectedThrough: 0, head: 0))
        var state: Result<SubjectStates, LedgerError> = .success(SubjectStates(position: 0, snapshots: []))
        var erase: Result<AppendResult.Appended, LedgerError> = .failure(LedgerError(.invalidRequest, "not scripted"))
        var reports: LedgerError = LedgerError(.logNotFound, "there is no log named acme")
        /// Awaited by each report operation, with the report's log, before it answers (to hold a
        /// report under way).
        var reportHold: (@Sendable (String) async -> Void)?
        /// What the checkpoint, tile and proof operations answer.
        var proofs: LedgerError = LedgerError(.checkpointNotFound, "log acme has no signed checkpoint yet")
    }

    private let state = Mutex<(script: Script, calls: [Call], idempotencyKeys: [String?])>((Script(), [], []))

    init(_ script: Script = Script()) { state.withLock { $0.script = script } }

    /// The calls made so far, in order.
    var calls: [Call] { state.withLock { $0.calls } }
    /// The `Idempotency-Key` of each append, in order.
    var idempotencyKeys: [String?] { state.withLock { $0.idempotencyKeys } }

    private func record(_ call: Call) -> Script {
        state.withLock { $0.calls.append(call); return $0.script }
    }

    func authenticate(token: String) async throws -> APIKey? { record(.authenticate(token)).keys[token] }

    func schemaVersion(within limit: Duration) async throws -> Int? { try record(.schemaVersion).schemaVersion.get() }

    func append(log: String, events: [EventInput], idempotencyKey: String?) async throws -> AppendResult {
        let next: Result<AppendResult, LedgerError> = state.withLock {
            $0.calls.append(.append(log: log, events: events.count, idempotencyKey: idempotencyKey))
            $0.idempotencyKeys.append(idempotencyKey)
            return $0.script.append.isEmpty ? .failure(LedgerError(.invalidRequest, "not scripted")) : $0.script.append.removeFirst()
        }
        return try next.get()
    }

    func recordAppStoreNotification(log: String, event: EventInput) async throws -> AppendResult {
        try await append(log: log, events: [event], idempotencyKey: nil)
    }

    func requireHead(log: String) async throws -> LogHead { try record(.requireHead(log)).head.get() }

    func readEvents(log: String, after: Int64, limit: Int64?, stream: String?, _ body: (StoredEvent) async throws -> Void) async throws {
        for event in record(.readEvents(log: log, after: after, limit: limit, stream: stream)).events { try await body(event) }
    }

    func findSubjects(log: String, prefix: String, has: SubjectMark?, limit: Int, after: String?) async throws -> SubjectListing {
        try record(.findSubjects(log: log, prefix: prefix, limit: limit, after: after)).subjects.get()
    }

    func state(log: String, subject: String?, asOf: AsOf) async throws -> SubjectStates {
        try record(.state(log: log, subject: subject, asOf: "\(asOf)")).state.get()
    }

    func erase(log: String, subject: String, erasure: EventInput) async throws -> AppendResult.Appended {
        try record(.erase(log: log, subject: subject)).erase.get()
    }

    func consentRegister(_ parameters: ConsentRegisterReport.Parameters) async throws -> ConsentRegisterReport.Result {
        let script = record(.report("consent-register"))
        await script.reportHold?(parameters.log)
        throw script.reports
    }

    func regulatorReport(_ parameters: RegulatorReport.Parameters, policy: ReportPolicy) async throws -> RegulatorReport.Result {
        throw record(.report("regulator")).reports
    }

    func dossier(log: String, subject: String, asOf: Int64?, dateOfIssue: String?) async throws -> SubjectDossierReport.Result {
        throw record(.report("dossier")).reports
    }

    func latestCheckpoint(log: String) async throws -> StoredCheckpoint { throw record(.verifiableLog("checkpoint")).proofs }

    func tile(log: String, _ tile: TileAddress) async throws -> [UInt8] { throw record(.verifiableLog(tile.path)).proofs }

    func subjectEvents(log: String, subject: String, asOf: AsOf) async throws -> (throughPosition: Int64, events: [ReplayedEvent]) {
        throw record(.verifiableLog("replay")).proofs
    }

    func openConsoleSession(key: APIKey, lifetime: Duration, client: String) async throws -> (token: String, expiresAt: String) {
        throw record(.verifiableLog("console")).proofs
    }

    func consoleSessionKey(token: String) async throws -> APIKey? { throw record(.verifiableLog("console")).proofs }

    func endConsoleSession(token: String) async throws { throw record(.verifiableLog("console")).proofs }

    func recordRead(log: String, access: ReadAccess, what: String, subject: String, detail: String) async throws {}

    func readAudit(log: String, subject: String?, limit: Int, before: Int64?) async throws -> [ReadRecord] { [] }

    func findings(log: String, kind: LedgerRule.Kind?, subject: String?, limit: Int, before: Int64?) async throws -> [AnomalyFindings.Finding] { [] }

    func findings(log: String, after cursor: FindingsFeed.Cursor, kind: LedgerRule.Kind?, limit: Int) async throws -> FindingsFeed.Page {
        FindingsFeed.Page(items: [], judgedThrough: 0, head: 0)
    }

    func followFindings(log: String, after cursor: FindingsFeed.Cursor, kind: LedgerRule.Kind?, backstop: Duration,
                        _ deliver: ([FindingsFeed.Item]) async throws -> Void) async throws {
        throw record(.verifiableLog("findings stream")).proofs
    }

    func createSubscription(_ request: SubscriptionRequest) async throws -> (Subscription, String) {
        throw record(.verifiableLog("subscriptions")).proofs
    }

    func subscriptions(log: String?) async throws -> [Subscription] { [] }

    func subscription(_ id: String, log: String?) async throws -> Subscription { throw record(.verifiableLog("subscriptions")).proofs }

    func deleteSubscription(_ id: String, log: String?) async throws -> Subscription { throw record(.verifiableLog("subscriptions")).proofs }

    func replaySubscription(_ id: String, log: String?, from position: Int64) async throws -> Subscription {
        throw record(.verifiableLog("subscriptions")).proofs
    }

    func deliveries(_ id: String, log: String?, limit: Int) async throws -> [DeliveryAttempt] { [] }

    func registerPage(log: String, query: ConsentRegisterEntries.Query) async throws -> ConsentRegisterEntries.Page {
        throw record(.verifiableLog("register")).proofs
    }

    func explain(log: String, subject: String, feature: String, asOf: AsOf, policy: ReportPolicy) async throws -> FeatureExplanation {
        throw record(.verifiableLog("explain")).proofs
    }

    func verifyAndRecord(log: String, sinceCheckpoint: Bool, by: String, progress: @escaping @Sendable (Int64, Int64) -> Void,
                         treeNote: @Sendable (String) -> Void) async throws -> Ledger.Verification {
        throw record(.verifiableLog("verify")).proofs
    }

    func reportJurisdictions(log: String) async throws -> [ReportFactsJurisdictions.Jurisdiction] { [] }

    func consoleOverview(log: String) async throws -> LogOverview { throw record(.verifiableLog("console")).proofs }

    func addCosignatures(log: String, note: String, witnesses: [NoteVerifierKey]) async throws -> CosignaturesAdded {
        throw record(.verifiableLog("cosignatures")).proofs
    }

    func position(log: String, eventId: String) async throws -> Int64 { throw record(.verifiableLog("position")).proofs }

    func proveInclusion(log: String, position: Int64, checkpointSize: Int64?, since: Int64?) async throws -> ProofBundle {
        throw record(.verifiableLog("inclusion")).proofs
    }

    func proveConsistency(log: String, from: Int64, to: Int64?) async throws -> ProofBundle {
        throw record(.verifiableLog("consistency")).proofs
    }
}

/// Keys for log `acme` of each role, as the script's `keys`.
enum TestKeys {
    static let ingest = "cl_ingest_secret", auditor = "cl_auditor_secret", admin = "cl_admin_secret"

    static var all: [String: APIKey] {
        [ingest: APIKey(keyID: "ingest", log: "acme", role: .ingest, createdAt: "2026-11-25T00:00:00Z"),
         auditor: APIKey(keyID: "auditor", log: "acme", role: .auditor, createdAt: "2026-11-25T00:00:00Z"),
         admin: APIKey(keyID: "admin", log: "acme", role: .admin, createdAt: "2026-11-25T00:00:00Z")]
    }
}
