import Crypto
import Foundation
import Hummingbird
import HTTPTypes
import LedgerCore
import Logging
import Synchronization

/// A real webhook receiver for the tests (issue 42): an HTTP server on a port of its own that checks
/// each delivery's signature with the Swift of docs/subscriptions.md (not the ledger's code), and
/// answers as told: 200, a status such as 500, or slowly. It can be stopped and started again on
/// the same port.
final class WebhookReceiver: Sendable {
    /// How it answers.
    enum Mode: Sendable {
        case accept
        case fail(Int)
        case slow(Duration)
    }

    /// One delivery it answered with 200.
    struct Received: Sendable {
        let id: String
        let body: WebhookItem.Body
        let raw: [UInt8]
        let signature: String
    }

    private struct State {
        var mode = Mode.accept
        var secret = ""
        var accepted: [Received] = []
        var badSignatures = 0
        var requests = 0
        var inFlight = 0
        var mostInFlight = 0
        var watchers: [UUID: (Int, CheckedContinuation<Void, Never>)] = [:]
    }

    private let state = Mutex(State())
    private let server = Mutex<Task<Void, any Error>?>(nil)
    /// The port it listens on (0 until started).
    let port = Atomic<Int>(0)

    /// `http://127.0.0.1:<port>/hook`.
    var url: String { "http://127.0.0.1:\(port.load(ordering: .relaxed))/hook" }

    /// The secret it checks signatures with.
    func expect(secret: String) { state.withLock { $0.secret = secret } }

    /// The secret it checks with.
    var secret: String { state.withLock { $0.secret } }

    /// How it answers from now on.
    func answer(_ mode: Mode) { state.withLock { $0.mode = mode } }

    /// What it has answered 200, in the order answered.
    var accepted: [Received] { state.withLock { $0.accepted } }
    /// Requests whose signature did not verify (answered 400).
    var badSignatures: Int { state.withLock { $0.badSignatures } }
    /// Every request it had.
    var requests: Int { state.withLock { $0.requests } }
    /// The most requests it was answering at once.
    var mostInFlight: Int { state.withLock { $0.mostInFlight } }

    /// Starts listening (on `port`, or a free one the first time); returns once it listens.
    func start() async throws {
        let (bound, tell) = AsyncStream.makeStream(of: Int.self)
        let router = Router()
        router.post("hook") { request, _ -> Response in
            let raw = Array(buffer: try await request.body.collect(upTo: 1 << 20))
            return await self.receive(raw, signature: request.headers[HTTPField.Name("ConsentLedger-Signature")!])
        }
        var logger = Logger(label: "webhook-receiver")
        logger.logLevel = .critical  // Its stop (a cancelled task) is logged as errors by the server.
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port.load(ordering: .relaxed))),
                              onServerRunning: { channel in tell.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        let task = Task { try await app.runService(gracefulShutdownSignals: []) }
        server.withLock { $0 = task }
        var iterator = bound.makeAsyncIterator()
        guard let listening = await iterator.next() else { return }
        port.store(listening, ordering: .relaxed)
    }

    /// Stops listening: connections are refused until ``start()``.
    func stop() async {
        let task = server.withLock { server in
            defer { server = nil }
            return server
        }
        task?.cancel()
        _ = await task?.result
    }

    /// Returns once it has answered 200 at least `count` times, or the task is cancelled.
    func waitForAccepted(_ count: Int) async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state in
                    if state.accepted.count >= count || Task.isCancelled { return true }
                    state.watchers[id] = (count, continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.watchers.removeValue(forKey: id) }?.1.resume()
        }
    }

    private func receive(_ raw: [UInt8], signature: String?) async -> Response {
        let (mode, secret) = state.withLock { state in
            state.requests += 1
            state.inFlight += 1
            state.mostInFlight = max(state.mostInFlight, state.inFlight)
            return (state.mode, state.secret)
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        guard let signature, verifyConsentLedgerSignature(header: signature, body: raw, secret: secret),
              let body = try? JSONDecoder().decode(WebhookItem.Body.self, from: Data(raw)) else {
            state.withLock { $0.badSignatures += 1 }
            return Response(status: .badRequest)
        }
        switch mode {
        case .fail(let status): return Response(status: .init(code: status))
        case .slow(let pause): try? await Task.sleep(for: pause)
        case .accept: break
        }
        let woken = state.withLock { state in
            state.accepted.append(Received(id: body.id, body: body, raw: raw, signature: signature))
            let count = state.accepted.count
            let ready = state.watchers.filter { $0.value.0 <= count }
            for key in ready.keys { state.watchers.removeValue(forKey: key) }
            return ready.values.map(\.1)
        }
        for continuation in woken { continuation.resume() }
        return Response(status: .ok)
    }
}

// docs/subscriptions.md's Swift check, as it is written there (WebhookDocsTests compares them).
func verifyConsentLedgerSignature(header: String, body: [UInt8], secret: String, now: Date = Date()) -> Bool {
    let parts = Dictionary(header.split(separator: ",").compactMap { part -> (String, String)? in
        let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
        return pair.count == 2 ? (pair[0], pair[1]) : nil
    }, uniquingKeysWith: { first, _ in first })
    guard let t = parts["t"], let timestamp = Double(t), abs(now.timeIntervalSince1970 - timestamp) <= 300,
          let given = parts["v1"] else { return false }
    let mac = HMAC<SHA256>.authenticationCode(for: Array("\(t).".utf8) + body, using: SymmetricKey(data: Array(secret.utf8)))
    let expected = mac.map { String(format: "%02x", $0) }.joined()
    return given.utf8.count == expected.utf8.count && zip(given.utf8, expected.utf8).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
}
