import AsyncHTTPClient
import Foundation
import LedgerClient
import NIOCore

/// Clients posting one event per request to `POST /v1/logs/{log}/events` through the client
/// library app backends use (`LedgerClient`, without retries: a refusal is counted, not hidden),
/// each on its own keep-alive connection with one request in flight: as fast as they can (throughput), or each at
/// a fixed pace (latency at a given load, measured from when each request was due, so a stall
/// is not hidden by the requests it delayed).
struct HTTPLoad: Sendable {
    let port: Int
    let log: String
    let token: String
    /// Set an `Idempotency-Key` on every request, which takes appends out of group commit.
    let ungrouped: Bool

    /// What one phase measured.
    struct Outcome: Sendable {
        /// Requests answered 201 inside the measured window.
        var acknowledgedInWindow = 0
        /// Every 201, warm-up and drain included (to compare with the events stored).
        var acknowledgedTotal = 0
        /// Answers other than 201, by status.
        var failures: [Int: Int] = [:]
        /// Seconds from due (or sent) to answered, inside the window.
        var latencies: [Double] = []
        /// The window's length.
        var seconds: Double = 0

        var perSecond: Double { seconds > 0 ? Double(acknowledgedInWindow) / seconds : 0 }

        mutating func merge(_ other: Outcome) {
            acknowledgedInWindow += other.acknowledgedInWindow
            acknowledgedTotal += other.acknowledgedTotal
            failures.merge(other.failures, uniquingKeysWith: +)
            latencies += other.latencies
        }
    }

    /// `clients` connections posting as fast as answers come, for `warmup` then `seconds` measured.
    func closedLoop(clients: Int, warmup: Double, seconds: Double) async throws -> Outcome {
        try await run(clients: clients, warmup: warmup, seconds: seconds, interval: nil)
    }

    /// `clients` connections together posting `rate` requests a second, evenly spread.
    func paced(clients: Int, rate: Double, warmup: Double, seconds: Double) async throws -> Outcome {
        try await run(clients: clients, warmup: warmup, seconds: seconds, interval: Double(clients) / rate)
    }

    private func run(clients: Int, warmup: Double, seconds: Double, interval: Double?) async throws -> Outcome {
        let clock = ContinuousClock()
        let start = clock.now
        let windowStart = start + .seconds(warmup), windowEnd = windowStart + .seconds(seconds)
        var total = try await withThrowingTaskGroup(of: Outcome.self) { group in
            for client in 0..<clients {
                group.addTask {
                    try await Self.withClient(port: port, token: token) { http in
                        var outcome = Outcome()
                        var request = 0
                        // Paced clients start spread over one interval, so the load is even.
                        var due = start + .seconds((interval ?? 0) * Double(client) / Double(clients))
                        while true {
                            if interval != nil {
                                if due >= windowEnd { break }
                                if due > clock.now { try await Task.sleep(until: due, clock: clock) }
                            } else if clock.now >= windowEnd {
                                break
                            }
                            let sent = interval == nil ? clock.now : due
                            request += 1
                            let status = try await post(http, id: UUID().uuidString.lowercased(), subject: "p_\(client)_\(request % 500)")
                            let answered = clock.now
                            if status == 201 {
                                outcome.acknowledgedTotal += 1
                                if sent >= windowStart && answered <= windowEnd || interval != nil && sent >= windowStart {
                                    outcome.acknowledgedInWindow += 1
                                    outcome.latencies.append(Self.seconds(answered - sent))
                                }
                            } else {
                                outcome.failures[status, default: 0] += 1
                            }
                            if let interval { due = due + .seconds(interval) }
                        }
                        return outcome
                    }
                }
            }
            var total = Outcome()
            for try await outcome in group { total.merge(outcome) }
            return total
        }
        total.seconds = seconds
        return total
    }

    /// Runs `body` with a client of its own (one connection), shut down afterwards.
    private static func withClient<Value: Sendable>(port: Int, token: String,
                                                    _ body: (LedgerClient) async throws -> Value) async throws -> Value {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 1
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let client = LedgerClient(baseURL: "http://127.0.0.1:\(port)", apiKey: token, retry: .never, timeout: .seconds(60), http: http)
        do {
            let value = try await body(client)
            try await http.shutdown()
            return value
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    /// Posts one event; returns the HTTP status (201 stored, or the refusal's).
    private func post(_ http: LedgerClient, id: String, subject: String) async throws -> Int {
        let body = #"{"eventId":"\#(id)","stream":"subject-\#(subject)","type":"AgeRangeShared","schemaVersion":1,"#
            + #""occurredAt":"2026-11-22T10:15:00Z","subject":"\#(subject)","actor":{"kind":"app"},"#
            + #""app":{"bundleId":"com.example.kids","appVersion":"2.3.1","platform":"iOS","osVersion":"26.1"},"#
            + #""jurisdiction":{"code":"US-TX","basis":"asserted"},"payload":{"lowerBound":13,"upperBound":15}}"#
        do {
            let answer = try await http.append(log: log, ndjson: Array((body + "\n").utf8), idempotencyKey: ungrouped ? id : nil)
            return answer.idempotentReplay ? 200 : 201
        } catch LedgerClientError.problem(let problem) {
            return problem.status
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The value below which `fraction` of `values` fall (nearest rank).
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}
