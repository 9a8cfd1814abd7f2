import HTTPTypes
import Hummingbird
import LedgerApplication
import LedgerCore

extension LedgerRequestContext {
    /// Who is reading, for the record of reads (``ReadAuditStore``): the request's door, its key,
    /// and the address it came from (a trusted proxy's `X-Forwarded-For`: ``ClientAddressMiddleware``).
    func readAccess(_ request: Request) -> ReadAccess {
        ReadAccess(channel: channel, reader: key?.keyID ?? "anonymous",
                   client: remoteAddress ?? "")
    }

    /// Records that this request reads `subject`'s data (`what`, as of `detail`), before the
    /// route answers: a read that cannot be recorded is not answered.
    func recordRead(_ request: Request, operations: any LedgerOperations, log: String, what: String, subject: String,
                    detail: String) async throws {
        try await operations.recordRead(log: log, access: readAccess(request), what: what, subject: subject, detail: detail)
    }
}
