import LedgerCore
import LedgerPostgres
import LedgerReportModel

/// What the HTTP API asks of the ledger: the operations of ``Ledger`` that its routes use, so the
/// route layer (parsing requests, checking keys' roles, writing answers and problems) can be
/// tested without a database. ``Ledger`` is the one implementation outside tests.
public protocol LedgerOperations: Sendable {
    /// See ``Ledger/authenticate(token:)``.
    func authenticate(token: String) async throws -> APIKey?
    /// See ``Ledger/schemaVersion(within:)``.
    func schemaVersion(within limit: Duration) async throws -> Int?
    /// See ``Ledger/append(log:events:idempotencyKey:)``.
    func append(log: String, events: [EventInput], idempotencyKey: String?) async throws -> AppendResult
    /// See ``Ledger/recordAppStoreNotification(log:event:)``.
    func recordAppStoreNotification(log: String, event: EventInput) async throws -> AppendResult
    /// See ``Ledger/requireHead(log:)``.
    func requireHead(log: String) async throws -> LogHead
    /// See ``Ledger/events(log:after:limit:stream:reveal:_:)`` (without revealing).
    func readEvents(log: String, after: Int64, limit: Int64?, stream: String?, _ body: (StoredEvent) async throws -> Void) async throws
    /// See ``Ledger/findSubjects(log:prefix:has:limit:after:)``.
    func findSubjects(log: String, prefix: String, has: SubjectMark?, limit: Int, after: String?) async throws -> SubjectListing
    /// See ``Ledger/state(log:subject:asOf:)``.
    func state(log: String, subject: String?, asOf: AsOf) async throws -> SubjectStates
    /// See ``Ledger/erase(log:subject:erasure:)``.
    func erase(log: String, subject: String, erasure: EventInput) async throws -> AppendResult.Appended
    /// See ``Ledger/consentRegister(_:progress:note:)``.
    func consentRegister(_ parameters: ConsentRegisterReport.Parameters) async throws -> ConsentRegisterReport.Result
    /// See ``Ledger/regulatorReport(_:policy:progress:note:)``.
    func regulatorReport(_ parameters: RegulatorReport.Parameters, policy: ReportPolicy) async throws -> RegulatorReport.Result
    /// See ``Ledger/dossier(log:subject:asOf:dateOfIssue:)``.
    func dossier(log: String, subject: String, asOf: Int64?, dateOfIssue: String?) async throws -> SubjectDossierReport.Result
    /// See ``Ledger/subjectEvents(log:subject:asOf:)``.
    func subjectEvents(log: String, subject: String, asOf: AsOf) async throws -> (throughPosition: Int64, events: [ReplayedEvent])
    /// See ``Ledger/openConsoleSession(key:lifetime:client:)``.
    func openConsoleSession(key: APIKey, lifetime: Duration, client: String) async throws -> (token: String, expiresAt: String)
    /// See ``Ledger/consoleSessionKey(token:)``.
    func consoleSessionKey(token: String) async throws -> APIKey?
    /// See ``Ledger/endConsoleSession(token:)``.
    func endConsoleSession(token: String) async throws
    /// See ``Ledger/recordRead(log:access:what:subject:detail:)``.
    func recordRead(log: String, access: ReadAccess, what: String, subject: String, detail: String) async throws
    /// See ``Ledger/readAudit(log:subject:limit:before:)``.
    func readAudit(log: String, subject: String?, limit: Int, before: Int64?) async throws -> [ReadRecord]
    /// See ``Ledger/findings(log:kind:subject:limit:before:)``.
    func findings(log: String, kind: LedgerRule.Kind?, subject: String?, limit: Int, before: Int64?) async throws -> [AnomalyFindings.Finding]
    /// See ``Ledger/findings(log:after:kind:limit:)``.
    func findings(log: String, after cursor: FindingsFeed.Cursor, kind: LedgerRule.Kind?, limit: Int) async throws -> FindingsFeed.Page
    /// See ``Ledger/followFindings(log:after:kind:backstop:_:)``.
    func followFindings(log: String, after cursor: FindingsFeed.Cursor, kind: LedgerRule.Kind?, backstop: Duration,
                        _ deliver: ([FindingsFeed.Item]) async throws -> Void) async throws
    /// See ``Ledger/createSubscription(_:)``.
    func createSubscription(_ request: SubscriptionRequest) async throws -> (Subscription, String)
    /// See ``Ledger/subscriptions(log:)``.
    func subscriptions(log: String?) async throws -> [Subscription]
    /// See ``Ledger/subscription(_:log:)``.
    func subscription(_ id: String, log: String?) async throws -> Subscription
    /// See ``Ledger/deleteSubscription(_:log:)``.
    func deleteSubscription(_ id: String, log: String?) async throws -> Subscription
    /// See ``Ledger/replaySubscription(_:log:from:)``.
    func replaySubscription(_ id: String, log: String?, from position: Int64) async throws -> Subscription
    /// See ``Ledger/deliveries(_:log:limit:)``.
    func deliveries(_ id: String, log: String?, limit: Int) async throws -> [DeliveryAttempt]
    /// See ``Ledger/registerPage(log:query:)``.
    func registerPage(log: String, query: ConsentRegisterEntries.Query) async throws -> ConsentRegisterEntries.Page
    /// See ``Ledger/explain(log:subject:feature:asOf:policy:)``.
    func explain(log: String, subject: String, feature: String, asOf: AsOf, policy: ReportPolicy) async throws -> FeatureExplanation
    /// See ``Ledger/verifyAndRecord(log:sinceCheckpoint:by:progress:treeNote:)``.
    func verifyAndRecord(log: String, sinceCheckpoint: Bool, by: String, progress: @escaping @Sendable (Int64, Int64) -> Void,
                         treeNote: @Sendable (String) -> Void) async throws -> Ledger.Verification
    /// See ``Ledger/reportJurisdictions(log:)``.
    func reportJurisdictions(log: String) async throws -> [ReportFactsJurisdictions.Jurisdiction]
    /// See ``Ledger/consoleOverview(log:)``.
    func consoleOverview(log: String) async throws -> LogOverview
    /// See ``Ledger/latestCheckpoint(log:)``.
    func latestCheckpoint(log: String) async throws -> StoredCheckpoint
    /// See ``Ledger/addCosignatures(log:note:witnesses:)``.
    func addCosignatures(log: String, note: String, witnesses: [NoteVerifierKey]) async throws -> CosignaturesAdded
    /// See ``Ledger/tile(log:_:)``.
    func tile(log: String, _ tile: TileAddress) async throws -> [UInt8]
    /// See ``Ledger/position(log:eventId:)``.
    func position(log: String, eventId: String) async throws -> Int64
    /// See ``Ledger/proveInclusion(log:position:checkpointSize:since:)``.
    func proveInclusion(log: String, position: Int64, checkpointSize: Int64?, since: Int64?) async throws -> ProofBundle
    /// See ``Ledger/proveConsistency(log:from:to:)``.
    func proveConsistency(log: String, from: Int64, to: Int64?) async throws -> ProofBundle
}

extension Ledger: LedgerOperations {
    /// Streams the records of `log` after `after`, as hashed (personal fields stay sealed).
    public func readEvents(log: String, after: Int64, limit: Int64?, stream: String?,
                           _ body: (StoredEvent) async throws -> Void) async throws {
        try await events(log: log, after: after, limit: limit, stream: stream) { event, _ in try await body(event) }
    }

    /// The consent register without progress reports.
    public func consentRegister(_ parameters: ConsentRegisterReport.Parameters) async throws -> ConsentRegisterReport.Result {
        try await consentRegister(parameters, progress: { _, _ in }, note: { _ in })
    }

    /// The regulator report without progress reports.
    public func regulatorReport(_ parameters: RegulatorReport.Parameters, policy: ReportPolicy) async throws -> RegulatorReport.Result {
        try await regulatorReport(parameters, policy: policy, progress: { _, _, _ in }, note: { _ in })
    }
}
