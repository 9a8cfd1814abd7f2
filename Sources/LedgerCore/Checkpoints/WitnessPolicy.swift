import Foundation

/// The witnesses whose cosignatures (``Cosignature``) a verifier requires on a checkpoint, and how
/// many of them must have cosigned: `verify-proof --witness KEY … --min-witnesses N`.
///
/// ```swift
/// let policy = try WitnessPolicy(witnesses: [w1, w2, w3], minimum: 2)
/// let said = try policy.check(note)   // "cosigned by 2 of 3 witnesses: w1 at …, w2 at …"
/// ```
public struct WitnessPolicy: Sendable, Equatable {
    /// The witnesses' verifier keys (type ``NoteKeyType/cosignatureV1``).
    public let witnesses: [NoteVerifierKey]
    /// How many of them must have cosigned.
    public let minimum: Int

    /// No witness required.
    public static let none = WitnessPolicy(checked: [], minimum: 0)

    /// A policy requiring `minimum` (default: all) of `witnesses`. Throws ``LedgerError``
    /// (``LedgerError/Code/invalidKey``) for a key that is not a witness's, a witness given twice,
    /// or a minimum the witnesses cannot reach.
    public init(witnesses: [NoteVerifierKey], minimum: Int? = nil) throws(LedgerError) {
        for witness in witnesses { try witness.require(.cosignatureV1, for: "--witness") }
        var seen = Set<String>()
        for witness in witnesses where !seen.insert("\(witness.name)+\(witness.keyID)").inserted {
            throw LedgerError(.invalidKey, "the witness \(witness.name) (key \(NoteKeyID.hex(witness.keyID))) is given twice",
                              hint: "Give each witness's key once.")
        }
        let minimum = minimum ?? witnesses.count
        guard minimum >= 0, minimum <= witnesses.count else {
            throw LedgerError(.invalidKey, "--min-witnesses \(minimum) asks for more cosignatures than the \(witnesses.count) witnesses given",
                              hint: "Give at least \(minimum) --witness keys, or lower --min-witnesses.")
        }
        self.init(checked: witnesses, minimum: minimum)
    }

    private init(checked witnesses: [NoteVerifierKey], minimum: Int) {
        self.witnesses = witnesses
        self.minimum = minimum
    }

    /// Checks `note`'s cosignatures: every line that claims one of the witnesses must verify, and
    /// at least ``minimum`` witnesses must have cosigned. Returns what was established (nil when no
    /// witness is given); throws ``LedgerError`` (``LedgerError/Code/checkpointRefused``) otherwise.
    public func check(_ note: SignedNote) throws(LedgerError) -> String? {
        guard !witnesses.isEmpty else { return nil }
        var cosigned: [String] = []
        var missing: [String] = []
        for witness in witnesses {
            let claims = note.signatures.contains { $0.keyName == witness.name && $0.keyID == witness.keyID }
            guard claims else {
                missing.append(witness.name)
                continue
            }
            let time = try Cosignature.verify(note, witness: witness)
            cosigned.append("\(witness.name) at \(Cosignature.dateText(time))")
        }
        guard cosigned.count >= minimum else {
            throw LedgerError(.checkpointRefused,
                              "the checkpoint is cosigned by \(cosigned.count) of the \(witnesses.count) witnesses given, \(minimum) required; "
                                  + "not cosigned by \(missing.joined(separator: ", ")): no witness vouches that this is the log everyone else sees")
        }
        return "cosigned by \(cosigned.count) of \(witnesses.count) witnesses (\(minimum) required)"
            + (cosigned.isEmpty ? "" : ": " + cosigned.joined(separator: ", "))
    }
}
