import ArgumentParser
import LedgerApplication
import LedgerCore
import LedgerPostgres

/// `consent-ledger keys create --log L --role R`.
struct KeysCreate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create an API key bound to one log and one role; prints the key once.")

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The log (tenant) the key may reach.")
    var log: String

    @Option(help: "ingest, auditor or admin.")
    var role: String

    @Option(help: "Who holds it, for the list (no secrets).")
    var label = ""

    func validate() throws {
        guard APIRole(rawValue: role) != nil else { throw ValidationError("--role must be ingest, auditor or admin, not \(role)") }
    }

    func run() async throws {
        // The embedded database is set up on first use; a server of your own is migrated by its
        // administrator, as a step of its own (decision 0070).
        let target = try database.target()
        let (key, token) = try await Ledger.with(target, migrating: target.isEmbedded, progress: Console.note) { ledger in
            try await ledger.createKey(log: log, role: APIRole(rawValue: role)!, label: label)
        }
        Console.note("created API key \(key.keyID) for log \(key.log), role \(key.role.rawValue); it is shown once, keep it secret:")
        try Console.out(token)
    }
}
