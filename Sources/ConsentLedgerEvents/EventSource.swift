import Foundation
import LedgerCore

/// What an app backend says once about where its events come from: the app, its build and where
/// its users are (docs/envelope.md). Each event is then one call, ``event(_:subject:occurredAt:actor:eventId:stream:correlationId:causationId:)``.
///
/// ```swift
/// let kidsDraw = EventSource(bundleId: "com.example.kidsdraw", appVersion: "3.0.0", platform: .iOS,
///                            jurisdiction: "US-TX")
/// let shared = try kidsDraw.event(AgeRangeShared(lowerBound: 13, upperBound: 15, ageRangeDeclaration: .guardianDeclared),
///                                 subject: "p_7f3a9c", actor: .guardian)
/// ```
public struct EventSource: Sendable {
    /// The app stamp every event carries (`app`).
    public var app: EventEnvelope.AppInfo
    /// The jurisdiction every event carries (`US-TX`, `GB`, `EU`), when known.
    public var jurisdiction: String?
    /// On what ``jurisdiction`` rests.
    public var jurisdictionBasis: JurisdictionBasis

    /// The platforms an app may name.
    public enum Platform: String, Sendable, CaseIterable {
        /// iOS.
        case iOS
        /// iPadOS.
        case iPadOS
        /// macOS.
        case macOS
        /// visionOS.
        case visionOS
        /// watchOS.
        case watchOS
        /// tvOS.
        case tvOS
        /// Android.
        case android
        /// A web app.
        case web
        /// A server of the app's own.
        case server
    }

    /// The build events come from: only `production` events count in state and reports (decision 0068).
    public enum Environment: String, Sendable, CaseIterable {
        /// Installed from the store.
        case production
        /// A store test build: TestFlight, the App Store sandbox, a Play test track.
        case sandbox
        /// Run from Xcode or Android Studio (StoreKit's `xcode` environment).
        case development
    }

    /// On what the jurisdiction rests.
    public enum JurisdictionBasis: String, Sendable, CaseIterable {
        /// The app says so (DeclaredAgeRange returns no region).
        case asserted
        /// The App Store or Play storefront.
        case storefront
        /// Inferred otherwise.
        case inferred
    }

    /// A source.
    ///
    /// - Parameters:
    ///   - appVersion: the version running: the rules compare it with each significant change's
    ///     `introducedInVersion`, so send it on every event.
    ///   - originalAppVersion: StoreKit's `AppTransaction.originalAppVersion`, whenever the app can read it.
    ///   - jurisdiction: `US-TX`, `GB`, `EU`, …; nil when unknown.
    public init(bundleId: String, appVersion: String, platform: Platform, osVersion: String? = nil,
                environment: Environment = .production, originalAppVersion: String? = nil,
                jurisdiction: String? = nil, jurisdictionBasis: JurisdictionBasis = .asserted) {
        app = EventEnvelope.AppInfo(bundleId: bundleId, appVersion: appVersion, platform: platform.rawValue, osVersion: osVersion,
                                    environment: environment.rawValue, originalAppVersion: originalAppVersion)
        self.jurisdiction = jurisdiction
        self.jurisdictionBasis = jurisdictionBasis
    }

    /// One event, checked as the ledger checks it (the envelope, the payload against the catalogue,
    /// personal data, the stream convention), so that what the ledger would refuse throws here,
    /// naming the field, before anything is sent.
    ///
    /// - Parameters:
    ///   - subject: the child's pseudonym (`p_…`), for a fact about one person.
    ///   - occurredAt: when it happened, by the device's or backend's clock.
    ///   - eventId: made once per event and kept for retries: the same id twice is the same event.
    ///   - stream: nil picks the conventional one: the question's or exception's own stream for
    ///     their events, `change-<changeId>` for a significant change, `subject-<pseudonym>` otherwise.
    /// - Throws: ``LedgerError`` (`invalid-field`, `forbidden-personal-data`, …), as the server would answer.
    public func event<Payload: EventPayload>(
        _ payload: Payload, subject: String?, occurredAt: Date = Date(), actor: EventActor = .app,
        eventId: UUID = UUID(), stream: String? = nil, correlationId: UUID? = nil, causationId: UUID? = nil
    ) throws(LedgerError) -> EventInput {
        let body = payload.jsonValue
        let home: String
        if let stream { home = stream } else { home = try Self.conventionalStream(type: Payload.eventType, payload: body, subject: subject) }
        var members: [String: JSONValue] = [
            "eventId": .string(eventId.uuidString.lowercased()),
            "stream": .string(home),
            "type": .string(Payload.eventType),
            "schemaVersion": .number(Double(Payload.schemaVersion)),
            "occurredAt": .string(Self.timestamp(occurredAt)),
            "actor": actor.jsonValue,
            "app": app.jsonValue,
            "payload": body,
        ]
        if let subject { members["subject"] = .string(subject) }
        if let jurisdiction { members["jurisdiction"] = .object(["code": .string(jurisdiction), "basis": .string(jurisdictionBasis.rawValue)]) }
        if let correlationId { members["correlationId"] = .string(correlationId.uuidString.lowercased()) }
        if let causationId { members["causationId"] = .string(causationId.uuidString.lowercased()) }
        return try EventInput(json: .object(members))
    }

    /// The stream an event of `type` belongs on by the ledger's conventions.
    static func conventionalStream(type: String, payload: JSONValue, subject: String?) throws(LedgerError) -> String {
        if let home = StreamConvention.homes[type], case .string(let id)? = payload[home.field] { return home.prefix + id }
        if subject == nil, case .string(let change)? = payload["changeId"] { return "change-" + change }
        if let subject { return "subject-" + subject }
        throw LedgerError(.invalidField, "a \(type) without a subject has no conventional stream", field: "stream",
                          hint: "Pass stream: (docs/envelope.md, \"stream\").")
    }

    /// RFC 3339 in UTC, to the second.
    static func timestamp(_ date: Date) -> String {
        Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!).format(date)
    }
}

extension EventEnvelope.AppInfo {
    /// The stamp as the envelope's `app` member.
    var jsonValue: JSONValue {
        var members: [String: JSONValue] = ["bundleId": .string(bundleId)]
        for (name, value) in [("appVersion", appVersion), ("platform", platform), ("osVersion", osVersion),
                              ("environment", environment), ("originalAppVersion", originalAppVersion)] {
            if let value { members[name] = .string(value) }
        }
        return .object(members)
    }
}
