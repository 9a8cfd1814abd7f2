import LedgerCore
import LedgerAppStore

/// How `consent-ledger serve` checks App Store notifications: the trusted roots and, optionally,
/// the apps it accepts notifications for.
public struct AppStoreSettings: Sendable {
    /// Verifies the JWS and its chain.
    public var verifier: AppStoreSignedDataVerifier
    /// The bundle ids accepted; empty: any.
    public var bundleIds: Set<String>

    /// Settings trusting `verifier`'s roots for `bundleIds` (empty: any app).
    public init(verifier: AppStoreSignedDataVerifier, bundleIds: Set<String> = []) {
        self.verifier = verifier
        self.bundleIds = bundleIds
    }
}
