import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Synchronization

/// The connections that hold a slot of `--max-connections` while waiting for a client that sends
/// nothing useful yet: a new connection before its request head is in, a kept-alive one between
/// requests. When the server is full, the one that has waited longest is closed to make room
/// (decision 0055), so that a flood of half-open connections cannot keep `/health` or any other
/// new request waiting in the listen backlog for a whole `--header-timeout`. Connections reading a
/// body or being answered are never closed for room.
final class WaitingConnections: Sendable {
    private struct Waiting {
        var since: ContinuousClock.Instant
        var channel: any Channel
        /// Bytes of a request arrived since it began to wait: not a silent client.
        var heard = false
    }
    private struct State {
        var waiting: [ObjectIdentifier: Waiting] = [:]
        /// Room was wanted when no connection was waiting: the next to wait is closed.
        var roomWanted = false
    }
    private let state = Mutex(State())
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    /// `channel` waits for its client (a head, or the next request), from now (or from when it
    /// began to wait, if it already was). When room was wanted and none could be made, room is
    /// made a moment later (``settle``), not at once: connections accepted in one burst say that
    /// they wait in any order, and the first to say so may be a client whose request is already on
    /// its way, not yet read; after the moment, the others wait too and its bytes are heard.
    func waits(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let roomWanted = state.withLock { state -> Bool in
            state.waiting[id] = state.waiting[id] ?? Waiting(since: .now, channel: channel)
            defer { state.roomWanted = false }
            return state.roomWanted
        }
        if roomWanted {
            channel.eventLoop.scheduleTask(in: Self.settle) { [self] in makeRoom() }
        }
    }

    /// How long room waits, when it was wanted while no connection waited, for the connections
    /// accepted with the one that first says it waits (a choice of which to close, not a deadline).
    static let settle = TimeAmount.milliseconds(50)

    /// Bytes of a request arrived on `channel` while it waits for its head: it is closed for room
    /// only when every waiting connection has sent something (a request sent just before its
    /// connection was accepted must not be taken for a half-open one while its head is parsed).
    func heard(_ channel: any Channel) {
        state.withLock { state in state.waiting[ObjectIdentifier(channel)]?.heard = true }
    }

    /// `channel` is busy (a body being read, an answer being written) or gone.
    func stops(_ channel: any Channel) {
        _ = state.withLock { $0.waiting.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// Connections waiting now.
    var count: Int { state.withLock { $0.waiting.count } }

    /// Closes the connection that has waited longest without sending anything (or, when every
    /// waiting one has, the one that has waited longest) or, when none waits, the next one to
    /// wait (connections accepted together may not have said yet that they wait).
    func makeRoom() {
        let chosen = state.withLock { state -> (any Channel)? in
            let silent = state.waiting.filter { !$0.value.heard }
            guard let oldest = (silent.isEmpty ? state.waiting : silent).min(by: { $0.value.since < $1.value.since }) else {
                state.roomWanted = true
                return nil
            }
            state.waiting.removeValue(forKey: oldest.key)
            return oldest.value.channel
        }
        guard let chosen else { return }
        logger.debug("closing the connection that waited longest for a request, to make room",
                     metadata: ["peer": "\(chosen.remoteAddress.map { "\($0)" } ?? "?")"])
        chosen.close(promise: nil)
    }
}

/// At most `maxConnections` connections open at once, as Hummingbird's `MaximumAvailableConnections`,
/// except that the server, full and asked to accept, closes the connection that has waited longest
/// for its client (``WaitingConnections``) and accepts again once it has closed; only when every
/// open connection is reading a body or being answered do new ones wait in the listen backlog.
struct ConnectionLimit: AvailableConnectionsDelegate {
    let maxConnections: Int
    let waiting: WaitingConnections
    var open = 0

    mutating func connectionOpened() { open += 1 }

    mutating func connectionClosed() { open -= 1 }

    /// Asked before each accept, and after each close while full.
    func isAcceptingNewConnections() -> Bool {
        guard open >= maxConnections else { return true }
        waiting.makeRoom()
        return false
    }
}
