import Foundation
import LedgerAppStore
import LedgerCore

/// The ledger's parsers of untrusted input, each as one function of arbitrary bytes, for libFuzzer
/// (`tools/fuzz`, the `Fuzz/` package) and for the regression test that runs every input of the
/// corpus in `Tests/Fixtures/fuzz/<target>/` (FuzzCorpusTests).
///
/// A target refusing its input is fine; what must never happen is a crash, a hang, or an accepted
/// input that breaks the target's round trip (checked with `precondition`, so libFuzzer reports it
/// as a crash and keeps the input).
/// ```swift
/// FuzzTarget.json.run(Array(#"{"a":[1,2]}"#.utf8))
/// ```
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// The strict JSON parser: an accepted text encodes (RFC 8785) to bytes that parse back to the
    /// same value and encode to the same bytes.
    case json
    /// One NDJSON line through the whole input check (`EventInput(line:)`): an accepted event's
    /// submission bytes are accepted again with the same canonical bytes.
    case eventInput = "event-input"
    /// A request body of the HTTP API (a JSON array or NDJSON): no more events than allowed.
    case batchBody = "batch-body"
    /// A C2SP signed note (a checkpoint): parsed, its body read as a checkpoint, its signature
    /// checked against a fixed key.
    case signedNote = "signed-note"
    /// A proof bundle (`prove` output), parsed and verified against a fixed key.
    case proofBundle = "proof-bundle"
    /// An App Store signed payload (compact JWS), parsed and verified against no root.
    case appStoreJWS = "app-store-jws"

    /// The largest input worth reading: the ledger's own limits are below it (a 64 KiB event, a
    /// few MiB of body), and libFuzzer's `-max_len` keeps inputs well under it.
    public static let maxInputBytes = 1 << 20

    /// Feeds `bytes` to the target.
    public func run(_ bytes: [UInt8]) {
        guard bytes.count <= Self.maxInputBytes else { return }
        switch self {
        case .json: Self.json(bytes)
        case .eventInput: Self.eventInput(bytes)
        case .batchBody: Self.batchBody(bytes)
        case .signedNote: Self.signedNote(bytes)
        case .proofBundle: Self.proofBundle(bytes)
        case .appStoreJWS: Self.appStoreJWS(bytes)
        }
    }

    private static func json(_ bytes: [UInt8]) {
        guard let value = try? JSONParser.parse(bytes) else { return }
        let canonical = CanonicalJSON.encode(value)
        guard let again = try? JSONParser.parse(canonical) else {
            preconditionFailure("the canonical form of an accepted text does not parse: \(String(decoding: canonical, as: UTF8.self))")
        }
        precondition(again == value, "the canonical form parses to another value")
        precondition(CanonicalJSON.encode(again) == canonical, "the canonical form is not stable")
    }

    private static func eventInput(_ bytes: [UInt8]) {
        guard let input = try? EventInput(line: bytes) else { return }
        guard let again = try? EventInput(line: input.submissionBytes) else {
            preconditionFailure("an accepted event's submission bytes are refused: \(String(decoding: input.submissionBytes, as: UTF8.self))")
        }
        precondition(again.canonicalBytes == input.canonicalBytes, "an accepted event's submission bytes check to another event")
    }

    private static let maxBatchEvents = 16

    private static func batchBody(_ bytes: [UInt8]) {
        guard let events = try? EventBatchBody.events(in: bytes, maxEvents: maxBatchEvents) else { return }
        precondition(!events.isEmpty && events.count <= maxBatchEvents, "a batch of \(events.count) events was accepted")
    }

    /// A fixed Ed25519 verifier key (32 bytes of 0x01): signatures by anyone else must fail cleanly.
    private static let key: NoteVerifierKey? = try? NoteVerifierKey(name: "fuzz.example/log", publicKey: [UInt8](repeating: 1, count: 32))

    private static func signedNote(_ bytes: [UInt8]) {
        guard let note = try? SignedNote(text: String(decoding: bytes, as: UTF8.self)) else { return }
        _ = try? Checkpoint(body: note.body)
        if let key { _ = try? note.verify(with: key) }
    }

    private static func proofBundle(_ bytes: [UInt8]) {
        guard let bundle = try? ProofBundle(json: bytes), let key else { return }
        _ = try? ProofBundleVerifier.verify(bundle, key: key)
    }

    private static func appStoreJWS(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard (try? CompactJWS(text)) != nil else { return }
        // The verifier is async; the fuzzer calls synchronously, so wait for it here.
        let done = DispatchSemaphore(value: 0)
        Task {
            _ = try? await AppStoreSignedDataVerifier(roots: []).verify(text, now: Date(timeIntervalSince1970: 1_790_000_000))
            done.signal()
        }
        done.wait()
    }
}
