import LedgerCore
import Foundation

/// A verified App Store Server Notifications V2 `RESCIND_CONSENT` notification (the decoded
/// `responseBodyV2DecodedPayload`), and the `ConsentRescinded` event it becomes.
///
/// ```json
/// {"notificationType":"RESCIND_CONSENT","notificationUUID":"002e14d5-…","version":"2.0","signedDate":1698148900000,
///  "appData":{"appAppleId":41234,"bundleId":"com.example","environment":"Sandbox","signedAppTransactionInfo":"eyJ…"}}
/// ```
public struct RescindConsentNotification: Sendable, Equatable {
    /// `notificationUUID`, lowercased.
    public var notificationUUID: String
    /// `signedDate`, UNIX milliseconds.
    public var signedDate: Int
    /// `appData.appAppleId` (absent in the sandbox).
    public var appAppleId: Int?
    /// `appData.bundleId`.
    public var bundleId: String
    /// `appData.environment`.
    public var environment: ConsentRescinded.Environment
    /// The `appTransactionId` of `appData.signedAppTransactionInfo`, once that JWS has been verified too.
    public var appTransactionId: String?

    /// Reads a verified notification payload; refuses any other notification type or a payload
    /// missing what the event needs, naming the field.
    public init(payload: [String: JSONValue]) throws(LedgerError) {
        guard let type = payload["notificationType"]?.stringValue else {
            throw LedgerError(.missingField, "the notification has no notificationType", field: "signedPayload.notificationType")
        }
        guard type == "RESCIND_CONSENT" else {
            throw LedgerError(.invalidField, "the notification is \(type); the ledger records RESCIND_CONSENT notifications",
                              field: "signedPayload.notificationType",
                              hint: "Forward only RESCIND_CONSENT notifications; handle the others in your own server.")
        }
        guard let uuid = payload["notificationUUID"]?.stringValue, UUID(uuidString: uuid) != nil else {
            throw LedgerError(.invalidField, "notificationUUID must be a UUID", field: "signedPayload.notificationUUID")
        }
        guard let millis = payload["signedDate"]?.intValue, millis >= 0 else {
            throw LedgerError(.invalidField, "signedDate must be UNIX milliseconds", field: "signedPayload.signedDate")
        }
        guard let appData = payload["appData"]?.objectValue else {
            throw LedgerError(.missingField, "a RESCIND_CONSENT notification carries appData", field: "signedPayload.appData")
        }
        guard let bundleId = appData["bundleId"]?.stringValue else {
            throw LedgerError(.missingField, "appData has no bundleId", field: "signedPayload.appData.bundleId")
        }
        guard let environmentName = appData["environment"]?.stringValue,
              let environment = ConsentRescinded.Environment(rawValue: environmentName) else {
            throw LedgerError(.invalidField, "appData.environment must be Production, Sandbox, Xcode or LocalTesting",
                              field: "signedPayload.appData.environment")
        }
        var appAppleId: Int?
        if let value = appData["appAppleId"], !value.isNull {
            guard let id = value.intValue, id >= 1 else {
                throw LedgerError(.invalidField, "appData.appAppleId must be a positive integer", field: "signedPayload.appData.appAppleId")
            }
            appAppleId = id
        }
        notificationUUID = uuid.lowercased()
        signedDate = millis
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.environment = environment
    }

    /// `appData.signedAppTransactionInfo` of `payload`, if present.
    public static func signedAppTransactionInfo(in payload: [String: JSONValue]) -> String? {
        payload["appData"]?.objectValue?["signedAppTransactionInfo"]?.stringValue
    }

    /// The `ConsentRescinded` event, as a client would submit it: its id is the notification's
    /// UUID (so the App Store's retries of one notification are one event), it happened at
    /// `signedDate`, its actor is the App Store and the signature check is `valid` (only verified
    /// notifications get here).
    public func event(subject: String, enforcementAction: ConsentRescinded.EnforcementAction,
                      jurisdiction: JSONValue? = nil) -> JSONValue {
        var payload: [String: JSONValue] = [
            "notificationUUID": .string(notificationUUID), "signedDate": .number(Double(signedDate)),
            "bundleId": .string(bundleId), "environment": .string(environment.rawValue),
            "signatureCheck": .string(ConsentRescinded.SignatureCheck.valid.rawValue),
            "enforcementAction": .string(enforcementAction.rawValue),
        ]
        if let appAppleId { payload["appAppleId"] = .number(Double(appAppleId)) }
        if let appTransactionId { payload["appTransactionId"] = .string(appTransactionId) }
        var event: [String: JSONValue] = [
            "eventId": .string(notificationUUID), "stream": .string("subject-" + subject), "type": .string(ConsentRescinded.eventType),
            "schemaVersion": .number(Double(ConsentRescinded.schemaVersion)), "occurredAt": .string(Self.timestamp(millis: signedDate)),
            "subject": .string(subject), "actor": .object(["kind": .string("appStore")]),
            "app": .object(["bundleId": .string(bundleId), "platform": .string("server"),
                            "environment": .string(environment.buildEnvironment)]),
            "payload": .object(payload),
        ]
        if let jurisdiction { event["jurisdiction"] = jurisdiction }
        return .object(event)
    }

    /// RFC 3339 in UTC with milliseconds, exactly (no trip through a floating-point fraction).
    static func timestamp(millis: Int) -> String {
        let seconds = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!)
            .format(Date(timeIntervalSince1970: Double(millis / 1000)))
        let fraction = String(millis % 1000)
        return seconds.dropLast() + "." + String(repeating: "0", count: 3 - fraction.count) + fraction + "Z"
    }
}
