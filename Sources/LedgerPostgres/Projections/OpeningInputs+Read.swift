import LedgerCore
import Logging
import PostgresNIO

extension OpeningInputs {

    /// The row for the opening at `position` (nil when the rules judged none there: no subject, or
    /// not an opening), read from the anomalies tables on `connection`'s search path.
    static func read(log: String, position: Int64, on connection: PostgresConnection, logger: Logger) async throws -> OpeningInputs? {
        let rows = try await connection.watchedQuery("""
            SELECT age_position, category, coalesce(verified_adult, false), coalesce(controls_require_approval, false),
                   requirement_position, consent_required, notification_required, change_id, change_position,
                   word, word_position, withdrawal_position, acknowledgment_position, needs_review
              FROM openings WHERE log_id = \(log) AND position = \(position)
            """, logger: logger)
        for try await (age, category, adult, controls, requirement, consent, notification, change, changeAt, word, wordAt, withdrawal, acknowledged, review)
            in rows.decode((Int64?, String?, Bool, Bool, Int64?, Bool, Bool, String?, Int64?, String?, Int64?, Int64?, Int64?, String?).self) {
            return OpeningInputs(agePosition: age, category: category, verifiedAdult: adult, controlsRequireApproval: controls,
                                 requirementPosition: requirement, consentRequired: consent, notificationRequired: notification,
                                 changeId: change, changePosition: changeAt, word: word, wordPosition: wordAt, withdrawalPosition: withdrawal,
                                 acknowledgmentPosition: acknowledged, needsReview: review)
        }
        return nil
    }
}
