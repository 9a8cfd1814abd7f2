import ArgumentParser
import Foundation
import LedgerCore
import LedgerReportHTML

/// The formats every report is written in (`--format`).
typealias ReportFormat = ReportEncoding

extension ReportEncoding: ExpressibleByArgument {}

/// Writing a report: to standard output, or to a file readable by its owner only (``PrivateFile``)
/// with its SHA-256 beside it (`F.sha256`, in `sha256sum` format).
enum ReportOutput {
    /// Writes `bytes`; returns the digest to print: `sealedAs` (a JSON report's own seal) or the
    /// SHA-256 of the bytes.
    static func write(_ bytes: [UInt8], sealedAs seal: String?, to path: String?) throws -> String {
        let digest = seal ?? LedgerHash.hex(LedgerHash.sha256(bytes))
        if let path {
            try PrivateFile.write(bytes, to: path)
            let name = URL(fileURLWithPath: path).lastPathComponent
            try PrivateFile.write(Array("\(LedgerHash.hex(LedgerHash.sha256(bytes)))  \(name)\n".utf8), to: path + ".sha256")
        } else {
            var output = StandardOutput()
            try output.write(bytes)
            try output.flush()
        }
        return digest
    }

    /// Writes a report in `format` and prints one line about it on standard error.
    static func finish(_ format: ReportFormat, json: [UInt8], seal: String, csv: () -> String, policy: ReportPolicy, to path: String?,
                       describing summary: String) throws {
        let digest = try write(try format.bytes(json: json, csv: csv, policy: policy), sealedAs: format == .json ? seal : nil, to: path)
        let what = format == .json ? "sha256 \(digest) (of the report without its sha256 member)"
            : "sha256 \(digest) (of the \(format.rawValue) bytes; the JSON report it shows is sealed \(seal))"
        Console.note("\(summary); \(what)")
    }
}
