import Foundation
import LedgerCore

/// Writing a report: to standard output, or to a file with its SHA-256 beside it (`F.sha256`, in
/// `sha256sum` format).
enum ReportOutput {
    /// Writes `bytes`; returns the digest to print: `sealedAs` (a JSON report's own seal) or the
    /// SHA-256 of the bytes.
    static func write(_ bytes: [UInt8], sealedAs seal: String?, to path: String?) throws -> String {
        let digest = seal ?? LedgerHash.hex(LedgerHash.sha256(bytes))
        if let path {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let name = URL(fileURLWithPath: path).lastPathComponent
            try Data("\(LedgerHash.hex(LedgerHash.sha256(bytes)))  \(name)\n".utf8).write(to: URL(fileURLWithPath: path + ".sha256"))
        } else {
            var output = StandardOutput()
            output.write(bytes)
            output.flush()
        }
        return digest
    }
}
