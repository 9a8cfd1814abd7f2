import Foundation
import Hummingbird
import LedgerAPIModel
import LedgerAppStore
import LedgerApplication
import LedgerCore

/// `POST /v1/logs/{log}/app-store/notifications` (ingest, admin): the app's server forwards an
/// App Store Server Notifications V2 `RESCIND_CONSENT` exactly as Apple sent it, with the subject
/// it concerns and what the app did; the ledger verifies the JWS and its x5c chain against the
/// configured roots itself and appends `ConsentRescinded` (decision 0017).
///
/// Body:
/// ```json
/// {"signedPayload": "eyJhbGciOiJFUzI1NiIsIng1YyI6…", "subject": "p_4f1c", "enforcementAction": "accessRevoked",
///  "jurisdiction": {"code": "US-TX", "basis": "storefront"}}
/// ```
/// A forged, altered or expired notification is refused (400 `app-store-signature-refused`) and
/// nothing is stored. The event's id is the notification's UUID, so Apple's retries of one
/// notification are answered as replays (200).
struct AppStoreRoutes {
    let operations: any LedgerOperations
    /// nil: no roots configured; the route answers 501.
    let settings: AppStoreSettings?
    /// The bounded queue appends share.
    let admission: AppendAdmission

    /// The members the body may have.
    static let members: Set<String> = ["signedPayload", "subject", "enforcementAction", "jurisdiction"]

    var collection: RouteCollection<LedgerRequestContext> {
        let routes = RouteCollection(context: LedgerRequestContext.self)
        routes.post("logs/{log}/app-store/notifications", use: receive)
        return routes
    }

    @Sendable func receive(request: Request, context: LedgerRequestContext) async throws -> Response {
        let log = try context.path("log")
        let key = try context.require([.ingest, .admin], log: log)
        guard let settings else {
            throw Problem(.notImplemented, code: "app-store-not-configured",
                          detail: "this server has no App Store root certificate, so it cannot verify notifications",
                          hint: "Start the server with --app-store-root <Apple Root CA - G3 certificate file>.")
        }
        let body = try await request.body.collect(upTo: 256 << 10)
        let object = try JSONBody.object(Array(buffer: body), members: Self.members,
                                         example: #"{"signedPayload": …, "subject": …, "enforcementAction": …}"#)
        let signedPayload = try JSONBody.requiredString(object, "signedPayload")
        let subject = try JSONBody.requiredString(object, "subject")
        let actionName = try JSONBody.requiredString(object, "enforcementAction")
        guard let action = ConsentRescinded.EnforcementAction(rawValue: actionName) else {
            let allowed = ConsentRescinded.EnforcementAction.allCases.map(\.rawValue).joined(separator: ", ")
            throw Problem(.badRequest, code: "invalid-field", detail: "enforcementAction must be one of \(allowed)",
                          field: "enforcementAction")
        }
        let payload = try await Self.verified(signedPayload, field: "signedPayload", verifier: settings.verifier)
        var notification: RescindConsentNotification
        do { notification = try RescindConsentNotification(payload: payload) } catch { throw Problem(error) }
        if !settings.bundleIds.isEmpty, !settings.bundleIds.contains(notification.bundleId) {
            throw Problem(.forbidden, code: "app-not-allowed",
                          detail: "the notification is for \(notification.bundleId), which this server does not accept",
                          field: "signedPayload.appData.bundleId",
                          hint: "Add it with --app-store-bundle-id, or forward it to the ledger of that app.")
        }
        if let info = RescindConsentNotification.signedAppTransactionInfo(in: payload) {
            let transaction = try await Self.verified(info, field: "signedPayload.appData.signedAppTransactionInfo",
                                                      verifier: settings.verifier)
            notification.appTransactionId = transaction["appTransactionId"]?.stringValue
        }
        let event: EventInput
        do {
            event = try EventInput(json: notification.event(subject: subject, enforcementAction: action,
                                                            jurisdiction: object["jurisdiction"]))
        } catch {
            throw Problem(Self.bodyField(of: error))
        }
        // One event without an idempotency key: the group commit, where Apple's retry of the same
        // notification (same event id, same content) is answered as a replay.
        let result = try await admission.admit(events: 1, key: key.keyID) {
            try await operations.recordAppStoreNotification(log: log, event: event)
        }
        if !result.idempotentReplay { ServerMetrics.appended(1, log: log) }
        return try Response.json(APIModel.AppStoreNotificationResult(log: log, idempotentReplay: result.idempotentReplay,
                                                                     notificationUUID: notification.notificationUUID,
                                                                     event: result.events[0]),
                                 status: result.idempotentReplay ? .ok : .created)
    }

    /// Verifies one App Store JWS; a refusal names the field and what failed.
    static func verified(_ jws: String, field: String, verifier: AppStoreSignedDataVerifier) async throws -> [String: JSONValue] {
        do {
            return try await verifier.verify(jws)
        } catch {
            throw Problem(.badRequest, code: "app-store-signature-refused", detail: error.description, field: field,
                          hint: "Forward the notification exactly as the App Store sent it; nothing was recorded.")
        }
    }

    /// An error about the built event, with its field named as the body names it.
    static func bodyField(of error: LedgerError) -> LedgerError {
        var error = error
        switch error.field {
        case "subject", "stream": error.field = "subject"
        case let field? where field.hasPrefix("jurisdiction"): break
        case let field? where field.hasPrefix("payload."): error.field = "signedPayload"
        default: break
        }
        return error
    }
}
