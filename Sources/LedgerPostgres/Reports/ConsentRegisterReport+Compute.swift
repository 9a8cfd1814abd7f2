import Foundation
import LedgerCore
import LedgerReportModel
import Logging
import PostgresNIO

/// Computing the consent register (docs/design/reports.md, "who approved what and when"): one row per PermissionKit
/// question and per age-rating exception, as of a log position, from the `consent_register`
/// projection as of that position (``ReportSource``: its live tables when they stand there, else
/// its own statements folded to it), so the report is the same whenever and however it is run.
/// Its SQL is projections/reports/consent-register/rows.sql; each row it makes is decoded into a
/// ``ConsentRegisterRow``, and the whole report is a ``ConsentRegisterDocument`` (decision 0073).
/// The namespace, its parameters, result and CSV are LedgerReportModel's; computing it is here.
extension ConsentRegisterReport {
    /// Computes the report; `progress` hears how far a fold to the position has come (positions
    /// folded, positions to fold), `note` how the projection is read (``ReportSource``).
    public static func compute(_ parameters: Parameters, pool: LedgerPool,
                               logger: Logger = Logger(label: "consent-ledger.reports"),
                               progress: @escaping @Sendable (Int64, Int64) -> Void = { _, _ in },
                               note: @escaping @Sendable (String) -> Void = { _ in }) async throws -> Result {
        if let from = parameters.from, let to = parameters.to, from >= to {
            throw LedgerError(.invalidRequest, "the period is empty: from \(Self.timestamp(from)) is not before to \(Self.timestamp(to))",
                              field: "from", hint: "Give from the first day of the period and to the day after its last, or leave either out.")
        }
        let provenance = try await ReportProvenance.resolve(log: parameters.log, position: parameters.asOf, pool: pool, logger: logger)
        let source = ReportSource(pool: pool, logger: logger)
        let (rows, span) = try await source.with(log: parameters.log, position: provenance.position, projections: .consentRegister,
                                                  note: note, progress: progress) { connection in
            var binds = PostgresBindings(capacity: 4)
            binds.append(parameters.log)
            binds.append(parameters.subject)
            binds.append(parameters.from)
            binds.append(parameters.to)
            var texts: [String] = []
            for try await text in try await connection.watchedQuery(
                PostgresQuery(unsafeSQL: ReportSQL.consentRegisterRows, binds: binds), logger: logger).decode(String.self) {
                texts.append(text)
            }
            var spanBinds = PostgresBindings(capacity: 3)
            spanBinds.append(parameters.log)
            spanBinds.append(parameters.subject)
            spanBinds.append(provenance.position)
            var span: (first: Date?, last: Date?, newest: Date?) = (nil, nil, nil)
            for try await row in try await connection.watchedQuery(
                PostgresQuery(unsafeSQL: ReportSQL.consentRegisterSpan, binds: spanBinds), logger: logger).decode((Date?, Date?, Date?).self) {
                span = row
            }
            var rows = try texts.map { text in
                try ReportDecoding.decode(ConsentRegisterRow.self, from: try JSONParser.parse(text), reportName: "consent register's row")
            }
            let enforcement = try await WithdrawalEnforcement.read(
                log: parameters.log, asOf: provenance.position, positions: Array(Set(rows.compactMap(\.rescindedPosition).map(Int64.init))).sorted(),
                on: connection, logger: logger)
            for index in rows.indices {
                guard let rescinded = rows[index].rescindedPosition, let enforced = enforcement[Int64(rescinded)] else { continue }
                rows[index].enforced(by: enforced)
            }
            return (rows, span)
        }
        let ledger = try provenance.ledger
        var document = ConsentRegisterDocument(
            parameters: .init(log: parameters.log, asOf: provenance.position, from: parameters.from.map(Self.timestamp),
                              to: parameters.to.map(Self.timestamp), subject: parameters.subject, dateOfIssue: parameters.dateOfIssue),
            ledger: ledger, software: LedgerSoftware.name, rows: rows,
            notices: notices(parameters, position: provenance.position, empty: rows.isEmpty, span: span))
        let (bytes, digest) = try ReportSeal.seal(encodable: document)
        document.sha256 = digest
        return Result(json: bytes, sha256: digest, document: document, provenance: ledger)
    }

    /// What a reader must know before trusting a clean-looking register (issue 39; ``ReportNotice``):
    /// a period with no item (`no-items-in-period`, saying when the register's items were asked), a
    /// period that had not ended when the newest event read was recorded (`period-not-over`), a date
    /// of issue before the period's end or that event (`issued-before-…`).
    static func notices(_ parameters: Parameters, position: Int64, empty: Bool,
                        span: (first: Date?, last: Date?, newest: Date?)) -> [ReportNotice] {
        var notices: [ReportNotice] = []
        if empty, parameters.from != nil || parameters.to != nil {
            let whose = parameters.subject.map { " of subject \($0)" } ?? ""
            let held = span.first.flatMap { first in span.last.map { "its items\(whose) were asked from \(timestamp(first)) to \(timestamp($0))" } }
                ?? "it held no item\(whose)"
            notices.append(ReportNotice("no-items-in-period",
                                        "No question or exception\(whose) was asked in this period: as of position \(position), \(held)."))
        }
        if let to = parameters.to, let newest = span.newest, newest < to {
            notices.append(.periodNotOver(newest: timestamp(newest), position: position, report: "register", later: "items"))
        }
        notices += ReportNotice.issuance(dateOfIssue: parameters.dateOfIssue, periodEnd: parameters.to.map(timestamp),
                                         newest: span.newest.map(timestamp), report: "register")
        return notices
    }

    static func timestamp(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}

extension ConsentRegisterRow {
    /// Fills in how the row's rescission was enforced: when the app was told, when it closed the
    /// feature, each event added to the evidence.
    mutating func enforced(by enforcement: WithdrawalEnforcement) {
        for (step, member) in [(enforcement.told, \ConsentRegisterRow.toldAt), (enforcement.closed, \ConsentRegisterRow.closedAt)] {
            guard let step else { continue }
            self[keyPath: member] = step.at
            evidencePositions.append(Int(step.position))
            evidenceEventIds.append(step.eventId)
        }
    }
}
