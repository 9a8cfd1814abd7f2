import Foundation
import LedgerCore
import LedgerReportHTML

/// The log at a glance: head, events per day, the newest checkpoint and its age, each projection's
/// lag, the findings recorded, and the form to find a subject.
public enum OverviewPage {
    /// The page of `overview` for the signed-in `key`.
    public static func render(_ overview: LogOverview, key: APIKey) -> String {
        let log = overview.head.log
        let checkpoint: HTML
        if let stored = overview.checkpoint {
            let age = overview.checkpointAge.map(Self.duration) ?? "an unknown time"
            let cosigned = stored.cosignatures.count
            checkpoint = """
            <p>Signed at tree size <strong>\(Int(stored.treeSize))</strong>, \(age) ago (\(stored.signedAt)),
            by \(stored.keyName) (key \(NoteKeyID.hex(stored.keyID)))\(cosigned == 0 ? "; no witness has cosigned it" : HTML(text: "; cosigned by \(cosigned) witness\(cosigned == 1 ? "" : "es")")).
            \(overview.head.position > Int64(stored.treeSize) ? HTML(text: "\(overview.head.position - Int64(stored.treeSize)) events are newer than it.") : "It covers the whole log.")</p>
            <p>Log public key: <code id="log-public-key">\(stored.verifierKey)</code>. Compare it with the key you were given:
            proofs checked in this browser are checked against it.</p>
            """
        } else {
            checkpoint = "<p>No checkpoint has been signed yet: nothing can be proved. The operator signs one with <code>consent-ledger checkpoint --log \(log)</code> or <code>serve --checkpoint-every</code>.</p>"
        }
        let charts = Self.clocks(overview)
        let projections = overview.projections.map { projection -> HTML in
            let state: HTML = projection.position == nil ? "not built with this software's definition"
                : projection.stalledAt.map { "<strong>stalled</strong> at position \(Int($0))" } ?? (projection.lag == 0 ? "up to date" : "catching up")
            return "<tr><th scope=\"row\" title=\"\(projection.name)\">\(projection.name.replacingOccurrences(of: "_", with: " "))</th><td class=\"num\">\(Int(projection.position ?? 0))</td><td class=\"num\">\(Int(projection.lag))</td><td>\(state)</td></tr>"
        }
        return ConsolePage.document(title: "Log \(log)", key: key, log: log, body: """
            <section aria-labelledby="head-title">
            <h2 id="head-title">The log</h2>
            <p>Head position <strong id="head-position">\(Int(overview.head.position))</strong> (every event ever recorded, none removed).</p>
            \(charts)
            </section>
            <section aria-labelledby="checkpoint-title">
            <h2 id="checkpoint-title">Newest signed checkpoint</h2>
            \(checkpoint)
            </section>
            <section aria-labelledby="verify-title">
            <h2 id="verify-title">Verification</h2>
            \(Self.lastVerification(overview.lastVerification))
            <form method="post" action="/console/logs/\(log)/verify" id="verify-form">
            <button type="submit">Verify now, since the newest checkpoint</button>
            <progress id="verify-progress" max="1" value="0" hidden>not started</progress>
            <output id="verify-result" aria-live="polite"></output>
            </form>
            <p class="help">Re-hashes every event after the newest signed checkpoint and checks that checkpoint (its signature,
            its root against the stored tree, its chain hash); <code>consent-ledger verify --log \(log)</code> checks everything.</p>
            </section>
            <section aria-labelledby="find-title" id="find-subject">
            <h2 id="find-title">Find a subject</h2>
            <form method="get" action="/console/logs/\(log)/subjects" class="find">
            <label for="pseudonym">Pseudonym, or its first characters</label>
            <input id="pseudonym" name="pseudonym" required spellcheck="false" autocomplete="off" aria-describedby="pseudonym-help">
            <button type="submit">Find the subject</button>
            <p id="pseudonym-help" class="help">One subject that starts so opens at once; several are listed to choose from.</p>
            </form>
            <form method="get" action="/console/logs/\(log)/subjects" class="find">
            <label for="eventId">Or an event id</label>
            <input id="eventId" name="eventId" required spellcheck="false" autocomplete="off" aria-describedby="eventId-help">
            <button type="submit">Show the event</button>
            <p id="eventId-help" class="help">The event's UUID, as an app or a report names it.</p>
            </form>
            </section>
            <section aria-labelledby="findings-title">
            <h2 id="findings-title">Findings</h2>
            <p><strong>\(overview.violations)</strong> rule violation\(overview.violations == 1 ? "" : "s") and
            <strong>\(overview.anomalies)</strong> anomal\(overview.anomalies == 1 ? "y" : "ies") recorded on this log
            (<a href="/console/logs/\(log)/findings">each with its evidence</a>).</p>
            </section>
            <section aria-labelledby="projections-title">
            <h2 id="projections-title">Projections</h2>
            <table class="data">
            <caption>How far each projection has folded the log</caption>
            <thead><tr><th scope="col">projection</th><th scope="col">position</th><th scope="col">behind the head</th><th scope="col">state</th></tr></thead>
            <tbody>\(projections)</tbody>
            </table>
            </section>
            """)
    }

    /// The events per day on both clocks, side by side and each named: the ledger's (recordedAt,
    /// which no device can skew) and the device's (occurredAt, when it happened); with a sentence
    /// when they differ because events reached the ledger late or all at once.
    static func clocks(_ overview: LogOverview) -> HTML {
        func chart(_ id: String, _ title: String, _ days: [LogOverview.Day], color: ChartColor, unit: String) -> BarChart {
            BarChart(id: id, title: title, categories: days.map { String($0.day.dropFirst(5)) }, series: [BarChart.Series(name: unit, color: color)],
                     values: days.map { [$0.events] }, layout: .stacked, xAxisTitle: "day (month-day, UTC)", yAxisTitle: "events",
                     unit: "events", emptySentence: "The log has no events yet.")
        }
        let recorded = chart("events-per-day", "Recorded by the ledger (recordedAt, the ledger's clock): events per day", overview.days,
                             color: .blue, unit: "events recorded")
        let occurred = chart("events-per-day-occurred", "Occurred on the device (occurredAt, the device's clock): events per day",
                             overview.occurredDays, color: .orange, unit: "events occurred")
        let first = overview.occurredDays.first?.day ?? "", last = overview.occurredDays.last?.day ?? ""
        let note: HTML = overview.occurredDays.count > overview.days.count ? """
            <p class="help" id="clocks-note">The ledger recorded these events on \(overview.days.count) day\(overview.days.count == 1 ? "" : "s"),
            but they happened on the devices over \(overview.occurredDays.count) days (\(first) to \(last)): they reached the ledger late
            or all at once (an import). Periods of reports are cut on the device's clock; the ledger's clock is the one no device can skew.</p>
            """ : "<p class=\"help\" id=\"clocks-note\">Each chart covers the last \(LogOverview.dayWindow) days of its clock. Periods of reports are cut on the device's clock; the ledger's clock is the one no device can skew.</p>"
        return """
            <div class="charts">
            <div>\(recorded.render())
            <details><summary>The numbers (ledger's clock)</summary>\(recorded.dataTable(categoryHeader: "day recorded"))</details></div>
            <div>\(occurred.render())
            <details><summary>The numbers (device's clock)</summary>\(occurred.dataTable(categoryHeader: "day occurred"))</details></div>
            </div>
            \(note)
            """
    }

    /// The newest recorded verification, in a sentence.
    static func lastVerification(_ record: VerificationRecord?) -> HTML {
        guard let record else { return "<p id=\"last-verification\">No verification of this log is on record yet.</p>" }
        return """
            <p id="last-verification">Last verified <time>\(record.verifiedAt)</time> by <code>\(record.verifiedBy)</code>
            (\(record.scope == "full" ? "everything" : "since the newest checkpoint"), head \(Int(record.headPosition))):
            <strong class="\(record.passed ? "ok" : "problem")">\(record.passed ? "passed" : "FAILED")</strong>, \(record.summary).</p>
            """
    }

    /// `3 min`, `2 h 5 min`, `4 days`.
    static func duration(_ seconds: Int64) -> String {
        switch seconds {
        case ..<60: return "\(max(seconds, 0)) s"
        case ..<3600: return "\(seconds / 60) min"
        case ..<86_400: return "\(seconds / 3600) h \(seconds % 3600 / 60) min"
        default: return seconds / 86_400 == 1 ? "1 day" : "\(seconds / 86_400) days"
        }
    }
}
