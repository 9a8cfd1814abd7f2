import Foundation

/// The memory of the PostgreSQL processes that serve one database user's connections (and their
/// parallel workers), read from `/proc` while a measurement runs (Linux; the bench must be allowed
/// to read the server's `/proc/<pid>/status`: root, or the server's own user).
///
/// The backends of a pool are found as children of the postmaster whose process title is
/// `postgres: <user> <database> …`, so no query on the measured connections is needed; parallel
/// workers (`postgres: parallel worker for PID <leader>`) count when their leader is one of them.
/// For each process it keeps the largest `VmHWM` seen (the kernel's own peak of resident memory,
/// exact while the process lives, shared buffers it touched included) and the largest `RssAnon`
/// sampled (its private memory: sorts, hashes, temporary buffers, caches; sampled every
/// `interval`, so a spike shorter than that can be missed).
final class BackendMemory: @unchecked Sendable {
    /// One server process's peaks, in KiB.
    struct Peak: Sendable {
        var pid: Int
        var title: String
        var hwmKiB = 0
        var anonKiB = 0
        var shmemKiB = 0
        /// Bytes it caused to be read from storage (`/proc/<pid>/io` read_bytes: not the page cache's).
        var storageReadBytes: Int64 = 0
    }

    private let postmasterPid: Int
    private let user: String
    private let ignored: Set<Int>
    private let lock = NSLock()
    private var peaks: [Int: Peak] = [:]
    private var samples = 0

    /// Watches the backends of `user` under the postmaster of `dataDirectory`, except those already
    /// running now (a previous pool's, still closing).
    init?(dataDirectory: String, user: String) {
        guard let pid = ServerProcesses.postmasterPid(dataDirectory: dataDirectory),
              FileManager.default.fileExists(atPath: "/proc/\(pid)/status") else { return nil }
        postmasterPid = pid
        self.user = user
        ignored = Set(ServerProcesses.children(of: pid))
    }

    /// Samples until cancelled, every `interval`.
    func run(every interval: Duration) async {
        while !Task.isCancelled {
            sample()
            try? await Task.sleep(for: interval)
        }
    }

    /// Reads every matching process once.
    func sample() {
        var found: [Int: (String, [String: Int])] = [:]
        var workers: [(Int, Int, String, [String: Int])] = []
        for pid in ServerProcesses.children(of: postmasterPid) where !ignored.contains(pid) {
            guard let title = Self.title(of: pid) else { continue }
            if title.hasPrefix("postgres: \(user) ") {
                if let status = Self.status(of: pid) { found[pid] = (title, status) }
            } else if title.hasPrefix("postgres: parallel worker for PID "),
                      let leader = Int(title.dropFirst("postgres: parallel worker for PID ".count).prefix { $0.isNumber }),
                      let status = Self.status(of: pid) {
                workers.append((pid, leader, title, status))
            }
        }
        lock.lock()
        defer { lock.unlock() }
        samples += 1
        for (pid, leader, title, status) in workers where found[leader] != nil || peaks[leader] != nil {
            found[pid] = (title, status)
        }
        for (pid, (title, status)) in found {
            var peak = peaks[pid] ?? Peak(pid: pid, title: title)
            peak.hwmKiB = max(peak.hwmKiB, status["VmHWM"] ?? 0)
            peak.anonKiB = max(peak.anonKiB, status["RssAnon"] ?? 0)
            peak.shmemKiB = max(peak.shmemKiB, status["RssShmem"] ?? 0)
            peak.storageReadBytes = max(peak.storageReadBytes, Self.storageReadBytes(of: pid) ?? 0)
            if title.contains("parallel worker") { peak.title = title }
            peaks[pid] = peak
        }
    }

    /// What was seen, by pid; and how many samples were taken.
    var result: (peaks: [Peak], samples: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (peaks.values.sorted { $0.pid < $1.pid }, samples)
    }

    /// Whether any process of `user` (not ignored) is still there.
    var anyAlive: Bool {
        ServerProcesses.children(of: postmasterPid).contains { pid in
            !ignored.contains(pid) && (Self.title(of: pid)?.hasPrefix("postgres: \(user) ") ?? false)
        }
    }

    /// The process title (`/proc/<pid>/cmdline`, which PostgreSQL overwrites).
    static func title(of pid: Int) -> String? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return nil }
        return String(decoding: data.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
            .trimmingCharacters(in: .whitespaces)
    }

    /// `read_bytes` of `/proc/<pid>/io`: what the process made the kernel read from storage.
    static func storageReadBytes(of pid: Int) -> Int64? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("read_bytes:") {
            return Int64(line.dropFirst("read_bytes:".count).filter(\.isNumber))
        }
        return nil
    }

    /// The `Vm*` and `Rss*` lines of `/proc/<pid>/status`, in KiB.
    static func status(of pid: Int) -> [String: Int]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        var values: [String: Int] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("Vm") || line.hasPrefix("Rss") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            values[String(line[..<colon])] = Int(line[line.index(after: colon)...].filter(\.isNumber))
        }
        return values
    }
}

extension ProcessMemory {
    /// Resets this process's peak resident set size (`VmHWM`) to its current size (Linux
    /// `/proc/self/clear_refs`, value 5), so that the next reading is the peak of what follows;
    /// false where that is not possible.
    static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data("5".utf8))
            return true
        } catch {
            return false
        }
    }
}
