import LedgerCore

/// Reports sealed before a member was added to their schema still render: the page decodes a
/// report into its type (``ReportDecoding``), which requires every member, so a member added
/// since is filled in, before decoding, with what its absence meant. The JSON whose seal the page
/// checks is the one given, untouched. The members, each null or empty when absent:
///
/// - every report's `ledger.checkpoint` (no signed checkpoint named);
/// - the dossier's steps' and cited events' `inclusionProof`, and each state's `appFacts`;
/// - the regulator report's `policy.ageSignalRecheckDays` (no re-check interval).
enum OlderReports {
    /// `report` with the members above filled in where absent.
    static func upgraded(_ report: JSONValue) -> JSONValue {
        guard case .object(var members) = report else { return report }
        members["ledger"] = filled(members["ledger"], ["checkpoint": .null])
        members["policy"] = filled(members["policy"], ["ageSignalRecheckDays": .null])
        if case .array(let steps)? = members["steps"] {
            members["steps"] = .array(steps.map { step in
                guard case .object(var step)? = filled(step, ["inclusionProof": .null]) else { return step }
                step["state"] = filled(step["state"], ["appFacts": []])
                return .object(step)
            })
        }
        if case .array(let cited)? = members["citedEvents"] {
            members["citedEvents"] = .array(cited.map { filled($0, ["inclusionProof": .null]) ?? $0 })
        }
        return .object(members)
    }

    /// `value`, when it is an object, with each of `defaults` it lacks; anything else as it is.
    private static func filled(_ value: JSONValue?, _ defaults: [String: JSONValue]) -> JSONValue? {
        guard case .object(var members)? = value else { return value }
        for (name, absent) in defaults where members[name] == nil { members[name] = absent }
        return .object(members)
    }
}
