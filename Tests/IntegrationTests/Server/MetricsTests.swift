import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LedgerApplication
import LedgerCore
import LedgerPostgres
import LedgerServer
import NIOCore
import Testing

/// `GET /metrics` (the only test that bootstraps the process-wide metrics backend).
@Suite("HTTP API metrics")
struct MetricsTests {
    @Test("/metrics shows request counts and latencies, and the events appended per log")
    func prometheusText() async throws {
        let fixture = try await ServerFixture.make()
        // Its own log, so that what other tests append in this process does not count here.
        let token = try await fixture.db.as(.administrator) { client in
            try await APIKeyStore(pool: client).create(log: "metricslog", role: .ingest).1
        }
        let metrics = ServerMetrics.bootstrap()
        let text = try await fixture.db.as(.application) { app in
            try await fixture.db.as(.auditor) { auditor in
                try await fixture.db.as(.administrator) { admin in
                    let api = LedgerAPI(ledger: Ledger(pools: RolePools(application: app, auditor: auditor, administrator: admin)), metrics: metrics)
                    return try await Application(router: api.router()).test(.router) { client in
                        let appended = try await client.execute(uri: "/v1/logs/metricslog/events", method: .post,
                                                                 headers: fixture.headers(token), body: ndjson(3))
                        #expect(appended.status == .created)
                        let page = try await client.execute(uri: "/metrics", method: .get)
                        #expect(page.status == .ok && page.headers[.contentType]?.hasPrefix("text/plain") == true)
                        return page.text
                    }
                }
            }
        }
        #expect(text.contains(#"consent_ledger_events_appended_total{log="metricslog"} 3"#), "\(text)")
        #expect(text.contains("consent_ledger_append_batch_events_count"), "\(text)")
        #expect(text.contains("hb_requests"), "\(text)")
        #expect(text.contains(#"http_server_request_duration_count{http_route="/v1/logs/{log}/events",http_request_method="POST",http_response_status_code="201"}"#), "\(text)")
    }
}
