import ArgumentParser

/// `consent-ledger signing-key create | show`: the key that signs checkpoints.
struct SigningKey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signing-key",
        abstract: "Create or show the Ed25519 key pair that signs checkpoints.",
        discussion: """
            The private key lives in a file only its owner can read (signing-key in the data folder, or \
            --key-file); the database never sees it. The public key, printed by `show`, is what auditors \
            need to check checkpoints and proofs (docs/proofs.md).
            """,
        subcommands: [SigningKeyCreate.self, SigningKeyShow.self]
    )
}
