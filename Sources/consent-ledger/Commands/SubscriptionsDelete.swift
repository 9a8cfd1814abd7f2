import ArgumentParser
import LedgerApplication
import LedgerCore

/// `consent-ledger subscriptions delete ID`.
struct SubscriptionsDelete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a subscription: nothing more is sent; its delivery log stays.")

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The subscription's id (sub_...).")
    var id: String

    func validate() throws {
        guard Subscription.isID(id) else { throw ValidationError("\(id) is not a subscription id (sub_ and 12 characters of a-z, 0-9)") }
    }

    func run() async throws {
        let subscription = try await Ledger.with(try database.target(), progress: Console.note) { ledger in
            try await ledger.deleteSubscription(id)
        }
        Console.note("deleted subscription \(subscription.id) (delivered through \(subscription.deliveredThrough))")
    }
}
