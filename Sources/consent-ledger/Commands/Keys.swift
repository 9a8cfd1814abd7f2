import ArgumentParser

/// `consent-ledger keys create | list | revoke`: API keys of the HTTP API.
struct Keys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create, list or revoke API keys for the HTTP API.",
        discussion: """
            A key is bound to one log and one role: ingest (append only), auditor (read, state, reports) or \
            admin (everything, and erase). Only the SHA-256 of its secret is stored; the key is printed once, \
            when created. (The key that signs checkpoints is another thing: see `signing-key`.)
            """,
        subcommands: [KeysCreate.self, KeysList.self, KeysRevoke.self]
    )
}
