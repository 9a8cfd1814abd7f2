import Crypto
import Foundation

/// How a webhook delivery is signed, the way Stripe signs its webhooks: the header
/// `ConsentLedger-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`, where the
/// secret is the subscription's `whsec_…` string as UTF-8 bytes. A receiver recomputes the HMAC over
/// the raw body it received, compares in constant time, and refuses a `t` more than
/// ``tolerance`` from its clock (a replayed old delivery). docs/subscriptions.md shows the check in
/// Swift, Python and a shell line.
public enum WebhookSignature {
    /// The header's name.
    public static let header = "ConsentLedger-Signature"
    /// How far from the receiver's clock a timestamp may be: five minutes, as Stripe's libraries.
    public static let tolerance: TimeInterval = 300

    /// The hex HMAC-SHA256 of `"<timestamp>.<body>"` under `secret`.
    public static func mac(body: some Collection<UInt8>, secret: String, timestamp: Int64) -> String {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: Array(secret.utf8)))
        hmac.update(data: Array("\(timestamp).".utf8))
        hmac.update(data: Array(body))
        return LedgerHash.hex(Array(hmac.finalize()))
    }

    /// The header's value for `body` sent at `timestamp` (unix seconds).
    public static func header(body: some Collection<UInt8>, secret: String, timestamp: Int64) -> String {
        "t=\(timestamp),v1=\(mac(body: body, secret: secret, timestamp: timestamp))"
    }

    /// Whether `header` signs `body` under `secret` with a timestamp within ``tolerance`` of `now`.
    /// Any `v1` of the header may match (a receiver may be sent several during a secret's rotation).
    public static func verify(header: String, body: some Collection<UInt8>, secret: String, now: Date = Date(),
                              tolerance: TimeInterval = tolerance) -> Bool {
        var timestamp: Int64?
        var signatures: [String] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            switch pair[0].trimmingCharacters(in: .whitespaces) {
            case "t": timestamp = Int64(pair[1])
            case "v1": signatures.append(String(pair[1]))
            default: continue
            }
        }
        guard let timestamp, abs(now.timeIntervalSince1970 - TimeInterval(timestamp)) <= tolerance else { return false }
        let expected = Array(mac(body: body, secret: secret, timestamp: timestamp).utf8)
        return signatures.contains { given in
            let given = Array(given.utf8)
            // Every byte is looked at whatever the first difference.
            return given.count == expected.count && zip(given, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
        }
    }
}
