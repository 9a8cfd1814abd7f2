import LedgerCore
import Testing
import LedgerSimulation

/// One simulated line, checked by the ledger's own input validation.
struct SimulatedLine {
    /// The NDJSON line.
    let text: String
    /// The checked event (envelope, catalogue verdict, derived facts).
    let input: EventInput
    /// The payload's members.
    let payload: [String: JSONValue]

    var type: String { input.envelope.type }
    var eventId: String { input.envelope.eventId }
    var stream: String { input.envelope.stream }
    var subject: String? { input.envelope.subject }
    var occurredAt: String { input.envelope.occurredAt }

    /// A string member of the payload.
    func string(_ key: String) -> String? { payload[key]?.stringValue }
    /// A string-array member of the payload.
    func strings(_ key: String) -> [String] { payload[key]?.arrayValue?.compactMap(\.stringValue) ?? [] }
    /// A derived fact.
    func derived(_ key: String) -> JSONValue? { input.catalogued.derived[key] }
}

/// Simulations the tests share, and the checks they apply to every line.
enum SimulationFixtures {
    /// The lines of a simulation; without the deliberate device-clock faults unless asked, so
    /// that the checks of time order and causality hold for every line.
    static func lines(families: Int, days: Int, seed: UInt64, log: String = "sim",
                      start: String = HistorySimulator.defaultStart, deviceClockFaults: Bool = false) -> [String] {
        do {
            return Array(try HistorySimulator(families: families, days: days, seed: seed, log: log, start: start,
                                              deviceClockFaults: deviceClockFaults).lines())
        } catch {
            preconditionFailure("the simulator refused valid parameters: \(error)")
        }
    }

    /// Every line checked with `EventInput(line:)`; a refused line is recorded as an issue and
    /// left out.
    static func checked(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) -> [SimulatedLine] {
        var result: [SimulatedLine] = []
        result.reserveCapacity(lines.count)
        for (number, line) in lines.enumerated() {
            do {
                let input = try EventInput(line: Array(line.utf8))
                let json = try JSONParser.parse(line)
                result.append(SimulatedLine(text: line, input: input, payload: json["payload"]?.objectValue ?? [:]))
            } catch {
                Issue.record("line \(number + 1) refused: \(error)\n\(line)", sourceLocation: sourceLocation)
            }
        }
        return result
    }

    /// The modest simulation the coverage tests read: 80 families over 120 days, seed 1, without
    /// device-clock faults.
    static let modest: [SimulatedLine] = checked(lines(families: 80, days: 120, seed: 1))

    /// Whether `text` is a prefix and 32 lowercase hex digits.
    static func isPseudonym(_ text: String, prefix: String) -> Bool {
        guard text.hasPrefix(prefix) else { return false }
        let hex = text.dropFirst(prefix.count)
        return hex.count == 32 && hex.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }
}
