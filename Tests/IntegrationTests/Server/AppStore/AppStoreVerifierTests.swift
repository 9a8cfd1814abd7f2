import Crypto
import Foundation
import LedgerCore
import Testing
import LedgerAppStore

/// The App Store JWS verifier on generated chains: what it accepts, and each way it refuses.
@Suite("App Store signed data verifier")
struct AppStoreVerifierTests {
    static let chain = try! TestAppleChain()

    func verifier(_ chain: TestAppleChain = chain) -> AppStoreSignedDataVerifier {
        AppStoreSignedDataVerifier(roots: [chain.root])
    }

    @Test("a notification signed by the configured chain verifies and its payload is returned")
    func accepts() async throws {
        let uuid = UUID().uuidString.lowercased()
        let payload = try await verifier().verify(try Self.chain.rescindConsent(uuid: uuid))
        #expect(payload["notificationType"]?.stringValue == "RESCIND_CONSENT")
        #expect(payload["notificationUUID"]?.stringValue == uuid)
        let notification = try RescindConsentNotification(payload: payload)
        #expect(notification.bundleId == "com.example.kidsdraw")
        #expect(notification.appAppleId == 6_471_234_567)
        #expect(notification.environment == .production)
    }

    @Test("the event happened at signedDate, to the millisecond, and cites the notification")
    func eventFromNotification() async throws {
        let signed = Date(timeIntervalSince1970: 1_795_000_000.123)
        let payload = try await verifier().verify(try Self.chain.rescindConsent(uuid: "002E14D5-51F5-4503-B5A8-C3A1AF68EB20", signedDate: signed),
                                                  now: signed.addingTimeInterval(60))
        let event = try RescindConsentNotification(payload: payload).event(subject: "p_1", enforcementAction: .pending)
        #expect(event["occurredAt"]?.stringValue == "2026-11-18T11:06:40.123Z")
        #expect(event["eventId"]?.stringValue == "002e14d5-51f5-4503-b5a8-c3a1af68eb20", "the notification's UUID, lowercased")
        #expect(event["payload"]?["signedDate"]?.intValue == 1_795_000_000_123)
        // The notification's environment, on the envelope as on every event (Production → production).
        #expect(event["payload"]?["environment"] == .string("Production") || event["payload"]?["environment"] == .string("Sandbox"))
        #expect(event["app"]?["environment"]?.stringValue == event["payload"]?["environment"]?.stringValue?.lowercased())
        #expect(ConsentRescinded.Environment.xcode.buildEnvironment == "development")
        _ = try EventInput(json: event)
    }

    @Test("roots load from PEM and from DER files; a file that is neither is refused")
    func rootFiles() async throws {
        let fromPEM = try AppStoreSignedDataVerifier(rootFiles: [Array(Self.chain.rootPEM.utf8)])
        let fromDER = try AppStoreSignedDataVerifier(rootFiles: [Self.chain.rootDER])
        #expect(fromPEM.roots == [Self.chain.root])
        #expect(fromDER.roots == [Self.chain.root])
        #expect(throws: AppStoreVerificationError.self) { try AppStoreSignedDataVerifier(rootFiles: [Array("not a certificate".utf8)]) }
    }

    @Test("a changed payload under the original signature is refused")
    func alteredPayload() async throws {
        let jws = try Self.chain.rescindConsent()
        var parts = jws.split(separator: ".").map(String.init)
        let other = try Self.chain.rescindConsent(bundleId: "com.example.other").split(separator: ".").map(String.init)
        parts[1] = other[1]
        await expectRefusal(parts.joined(separator: "."), .badSignature)
    }

    @Test("a payload signed with another key under Apple's chain is refused")
    func wrongKey() async throws {
        let payload: JSONValue = .object(["notificationType": "RESCIND_CONSENT", "signedDate": .number((Date().timeIntervalSince1970 * 1000).rounded())])
        await expectRefusal(try Self.chain.sign(payload, key: P256.Signing.PrivateKey()), .badSignature)
    }

    @Test("a chain of the forger's own, markers and all, is not trusted")
    func forgedChain() async throws {
        let forger = try TestAppleChain(name: "Forged")
        await expectRefusal(try forger.rescindConsent(), kind: "untrusted")
    }

    @Test("alg none and HS256 are refused before anything else")
    func algorithms() async throws {
        let payload: JSONValue = .object(["signedDate": .number((Date().timeIntervalSince1970 * 1000).rounded())])
        await expectRefusal(try Self.chain.sign(payload, alg: "none"), .unsupportedAlgorithm("none"))
        await expectRefusal(try Self.chain.sign(payload, alg: "HS256"), .unsupportedAlgorithm("HS256"))
    }

    @Test("an expired leaf is refused; so is one valid when signed but expired since")
    func expired() async throws {
        let now = Date()
        let past = try TestAppleChain(leafValidity: now.addingTimeInterval(-10 * 86_400)...now.addingTimeInterval(-86_400))
        await expectRefusal(try past.rescindConsent(), kind: "expired", verifier: verifier(past))
        await expectRefusal(try past.rescindConsent(signedDate: now.addingTimeInterval(-2 * 86_400)), kind: "expired",
                            verifier: verifier(past))
        // The same chain verifies for a moment inside its validity: the refusal is the expiry.
        let payload = try await verifier(past).verify(try past.rescindConsent(signedDate: now.addingTimeInterval(-2 * 86_400)),
                                                      now: now.addingTimeInterval(-2 * 86_400 + 60))
        #expect(payload["notificationType"]?.stringValue == "RESCIND_CONSENT")
    }

    @Test("a leaf without Apple's App Store marker is refused")
    func missingMarker() async throws {
        let unmarked = try TestAppleChain(leafMarker: false)
        await expectRefusal(try unmarked.rescindConsent(), kind: "untrusted", verifier: verifier(unmarked))
    }

    @Test("a signedDate in the future is refused")
    func futureDate() async throws {
        await expectRefusal(try Self.chain.rescindConsent(signedDate: Date().addingTimeInterval(3600)), kind: "badSignedDate")
    }

    @Test("malformed input: two parts, bad base64url, a header without x5c, a root-less verifier")
    func malformed() async throws {
        await expectRefusal("abc.def", kind: "malformed")
        await expectRefusal("ab+c.def.ghi", kind: "malformed")
        let header = Base64URL.encode(Array(#"{"alg":"ES256"}"#.utf8))
        let payload = Base64URL.encode(Array(#"{"signedDate":1}"#.utf8))
        await expectRefusal("\(header).\(payload).AAAA", kind: "badCertificateChain")
        await expectRefusal(try Self.chain.rescindConsent(), kind: "untrusted", verifier: AppStoreSignedDataVerifier(roots: []))
    }

    @Test("another notification type is refused by name, not recorded")
    func otherType() async throws {
        let payload = try await verifier().verify(try Self.chain.rescindConsent(type: "SUBSCRIBED"))
        #expect(throws: LedgerError.self) { try RescindConsentNotification(payload: payload) }
    }

    func expectRefusal(_ jws: String, _ expected: AppStoreVerificationError, sourceLocation: SourceLocation = #_sourceLocation) async {
        do {
            _ = try await verifier().verify(jws)
            Issue.record("accepted", sourceLocation: sourceLocation)
        } catch {
            #expect(error == expected, sourceLocation: sourceLocation)
        }
    }

    func expectRefusal(_ jws: String, kind: String, verifier: AppStoreSignedDataVerifier? = nil,
                       sourceLocation: SourceLocation = #_sourceLocation) async {
        do {
            _ = try await (verifier ?? self.verifier()).verify(jws)
            Issue.record("accepted", sourceLocation: sourceLocation)
        } catch {
            #expect(String(describing: Mirror(reflecting: error).children.first?.label ?? "\(error)") == kind,
                    "\(error)", sourceLocation: sourceLocation)
        }
    }
}
