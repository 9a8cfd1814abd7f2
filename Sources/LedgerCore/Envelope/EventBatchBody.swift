/// A batch of events as a client sends it in one body (the HTTP API's `POST …/events`): a JSON
/// array of events, or NDJSON, one event per line (LF or CRLF line ends; blank lines skipped).
/// Every event is checked (``EventInput``); errors name the 1-based event or line.
///
/// ```swift
/// let events = try EventBatchBody.events(in: Array(body.utf8), maxEvents: 1_000)
/// ```
public enum EventBatchBody {
    /// The events of `bytes`, at most `maxEvents` of them.
    ///
    /// - Throws: ``LedgerError``: `invalid-request` for an empty body or one with no events,
    ///   `invalid-json` for a body or line that is not JSON (with the line), `batch-too-large` over
    ///   `maxEvents`, and whatever ``EventInput`` refuses, located at its event.
    public static func events(in bytes: [UInt8], maxEvents: Int) throws(LedgerError) -> [EventInput] {
        let trimmed = bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        guard !trimmed.isEmpty else {
            throw LedgerError(.invalidRequest, "the body is empty",
                              hint: "Send the events as NDJSON (one JSON object per line) or as a JSON array.")
        }
        var values: [JSONValue] = []
        if trimmed.first == UInt8(ascii: "[") {
            let parsed: JSONValue
            do { parsed = try JSONParser.parse(Array(trimmed)) } catch {
                throw LedgerError(.invalidJSON, "the body is not valid JSON: \(error)")
            }
            values = parsed.arrayValue ?? []
        } else {
            var number = 0
            for line in trimmed.split(separator: 0x0A, omittingEmptySubsequences: false) {
                number += 1
                let content = line.last == 0x0D ? line.dropLast() : line[...]
                if content.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                do { values.append(try JSONParser.parse(Array(content))) } catch {
                    throw LedgerError(.invalidJSON, "line \(number) is not valid JSON: \(error)", line: number,
                                      hint: "Each line must hold exactly one JSON object (NDJSON).")
                }
            }
        }
        guard !values.isEmpty else { throw LedgerError(.invalidRequest, "the batch holds no events") }
        guard values.count <= maxEvents else {
            throw LedgerError(.batchTooLarge, "\(values.count) events in one batch; at most \(maxEvents)",
                              hint: "Split the batch; give each part its own Idempotency-Key.")
        }
        var events: [EventInput] = []
        events.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            do { events.append(try EventInput(json: value)) } catch { throw error.at(line: index + 1) }
        }
        return events
    }
}
