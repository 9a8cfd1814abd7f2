import ArgumentParser

/// `consent-ledger prove inclusion | consistency`.
struct Prove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a self-contained proof bundle that anyone can check offline with verify-proof.",
        discussion: "The bundle format, and what a verifier checks, are in docs/proofs.md.",
        subcommands: [ProveInclusion.self, ProveConsistency.self]
    )
}
