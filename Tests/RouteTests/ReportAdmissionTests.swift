import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LedgerCore
import LedgerPostgres
import LedgerServer
import Synchronization
import Testing

/// One log's reports are computed one at a time (issue 36, finding 13): four reports at once from one
/// key, or one each from ten keys of the same log, filled the machine's cores and slowed every
/// other tenant's reads 24 to 73 times (measured against a live server: docs/decisions/0055).
@Suite("HTTP route layer: reports are bounded per log")
struct ReportAdmissionTests {
    /// Lets a test hold a report under way and let it go.
    final class Hold: Sendable {
        let entered: AsyncStream<String>
        private let enter: AsyncStream<String>.Continuation
        private let opened = Mutex<[CheckedContinuation<Void, Never>]>([])
        private let isOpen = Mutex(false)

        init() { (entered, enter) = AsyncStream.makeStream() }

        func wait(_ log: String) async {
            enter.yield(log)
            await withCheckedContinuation { continuation in
                let now = isOpen.withLock { $0 }
                if now { continuation.resume() } else { opened.withLock { $0.append(continuation) } }
            }
        }

        func open() {
            isOpen.withLock { $0 = true }
            for continuation in opened.withLock({ list in defer { list.removeAll() }; return list }) { continuation.resume() }
        }
    }

    @Test("while a report of a log is under way, another of the same log (another key too) is 429 with Retry-After; another log's is not")
    func onePerLog() async throws {
        let hold = Hold()
        var script = ScriptedLedger.Script()
        script.keys = TestKeys.all
        script.keys["cl_beta_secret"] = APIKey(keyID: "beta", log: "beta", role: .auditor, createdAt: "2026-11-25T00:00:00Z")
        script.reportHold = { log in if log == "acme" { await hold.wait(log) } }
        let ledger = ScriptedLedger(script)
        try await Application(router: LedgerAPI(operations: ledger).router()).test(.router) { client in
            let first = Task { try await client.execute(uri: "/v1/logs/acme/reports/consent-register", method: .get,
                                                        headers: RouteLayerTests.headers(TestKeys.auditor)) }
            var entered = hold.entered.makeAsyncIterator()
            #expect(await entered.next() == "acme")
            let second = try await client.execute(uri: "/v1/logs/acme/reports/consent-register", method: .get,
                                                  headers: RouteLayerTests.headers(TestKeys.admin))
            #expect(second.status == .tooManyRequests, "\(second.status)")
            #expect(second.headers[.retryAfter] == "2")
            #expect(String(buffer: second.body).contains("log acme has 1 report being computed"), "\(String(buffer: second.body))")
            let other = try await client.execute(uri: "/v1/logs/beta/reports/consent-register", method: .get,
                                                 headers: RouteLayerTests.headers("cl_beta_secret"))
            #expect(other.status != .tooManyRequests, "another log's report is not held back")
            hold.open()
            #expect(try await first.value.status != .tooManyRequests)
            let after = try await client.execute(uri: "/v1/logs/acme/reports/consent-register", method: .get,
                                                 headers: RouteLayerTests.headers(TestKeys.admin))
            #expect(after.status != .tooManyRequests, "the slot came back when the first report ended")
        }
        let reports = ledger.calls.filter { $0 == .report("consent-register") }.count
        #expect(reports == 3, "the refused report did no work: \(ledger.calls)")
    }
}
