import ArgumentParser
import LedgerApplication
import LedgerCore

/// `consent-ledger subscriptions replay ID --from P`.
struct SubscriptionsReplay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Send a subscription's items again from a position (reviving a dead one).")

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The subscription's id (sub_...).")
    var id: String

    @Option(help: "The first position sent again (1: everything).")
    var from: Int64

    func validate() throws {
        guard Subscription.isID(id) else { throw ValidationError("\(id) is not a subscription id (sub_ and 12 characters of a-z, 0-9)") }
        guard from >= 1 else { throw ValidationError("--from must be a position of 1 or more, not \(from)") }
    }

    func run() async throws {
        let subscription = try await Ledger.with(try database.target(), progress: Console.note) { ledger in
            try await ledger.replaySubscription(id, from: from)
        }
        Console.note("subscription \(subscription.id) is \(subscription.state.rawValue) and sends again from position \(from)")
    }
}
