import Foundation
import LedgerClient

/// `consent-ledger serve` as a child process on a free port, the way it is deployed: started on
/// the benchmark's cluster, waited for until `/ready` answers, stopped with SIGTERM.
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    let port: Int
    let logPath: String

    /// Starts `binary serve --data-dir DIR --port P` with `extra` arguments; the log goes to `logPath`.
    init(binary: String, dataDirectory: String, extra: [String], logPath: String) throws {
        port = try Self.freePort()
        self.logPath = logPath
        guard FileManager.default.createFile(atPath: logPath, contents: nil) else {
            throw BenchError("cannot create the server's log file \(logPath)")
        }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve", "--data-dir", dataDirectory, "--host", "127.0.0.1", "--port", String(port)] + extra
        process.standardOutput = log
        process.standardError = log
        try process.run()
    }

    /// Waits until `GET /ready` is 200 (60 s at most).
    func waitUntilReady() async throws {
        for _ in 0..<600 {
            guard process.isRunning else { throw BenchError("the server exited before it was ready; see \(logPath)") }
            // /ready needs no key; the client's own pause between tries is this loop's.
            let client = LedgerClient(baseURL: "http://127.0.0.1:\(port)", apiKey: "", retry: .never, timeout: .seconds(2))
            if (try? await client.ready()) != nil { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw BenchError("the server did not answer /ready within 60 s; see \(logPath)")
    }

    /// SIGTERM, then waits for the exit (SIGKILL after 20 s); returns the exit status.
    @discardableResult
    func stop() -> Int32 {
        guard process.isRunning else { return process.terminationStatus }
        process.terminate()
        for _ in 0..<200 where process.isRunning { usleep(100_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    static func freePort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw BenchError("cannot open a socket to find a free port") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw BenchError("cannot bind a socket to find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
