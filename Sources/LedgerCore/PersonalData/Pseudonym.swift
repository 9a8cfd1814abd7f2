import Crypto

/// Pseudonyms for subjects, guardians and operators: the only way people appear in the ledger.
///
/// An app derives a person's pseudonym from its own account id with a secret only the tenant holds:
///
///     pseudonym = prefix + hex(first 16 bytes of HMAC-SHA-256(tenantSecret,
///                     "consent-ledger/pseudonym/v1" ‖ 0x00 ‖ kind ‖ 0x00 ‖ accountId))
///
/// with prefix `p_` (subject), `g_` (guardian) or `op_` (operator). The same account always gets
/// the same pseudonym, so its history lines up; without the secret nobody can go from a pseudonym
/// back to the account, or test a guessed account id. See docs/pseudonyms.md.
///
/// ```swift
/// let subject = Pseudonym.derive(accountId: "user-48151623", tenantSecret: secret, kind: .subject)
/// // "p_" followed by 32 hex digits
/// ```
public enum Pseudonym {
    /// Whose pseudonym it is; part of the derivation, so one account id gives different
    /// pseudonyms as a subject and as a guardian.
    public enum Kind: String, Sendable, CaseIterable {
        /// The person the events are about.
        case subject
        /// A parent or guardian.
        case guardian
        /// A support or compliance person.
        case `operator`

        /// The pseudonym's prefix.
        public var prefix: String {
            switch self {
            case .subject: return "p_"
            case .guardian: return "g_"
            case .operator: return "op_"
            }
        }
    }

    /// The shortest tenant secret accepted, in bytes.
    public static let minimumSecretBytes = 32

    /// The pseudonym of `accountId` for a tenant holding `tenantSecret`.
    public static func derive(accountId: String, tenantSecret: [UInt8], kind: Kind = .subject) throws(LedgerError) -> String {
        guard tenantSecret.count >= minimumSecretBytes else {
            throw LedgerError(.invalidRequest, "the tenant secret is \(tenantSecret.count) bytes; at least \(minimumSecretBytes) are needed",
                              hint: "Generate one with: head -c 32 /dev/urandom > tenant.secret (and keep it out of the ledger).")
        }
        var mac = HMAC<SHA256>(key: SymmetricKey(data: tenantSecret))
        mac.update(data: Array("consent-ledger/pseudonym/v1".utf8) + [0] + Array(kind.rawValue.utf8) + [0] + Array(accountId.utf8))
        return kind.prefix + LedgerHash.hex(Array(mac.finalize()).prefix(16))
    }
}
