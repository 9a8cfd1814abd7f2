import Foundation
import LedgerCore
import Testing

/// Webhook signatures (decision 0083): Stripe's scheme, checked against a value computed by OpenSSL.
@Suite("Webhook signatures")
struct WebhookSignatureTests {
    static let secret = "whsec_0123456789abcdefghijABCDEFGHIJ0123456789a"
    static let body = Array(#"{"id":"7"}"#.utf8)

    @Test("the MAC is HMAC-SHA256 over \"<t>.<body>\" as OpenSSL computes it")
    func matchesOpenSSL() {
        // printf '%s' '1700000000.{"id":"7"}' | openssl dgst -sha256 -hmac 'whsec_0123456789abcdefghijABCDEFGHIJ0123456789a'
        #expect(WebhookSignature.header(body: Self.body, secret: Self.secret, timestamp: 1_700_000_000)
                == "t=1700000000,v1=04d9dcf904ed60df3b02c00cdd37266e4ca9c5b7fd8e5f8973d24612079df7ba")
    }

    @Test("a signature verifies for its body, secret and a time within five minutes, and for nothing else")
    func verifies() {
        let now = Date(timeIntervalSince1970: 1_700_000_100)
        let header = WebhookSignature.header(body: Self.body, secret: Self.secret, timestamp: 1_700_000_000)
        #expect(WebhookSignature.verify(header: header, body: Self.body, secret: Self.secret, now: now))
        #expect(!WebhookSignature.verify(header: header, body: Array(#"{"id":"8"}"#.utf8), secret: Self.secret, now: now),
                "another body verified")
        #expect(!WebhookSignature.verify(header: header, body: Self.body, secret: Self.secret + "x", now: now), "another secret verified")
        #expect(!WebhookSignature.verify(header: header, body: Self.body, secret: Self.secret, now: now.addingTimeInterval(301)),
                "a signature older than the tolerance verified")
        #expect(!WebhookSignature.verify(header: "t=1700000000", body: Self.body, secret: Self.secret, now: now), "no v1 verified")
        #expect(!WebhookSignature.verify(header: "garbage", body: Self.body, secret: Self.secret, now: now))
        // Any v1 may match (a header during a rotation carries two).
        let two = "t=1700000000,v1=00,v1=" + WebhookSignature.mac(body: Self.body, secret: Self.secret, timestamp: 1_700_000_000)
        #expect(WebhookSignature.verify(header: two, body: Self.body, secret: Self.secret, now: now))
    }
}

/// When failed deliveries are tried again.
@Suite("Webhook retries")
struct WebhookRetryTests {
    @Test("1 s, doubling, at most 10 minutes")
    func schedule() {
        let retry = WebhookRetry.standard
        #expect((1...12).map { retry.delay(afterFailures: $0) }
                == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 600, 600].map { Duration.seconds($0) })
        #expect(retry.delay(afterFailures: 10_000) == .seconds(600))
        #expect(retry.giveUpSeconds == 86_400)
        // A receiver down an hour: the attempts in that hour, and how long after its return the next comes at most.
        var elapsed = 0.0, attempts = 0
        while elapsed < 3_600 {
            attempts += 1
            elapsed += retry.delaySeconds(afterFailures: attempts)
        }
        #expect(attempts == 15 && retry.delaySeconds(afterFailures: attempts) == 600)
    }
}

/// What a subscription may ask for.
@Suite("Subscription requests")
struct SubscriptionRequestTests {
    @Test("a good request is kept, without repeats; a rule brings its kind")
    func accepted() throws {
        let checked = try SubscriptionRequest(log: "acme", url: "https://backend.example/hook", eventTypes: ["ConsentRescinded", "ConsentRescinded"],
                                              rules: ["access-after-denial"]).validated()
        #expect(checked.eventTypes == ["ConsentRescinded"] && checked.findingKinds == [.violation] && checked.rules == ["access-after-denial"])
    }

    @Test("each wrong request is refused naming its field", arguments: [
        (SubscriptionRequest(log: "acme", url: "ftp://x.example/", findingKinds: [.violation]), "url"),
        (SubscriptionRequest(log: "acme", url: "https:///nohost", findingKinds: [.violation]), "url"),
        (SubscriptionRequest(log: "acme", url: "https://user:pw@x.example/", findingKinds: [.violation]), "url"),
        (SubscriptionRequest(log: "acme", url: "https://x.example/a b", findingKinds: [.violation]), "url"),
        (SubscriptionRequest(log: "acme", url: "https://x.example/", eventTypes: ["ConsentRevoked"]), "eventTypes"),
        (SubscriptionRequest(log: "acme", url: "https://x.example/", rules: ["no-such-rule"]), "rules"),
        (SubscriptionRequest(log: "acme", url: "https://x.example/"), "eventTypes"),
        (SubscriptionRequest(log: "acme", url: "https://x.example/", findingKinds: [.anomaly], label: String(repeating: "x", count: 201)), "label"),
    ])
    func refused(_ request: SubscriptionRequest, _ field: String) {
        #expect(throws: LedgerError.self) { try request.validated() }
        do {
            _ = try request.validated()
        } catch let error as LedgerError {
            #expect(error.field == field, "\(error)")
            #expect(error.hint != nil || field == "label", "no hint: \(error)")
        } catch {
            Issue.record("not a LedgerError: \(error)")
        }
    }

    @Test("ids are sub_ and twelve of a-z0-9")
    func ids() {
        #expect(Subscription.isID("sub_abcdef012345"))
        #expect(!Subscription.isID("sub_ABCDEF012345") && !Subscription.isID("sub_abc") && !Subscription.isID("key_abcdef012345"))
    }
}

/// A subscription's items: their ids and bodies.
@Suite("Webhook items")
struct WebhookItemTests {
    @Test("an event's id is its position, a finding's <position>.<rule>; the body says which, canonically")
    func bodies() throws {
        let event = WebhookItem(position: 12, content: .event(.init(eventId: "e", type: "ConsentRescinded", stream: "s", subject: nil,
                                                                     occurredAt: "o", recordedAt: "r", record: .object(["a": .number(1)]))))
        let finding = WebhookItem(position: 12, content: .finding(FindingsFeed.Item(
            log: "acme", kind: .violation, rule: "access-after-denial", position: 12, eventId: "e", subject: "p", detail: "d", evidence: [3, 12])))
        #expect(event.id == "12" && finding.id == "12.access-after-denial")
        let body = String(decoding: try event.body(subscription: "sub_abcdef012345", log: "acme"), as: UTF8.self)
        #expect(body == #"{"event":{"eventId":"e","occurredAt":"o","record":{"a":1},"recordedAt":"r","stream":"s","type":"ConsentRescinded"},"id":"12","kind":"event","log":"acme","position":12,"subscription":"sub_abcdef012345"}"#)
        let decoded = try JSONDecoder().decode(WebhookItem.Body.self, from: Data(try finding.body(subscription: "sub_abcdef012345", log: "acme")))
        #expect(decoded.kind == "finding" && decoded.finding?.rule == "access-after-denial" && decoded.event == nil)
    }
}
