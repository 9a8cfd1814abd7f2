import Logging
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request head, request body or next request does not come in time
/// (``RequestTimeouts``). Hummingbird's own `idleTimeout` restarts with every decoded part, so a
/// head sent a byte at a time, or a body sent one small part at a time, never ends under it; this
/// handler gives each phase one deadline instead (decision 0026).
///
/// It sits after the HTTP decoder (it sees request heads, body parts and ends, and the ends of
/// responses); ``RequestBytesWatcher``, in front of the decoder, tells it when the first bytes of
/// a next request arrive, which the decoder keeps to itself until the head is complete.
final class RequestTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// What the connection is waiting for.
    enum Phase: Equatable {
        /// The next request's first byte, on a kept-alive connection.
        case idle
        /// The rest of a request head.
        case head
        /// The rest of a request body.
        case body
        /// Our answer (no deadline: the request is read).
        case answering
    }

    private let timeouts: RequestTimeouts
    private let logger: Logger
    private(set) var phase: Phase = .head
    /// Heads read whose response has not ended.
    private var inProgress = 0
    /// Bytes of a next request arrived while an answer was being written (pipelining).
    private var nextHeadStarted = false
    private var deadline: Scheduled<Void>?

    init(timeouts: RequestTimeouts, logger: Logger) {
        self.timeouts = timeouts
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { enter(.head, context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        timeouts.waiting.stops(context.channel)
    }

    func channelActive(context: ChannelHandlerContext) {
        if deadline == nil { enter(.head, context: context) }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        timeouts.waiting.stops(context.channel)
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is RequestBytesArrived else { return context.fireUserInboundEventTriggered(event) }
        switch phase {
        case .idle:
            enter(.head, context: context)
            timeouts.waiting.heard(context.channel)
        case .head: timeouts.waiting.heard(context.channel)
        case .answering: nextHeadStarted = true
        case .body: break
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            inProgress += 1
            nextHeadStarted = false
            enter(.body, context: context)
        case .body:
            break
        case .end:
            // Answered already (a 413 before the body was read): the connection is idle again.
            enter(inProgress > 0 ? .answering : .idle, context: context)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            inProgress = max(0, inProgress - 1)
            if inProgress == 0, phase == .answering { enter(nextHeadStarted ? .head : .idle, context: context) }
        }
        context.write(data, promise: promise)
    }

    /// Moves to `phase` and arms its deadline (none while answering). A connection waiting for a
    /// head or the next request may be closed to make room when the server is full (``WaitingConnections``).
    private func enter(_ phase: Phase, context: ChannelHandlerContext) {
        self.phase = phase
        deadline?.cancel()
        deadline = nil
        switch phase {
        case .idle, .head: timeouts.waiting.waits(context.channel)
        case .body, .answering: timeouts.waiting.stops(context.channel)
        }
        let limit: Duration
        switch phase {
        case .idle: limit = timeouts.idle
        case .head: limit = timeouts.header
        case .body: limit = timeouts.body
        case .answering: return
        }
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(limit)) { [self] in
            self.deadline = nil
            self.logger.debug("closing connection: \(self.describe(phase)) not received within \(limit)",
                              metadata: ["peer": "\(context.channel.remoteAddress.map { "\($0)" } ?? "?")"])
            context.close(promise: nil)
        }
    }

    private func describe(_ phase: Phase) -> String {
        switch phase {
        case .idle: return "next request"
        case .head: return "request head"
        case .body: return "request body"
        case .answering: return "answer"
        }
    }
}

/// Bytes of a request arrived (fired by ``RequestBytesWatcher`` before the decoder reads them).
struct RequestBytesArrived: Sendable {}

/// Tells ``RequestTimeoutHandler`` that bytes arrived, before the HTTP decoder sees them: a head
/// still incomplete is invisible after the decoder, and the wait for the next request on a
/// kept-alive connection (idle) becomes the wait for its head when its first byte comes.
final class RequestBytesWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireUserInboundEventTriggered(RequestBytesArrived())
        context.fireChannelRead(data)
    }
}
