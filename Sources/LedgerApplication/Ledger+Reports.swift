import LedgerCore
import LedgerPostgres
import LedgerReportModel

extension Ledger {
    /// The consent register (who approved what and when) as of `parameters.asOf` (nil: the head),
    /// sealed; `progress` hears how far a fold to the position has come, `note` how the projections
    /// are read.
    public func consentRegister(_ parameters: ConsentRegisterReport.Parameters,
                                progress: @escaping @Sendable (Int64, Int64) -> Void = { _, _ in },
                                note: @escaping @Sendable (String) -> Void = { _ in }) async throws -> ConsentRegisterReport.Result {
        try await ConsentRegisterReport.compute(parameters, pool: pools.auditor, logger: logger, progress: progress, note: note)
    }

    /// The regulator report for one jurisdiction and period under `policy`, sealed; `progress`
    /// hears each step as it starts, `note` how the projections are read.
    public func regulatorReport(_ parameters: RegulatorReport.Parameters, policy: ReportPolicy = .defaults,
                                progress: @escaping @Sendable (Int, Int, String) -> Void = { _, _, _ in },
                                note: @escaping @Sendable (String) -> Void = { _ in }) async throws -> RegulatorReport.Result {
        try await RegulatorReport.compute(parameters, policy: policy, pool: pools.auditor, logger: logger, progress: progress, note: note)
    }

    /// A subject's dossier as of `asOf` (nil: the head): its timeline, the state after each event
    /// and each event's inclusion proof, sealed; with the report policy's `dateOfIssue`, noticed when
    /// it falls before the newest event read.
    public func dossier(log: String, subject: String, asOf: Int64? = nil, dateOfIssue: String? = nil) async throws -> SubjectDossierReport.Result {
        try SubjectPseudonym.check(subject)
        return try await SubjectDossierReport.compute(log: log, subject: subject, asOf: asOf, dateOfIssue: dateOfIssue,
                                                      pool: pools.auditor, logger: logger)
    }
}
