import Foundation

/// The PostgreSQL server's processes, as Linux `/proc` shows them: the postmaster and its children
/// (the backends, and their parallel workers).
enum ServerProcesses {
    /// The postmaster's pid, from the data directory's `postmaster.pid`.
    static func postmasterPid(dataDirectory: String) -> Int? {
        guard let text = try? String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8),
              let first = text.split(separator: "\n").first else { return nil }
        return Int(first.trimmingCharacters(in: .whitespaces))
    }

    /// The child processes of `pid` (`/proc/<pid>/task/*/children`, else a scan of `/proc`).
    static func children(of pid: Int) -> [Int] {
        if let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") {
            var found: [Int] = []
            var readable = false
            for task in tasks {
                guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8) else { continue }
                readable = true
                found += text.split(separator: " ").compactMap { Int($0) }
            }
            if readable { return found }
        }
        let all = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return all.compactMap(Int.init).filter { child in
            guard let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int(fields[1]) == pid
        }
    }
}
