import ArgumentParser

/// `consent-ledger witness create-key | show-key | cosign`: an auditor's witness, run from files.
struct Witness: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "witness",
        abstract: "Run a witness: cosign a ledger's checkpoints after checking that each extends the last one you cosigned.",
        discussion: """
            A witness is run by someone other than the ledger's operator (an auditor, a regulator). It needs no \
            database and no access to the ledger's machine: its key file, the ledger's public key, a state file, \
            and the checkpoints or consistency proofs the ledger serves. Verifiers that require its cosignature \
            (verify-proof --witness) cannot be shown a history other than the one it saw (docs/proofs.md, \
            "Witnesses").
            """,
        subcommands: [WitnessCreateKey.self, WitnessShowKey.self, WitnessCosign.self]
    )
}
