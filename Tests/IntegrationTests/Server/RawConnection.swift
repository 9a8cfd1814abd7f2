import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to a server on loopback, for requests no HTTP client would send: half a
/// head, a body shorter than its `Content-Length`, bytes trickled one at a time.
final class RawConnection: @unchecked Sendable {
    private let socket: Int32

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    /// Connects to 127.0.0.1:`port`; `receiveBuffer` (bytes) shrinks the socket's receive buffer
    /// first, so a client that stops reading holds the server back after little data.
    init(port: Int, receiveBuffer: Int32? = nil) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failed(description: "socket: \(String(cString: strerror(errno)))") }
        if var size = receiveBuffer {
            _ = setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(socket)
            throw Failed(description: "connect to 127.0.0.1:\(port): \(reason)")
        }
    }

    deinit { Glibc.close(socket) }

    /// Sends `text`; false when the server has closed the connection already.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBufferPointer { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return false }
            sent += count
        }
        return true
    }

    /// What the server sent until it closed the connection, and whether it closed it within
    /// `limit` (a bound for a test that must not hang, not a speed check).
    func readUntilClosed(within limit: Duration) async -> (closed: Bool, received: String) {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: self.blockingReadUntilClosed(within: limit)) }
        }
    }

    /// Sends `text` a byte at a time, `pause` apart, until it is all sent or the server closes.
    /// Returns whether the server closed the connection before `text` was all sent.
    func trickle(_ text: String, pause: Duration) async -> Bool {
        for character in text {
            if !send(String(character)) { return true }
            try? await Task.sleep(for: pause)
        }
        return false
    }

    /// The response head (status line and headers) once it has arrived, then stops reading: the
    /// body stays unread in the socket, a client that has stopped reading. Empty when no head came
    /// within `limit` (a bound for a test that must not hang, not a speed check).
    func readHead(within limit: Duration) async -> String {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: self.blockingReadHead(within: limit)) }
        }
    }

    private func blockingReadHead(within limit: Duration) -> String {
        let deadline = ContinuousClock.now + limit
        var received: [UInt8] = []
        var byte: UInt8 = 0
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) > 0 else { continue }
            // A byte at a time, so nothing of the body is taken off the socket.
            let count = recv(socket, &byte, 1, 0)
            if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) { break }
            if count == 1 {
                received.append(byte)
                if received.count >= 4, received.suffix(4) == [13, 10, 13, 10] { return String(decoding: received, as: UTF8.self) }
            }
        }
        return received.count >= 4 && received.suffix(4) == [13, 10, 13, 10] ? String(decoding: received, as: UTF8.self) : ""
    }

    /// Reads on until what has arrived so far (`received` is kept across calls: a stream read piece
    /// by piece) satisfies `enough`, the server closes, or `limit` passes (a bound for a test that
    /// must not hang, not a speed check). Returns everything read on this connection so far.
    func readUntil(within limit: Duration, _ enough: @escaping @Sendable (String) -> Bool) async -> String {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: self.blockingReadUntil(within: limit, enough)) }
        }
    }

    private let kept = NSLock()
    private var keptBytes: [UInt8] = []

    private func blockingReadUntil(within limit: Duration, _ enough: (String) -> Bool) -> String {
        kept.lock()
        defer { kept.unlock() }
        let deadline = ContinuousClock.now + limit
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !enough(String(decoding: keptBytes, as: UTF8.self)), ContinuousClock.now < deadline {
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) { break }
            if count > 0 { keptBytes += buffer[..<count] }
        }
        return String(decoding: keptBytes, as: UTF8.self)
    }

    private func blockingReadUntilClosed(within limit: Duration) -> (closed: Bool, received: String) {
        let deadline = ContinuousClock.now + limit
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) {
                return (true, String(decoding: received, as: UTF8.self))
            }
            if count > 0 { received += buffer[..<count] }
        }
        return (false, String(decoding: received, as: UTF8.self))
    }
}
