import Hummingbird
import Metrics
import NIOCore
import Prometheus

/// The server's metrics in Prometheus text format (`GET /metrics`): Hummingbird's request counts
/// and latencies (`hb_requests`, `http_server_request_duration`, `http_server_active_requests`, `hb_request_errors`), the sizes of
/// append batches (`consent_ledger_append_batch_events`), events appended per log
/// (`consent_ledger_events_appended_total`), each projection's lag behind each log's head
/// (`consent_ledger_projection_lag_events`) and the position it stalled at on a log, 0 if none
/// (`consent_ledger_projection_stalled_position`).
///
/// swift-metrics has one process-wide backend, so ``bootstrap()`` is called once, by `serve`;
/// without it (tests) the metrics are recorded nowhere and `/metrics` is not served.
public final class ServerMetrics: Sendable {
    /// The registry `/metrics` emits.
    public let registry: PrometheusCollectorRegistry

    private init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
    }

    /// Makes Prometheus the process's metrics backend. Call once, before serving.
    public static func bootstrap() -> ServerMetrics {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultValueHistogramBuckets = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000]
        MetricsSystem.bootstrap(factory)
        return ServerMetrics(registry: registry)
    }

    /// `GET /metrics`.
    var collection: RouteCollection<LedgerRequestContext> {
        let routes = RouteCollection(context: LedgerRequestContext.self)
        routes.get("metrics") { _, _ -> Response in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: ResponseBody(byteBuffer: ByteBuffer(bytes: self.registry.emitToBuffer())))
        }
        return routes
    }

    /// Records one append of `events` events to `log`.
    static func appended(_ events: Int, log: String) {
        Recorder(label: "consent_ledger_append_batch_events").record(events)
        Counter(label: "consent_ledger_events_appended_total", dimensions: [("log", log)]).increment(by: events)
    }
}
