import LedgerCore

/// One line that says what a subject's snapshot (SubjectSnapshot JSON) holds, for people:
/// `13to15 (guardianDeclared, #12) · controls: communicationLimits · open: quizzes · closed: chat · consents: 2 approval, 1 pending`.
enum StateSummary {
    static func line(_ state: JSONValue) -> String {
        guard case .object = state else { return "nothing recorded yet that the projections keep" }
        var parts: [String] = []
        if let age = state["age"], case .object = age {
            var detail: [String] = []
            if let declaration = age["declaration"]?.stringValue { detail.append(declaration) }
            if age["verifiedAdult"]?.boolValue == true { detail.append("verified adult") }
            if let position = age["position"]?.intValue { detail.append("#\(position)") }
            parts.append("\(age["category"]?.stringValue ?? "?") (\(detail.joined(separator: ", ")))")
        } else {
            parts.append("no age signal")
        }
        let controls = state["parentalControls"]?.arrayValue?.compactMap(\.stringValue) ?? []
        if !controls.isEmpty { parts.append("controls: " + controls.joined(separator: ", ")) }
        if state["erased"]?.boolValue == true { parts.append("ERASED") }
        let features = state["features"]?.arrayValue ?? []
        for wanted in ["open", "closed"] {
            let names = features.filter { $0["state"]?.stringValue == wanted }.compactMap { $0["feature"]?.stringValue }
            if !names.isEmpty { parts.append("\(wanted): " + names.joined(separator: ", ")) }
        }
        let consents = state["consents"]?.arrayValue ?? []
        if !consents.isEmpty {
            var counts: [String: Int] = [:]
            for consent in consents { counts[consent["status"]?.stringValue ?? "?", default: 0] += 1 }
            var text = "consents: " + counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            let pending = consents.filter { $0["status"]?.stringValue == "pending" }
                .map { $0["changeId"]?.stringValue.map { "change \($0)" } ?? ($0["topic"]?.stringValue ?? "?") }
            if !pending.isEmpty { text += " (pending: " + pending.joined(separator: ", ") + ")" }
            parts.append(text)
        }
        return parts.joined(separator: " · ")
    }
}
