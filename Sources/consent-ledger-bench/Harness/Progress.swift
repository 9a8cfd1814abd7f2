import Foundation

/// Progress notes on standard error, so that standard output holds only the report.
enum Progress {
    /// Writes one line to standard error.
    static func note(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
