import HTTPTypes
import Hummingbird
import LedgerAPIModel
import LedgerApplication
import LedgerCore

/// Webhook subscriptions of a log (admin keys; decision 0083, docs/subscriptions.md):
/// `POST /v1/logs/{log}/subscriptions` creates one and answers its secret once; `GET` lists them;
/// `GET`/`DELETE …/{subscription}` shows or deletes one; `POST …/{subscription}/replay`
/// (`{"from": P}`) sends again from a position; `GET …/{subscription}/deliveries?limit=` is its
/// delivery log. A subscription of another log is not found, as if it did not exist.
struct SubscriptionRoutes {
    let operations: any LedgerOperations

    var collection: RouteCollection<LedgerRequestContext> {
        let routes = RouteCollection(context: LedgerRequestContext.self)
        routes.post("logs/{log}/subscriptions", use: create)
        routes.get("logs/{log}/subscriptions", use: list)
        routes.get("logs/{log}/subscriptions/{subscription}", use: show)
        routes.delete("logs/{log}/subscriptions/{subscription}", use: delete)
        routes.post("logs/{log}/subscriptions/{subscription}/replay", use: replay)
        routes.get("logs/{log}/subscriptions/{subscription}/deliveries", use: deliveries)
        return routes
    }

    static let example = #"{"url": "https://backend.example/hooks/ledger", "eventTypes": ["ConsentRescinded"], "findingKinds": ["violation"]}"#

    @Sendable func create(request: Request, context: LedgerRequestContext) async throws -> Response {
        let log = try context.path("log")
        _ = try context.require([.admin], log: log)
        let object = try JSONBody.object(Array(buffer: try await request.body.collect(upTo: 64 << 10)),
                                         members: ["url", "eventTypes", "findingKinds", "rules", "label"], example: Self.example)
        let kinds = try JSONBody.strings(object, "findingKinds").map { text in
            guard let kind = LedgerRule.Kind(rawValue: text) else {
                throw Problem(.badRequest, code: "invalid-field", detail: "findingKinds holds violation or anomaly, not \(text)", field: "findingKinds")
            }
            return kind
        }
        let asked = SubscriptionRequest(log: log, url: try JSONBody.requiredString(object, "url", hint: "Send \(Self.example)."),
                                        eventTypes: try JSONBody.strings(object, "eventTypes"), findingKinds: kinds,
                                        rules: try JSONBody.strings(object, "rules"), label: try JSONBody.string(object, "label") ?? "")
        let (subscription, secret) = try await operations.createSubscription(asked)
        return try Response.json(APIModel.SubscriptionCreated(subscription: subscription, secret: secret), status: .created)
    }

    @Sendable func list(request: Request, context: LedgerRequestContext) async throws -> Response {
        let log = try context.path("log")
        _ = try context.require([.admin], log: log)
        return try Response.json(APIModel.SubscriptionList(subscriptions: try await operations.subscriptions(log: log)))
    }

    @Sendable func show(request: Request, context: LedgerRequestContext) async throws -> Response {
        let (log, id) = try Self.target(context)
        return try Response.json(try await operations.subscription(id, log: log))
    }

    @Sendable func delete(request: Request, context: LedgerRequestContext) async throws -> Response {
        let (log, id) = try Self.target(context)
        return try Response.json(try await operations.deleteSubscription(id, log: log))
    }

    @Sendable func replay(request: Request, context: LedgerRequestContext) async throws -> Response {
        let (log, id) = try Self.target(context)
        let object = try JSONBody.object(Array(buffer: try await request.body.collect(upTo: 64 << 10)), members: ["from"],
                                         example: #"{"from": 1}"#)
        guard let number = object["from"]?.doubleValue, number == number.rounded(), number >= 1, number <= 9_007_199_254_740_991 else {
            throw Problem(.badRequest, code: object["from"] == nil ? "missing-field" : "invalid-field",
                          detail: "from is the first position sent again: a whole number of 1 or more", field: "from",
                          hint: #"Send {"from": 1} to send every item again."#)
        }
        return try Response.json(try await operations.replaySubscription(id, log: log, from: Int64(number)))
    }

    @Sendable func deliveries(request: Request, context: LedgerRequestContext) async throws -> Response {
        let (log, id) = try Self.target(context)
        var limit = 100
        if let text = request.uri.queryParameters["limit"] {
            guard let value = Int(text), (1...1_000).contains(value) else {
                throw Problem(.badRequest, code: "invalid-field", detail: "limit is a whole number from 1 to 1000, not \(text)", field: "limit")
            }
            limit = value
        }
        return try Response.json(APIModel.DeliveryLog(subscription: id, deliveries: try await operations.deliveries(id, log: log, limit: limit)))
    }

    /// The log and subscription of the path, with an admin key of the log; 400 for a malformed id.
    static func target(_ context: LedgerRequestContext) throws -> (String, String) {
        let log = try context.path("log")
        _ = try context.require([.admin], log: log)
        let id = try context.path("subscription")
        guard Subscription.isID(id) else {
            throw Problem(.badRequest, code: "invalid-field", detail: "\(id) is not a subscription id (sub_ and 12 characters of a-z, 0-9)",
                          field: "subscription")
        }
        return (log, id)
    }
}
