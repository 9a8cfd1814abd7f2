import ArgumentParser
import LedgerApplication
import LedgerCore
import LedgerPostgres

/// `consent-ledger keys revoke KEYID`.
struct KeysRevoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Revoke an API key: the next request with it gets 401.")

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The key's id (the part after cl_, as `keys list` shows it).")
    var keyID: String

    func run() async throws {
        let revoked = try await Ledger.with(try database.target(), progress: Console.note) { ledger in
            try await ledger.revokeKey(keyID)
        }
        guard revoked else {
            throw LedgerError(.invalidRequest, "no active API key \(keyID)", hint: "consent-ledger keys list shows the keys.")
        }
        Console.note("revoked API key \(keyID)")
    }
}
