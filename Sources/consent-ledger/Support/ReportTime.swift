import ArgumentParser
import Foundation
import LedgerCore
import LedgerPostgres

/// Reading `--from` and `--to`: a day (`2026-07-01`, midnight UTC) or an RFC 3339 time.
enum ReportTime {
    /// The instant `text` names, or a validation error that shows both accepted forms.
    static func parse(_ text: String, option: String) throws -> Date {
        guard let date = AsOf.dayOrTime(text) else {
            throw ValidationError("--\(option) \(text) is neither a day such as 2026-07-01 (midnight UTC) nor an RFC 3339 time such as 2026-07-01T00:00:00Z")
        }
        return date
    }
}
