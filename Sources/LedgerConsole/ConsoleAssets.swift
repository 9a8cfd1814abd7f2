import Crypto
import Foundation

/// The console's stylesheet and script, built into the binary (no CDN, no build step): served at
/// fixed paths with a content hash as their ETag.
public enum ConsoleAssets {
    /// Where the stylesheet is served.
    public static let stylesheetPath = "/console/assets/console.css"
    /// Where the script is served.
    public static let scriptPath = "/console/assets/console.js"

    /// One asset: its bytes, media type and strong ETag.
    public struct Asset: Sendable {
        /// The bytes.
        public let bytes: [UInt8]
        /// `text/css; charset=utf-8` or `text/javascript; charset=utf-8`.
        public let contentType: String
        /// A quoted hash of the bytes.
        public let etag: String

        init(_ text: String, contentType: String) {
            bytes = Array(text.utf8)
            self.contentType = contentType
            etag = "\"" + SHA256.hash(data: bytes).prefix(12).map { String(format: "%02x", $0) }.joined() + "\""
        }
    }

    /// The asset served at `path`, if any.
    public static func asset(at path: String) -> Asset? {
        switch path {
        case stylesheetPath: return stylesheet
        case scriptPath: return script
        default: return nil
        }
    }

    static let stylesheet = Asset(ConsoleStyle.source, contentType: "text/css; charset=utf-8")
    static let script = Asset(ConsoleScript.source, contentType: "text/javascript; charset=utf-8")
}
