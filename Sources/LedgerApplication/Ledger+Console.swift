import Foundation
import LedgerCore
import LedgerPostgres

extension Ledger {
    /// Opens a console session for `key` (already authenticated) lasting `lifetime`, as the
    /// application role (``ConsoleSessionStore``).
    public func openConsoleSession(key: APIKey, lifetime: Duration, client: String) async throws -> (token: String, expiresAt: String) {
        try await ConsoleSessionStore(pool: pools.application, logger: logger).open(key: key, lifetime: lifetime, client: client)
    }

    /// The key of an open console session, or nil.
    public func consoleSessionKey(token: String) async throws -> APIKey? {
        try await ConsoleSessionStore(pool: pools.application, logger: logger).key(forToken: token)
    }

    /// Ends a console session (sign-out).
    public func endConsoleSession(token: String) async throws {
        try await ConsoleSessionStore(pool: pools.application, logger: logger).end(token: token)
    }

    /// The findings of `log` for the console (``AnomalyFindings``), as the auditor.
    public func findings(log: String, kind: LedgerRule.Kind?, subject: String?, limit: Int, before: Int64?) async throws -> [AnomalyFindings.Finding] {
        try await AnomalyFindings.list(log: log, kind: kind, subject: subject, limit: limit, before: before, pool: pools.auditor, logger: logger)
    }

    /// One page of `log`'s consent register for the console (``ConsentRegisterEntries``), as the auditor.
    public func registerPage(log: String, query: ConsentRegisterEntries.Query) async throws -> ConsentRegisterEntries.Page {
        try await ConsentRegisterEntries.page(log: log, query: query, pool: pools.auditor, logger: logger)
    }

    /// The jurisdictions `log`'s events name (``ReportFactsJurisdictions``), for the report form, as the auditor.
    public func reportJurisdictions(log: String) async throws -> [ReportFactsJurisdictions.Jurisdiction] {
        try await ReportFactsJurisdictions.list(log: log, pool: pools.auditor, logger: logger)
    }

    /// What the console shows of `log` at a glance (``LogOverview``), as the auditor.
    public func consoleOverview(log: String) async throws -> LogOverview {
        try await LogOverview.compute(log: log, pool: pools.auditor, logger: logger)
    }
}

extension Ledger {
    /// Records a read of `subject`'s data before it is answered (``ReadAuditStore``), as the
    /// application role (the HTTP API, the console) or, for the CLI, the auditor role.
    /// A subject that is no pseudonym (nor ``ReadAccess/everySubject``) is refused before anything
    /// is recorded (``SubjectPseudonym``).
    public func recordRead(log: String, access: ReadAccess, what: String, subject: String, detail: String) async throws {
        if subject != ReadAccess.everySubject { try SubjectPseudonym.check(subject) }
        let pool = access.channel == .cli ? pools.auditor : pools.application
        try await ReadAuditStore(pool: pool, logger: logger).record(log: log, access: access, what: what, subject: subject, detail: detail)
    }

    /// Recomputes the chain of `log`'s record of reads (``ReadAuditStore/verify(log:)``): nil when it holds.
    public func verifyReadAudit(log: String) async throws -> String? {
        try await ReadAuditStore(pool: pools.auditor, logger: logger).verify(log: log)
    }

    /// The recorded reads of `log` (of `subject`, when given), newest first.
    public func readAudit(log: String, subject: String? = nil, limit: Int = 100, before: Int64? = nil) async throws -> [ReadRecord] {
        if let subject { try SubjectPseudonym.check(subject) }
        return try await ReadAuditStore(pool: pools.auditor, logger: logger).list(log: log, subject: subject, limit: limit, before: before)
    }
}
