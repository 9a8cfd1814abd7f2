import Foundation

/// `wrk` (Debian's package) posting one event per request to `POST /v1/logs/{log}/events`: a load
/// generator written in C that takes far less CPU per request than a Swift client, so that more of
/// the two cores is left to the server and PostgreSQL. Each request carries a fresh event (its id
/// made of the run's nonce, the wrk thread and a counter); a Lua `response` hook counts the
/// answers by status, and `done` prints them with wrk's latency percentiles on one line.
struct WrkLoad: Sendable {
    let port: Int
    let log: String
    let token: String
    /// Set an `Idempotency-Key` on every request (what a retrying mobile client sends).
    let keyed: Bool

    /// What one wrk run measured.
    struct Outcome: Sendable {
        /// Answers 201 (stored), 200 (a replay) and anything else, over the whole run.
        var created = 0, replayed = 0, other = 0
        /// Socket errors and timeouts wrk saw.
        var errors = 0
        /// Latency percentiles in seconds.
        var p50 = 0.0, p99 = 0.0, max = 0.0
        /// The run's length in seconds.
        var seconds = 0.0

        /// Events stored per second.
        var perSecond: Double { seconds > 0 ? Double(created) / seconds : 0 }
    }

    /// Runs wrk with `connections` connections on `threads` threads for `seconds`.
    func run(connections: Int, threads: Int = 2, seconds: Int, nonce: UInt32) throws -> Outcome {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("ingest-\(nonce).lua")
        try Data(Self.script(keyed: keyed).utf8).write(to: script)
        defer { try? FileManager.default.removeItem(at: script) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.executable())
        process.arguments = ["-t", "\(threads)", "-c", "\(connections)", "-d", "\(seconds)s", "--timeout", "30s",
                             "-s", script.path, "http://127.0.0.1:\(port)/v1/logs/\(log)/events", "--", "\(nonce)", token]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0, let line = text.split(separator: "\n").first(where: { $0.hasPrefix("WRK ") }) else {
            throw BenchError("wrk failed (exit \(process.terminationStatus)):\n\(text)")
        }
        var fields: [String: Double] = [:]
        for pair in line.dropFirst(4).split(separator: " ") {
            let parts = pair.split(separator: "=")
            if parts.count == 2, let value = Double(parts[1]) { fields[String(parts[0])] = value }
        }
        guard (fields["duration"] ?? 0) > 0 else { throw BenchError("wrk printed no figures:\n\(text)") }
        func int(_ name: String) -> Int { Int(fields[name] ?? 0) }
        return Outcome(created: int("created"), replayed: int("replayed"), other: int("other"), errors: int("errors"),
                       p50: (fields["p50"] ?? 0) / 1e6, p99: (fields["p99"] ?? 0) / 1e6, max: (fields["max"] ?? 0) / 1e6,
                       seconds: (fields["duration"] ?? 0) / 1e6)
    }

    /// `wrk` on the PATH, or a clear error saying how to get it.
    static func executable() throws -> String {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let path = "\(folder)/wrk"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw BenchError("wrk is not installed: tools/bench-ingest installs it (apt-get install wrk), or pass --generator swift")
    }

    /// The Lua script: one fresh AgeRangeShared per request, answers counted per thread.
    static func script(keyed: Bool) -> String {
        #"""
        -- Written by consent-ledger-bench ingest (WrkLoad.swift): one event per request.
        local threads = {}
        local count = 0
        function setup(thread)
          thread:set("tid", count)
          count = count + 1
          table.insert(threads, thread)
        end
        function init(args)
          nonce = tonumber(args[1])
          token = args[2]
          n, created, replayed, other = 0, 0, 0, 0
        end
        function request()
          n = n + 1
          local id = string.format("%08x-%04x-4000-8000-%012x", nonce, tid, n)
          local subject = string.format("p_%d_%d_%d", nonce, tid, n % 500)
          local body = '{"eventId":"' .. id .. '","stream":"subject-' .. subject .. '","type":"AgeRangeShared","schemaVersion":1,'
            .. '"occurredAt":"2026-11-22T10:15:00Z","subject":"' .. subject .. '","actor":{"kind":"app"},'
            .. '"app":{"bundleId":"com.example.kids","appVersion":"2.3.1","platform":"iOS","osVersion":"26.1"},'
            .. '"jurisdiction":{"code":"US-TX","basis":"asserted"},"payload":{"lowerBound":13,"upperBound":15}}\n'
          local headers = {["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/x-ndjson"}
          \#(keyed ? #"headers["Idempotency-Key"] = id"# : "-- no Idempotency-Key: the request may join group commit")
          return wrk.format("POST", nil, headers, body)
        end
        function response(status, headers, body)
          if status == 201 then created = created + 1
          elseif status == 200 then replayed = replayed + 1
          else other = other + 1 end
        end
        function done(summary, latency, requests)
          local c, r, o = 0, 0, 0
          for _, t in ipairs(threads) do
            c = c + t:get("created"); r = r + t:get("replayed"); o = o + t:get("other")
          end
          local e = summary.errors
          io.write(string.format("WRK created=%d replayed=%d other=%d errors=%d p50=%d p99=%d max=%d duration=%d\n",
            c, r, o, e.connect + e.read + e.write + e.timeout, latency:percentile(50), latency:percentile(99),
            latency.max, summary.duration))
        end
        """#
    }
}
