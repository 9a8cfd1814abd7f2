import LedgerCore
import Crypto
import Foundation
import SwiftASN1
// The chain is checked at an injected "now" (tests fix it), which X509 offers behind this SPI.
@_spi(FixedExpiryValidationTime) import X509

/// Verifies data the App Store signs (notifications, app transactions): a compact JWS whose
/// header names ES256 and carries the signing chain in `x5c` (leaf first).
///
/// A payload is accepted only when all of these hold (decision 0017):
/// - the header's `alg` is `ES256`;
/// - the `x5c` chain leads to one of the configured root certificates (the root the chain itself
///   carries is never trusted for being there);
/// - the leaf carries Apple's App Store receipt-signing marker (OID 1.2.840.113635.100.6.11.1)
///   and the first intermediate Apple's WWDR intermediate marker (OID 1.2.840.113635.100.6.2.1),
///   as Apple's own App Store Server Library requires;
/// - every certificate of the chain was valid both at the payload's `signedDate` and now: a
///   certificate that has expired since cannot be told apart from a back-dated forgery;
/// - `signedDate` is not more than ``allowedClockSkew`` in the future;
/// - the ES256 signature verifies with the leaf's key.
///
/// Revocation (OCSP) is not checked: the ledger verifies offline.
public struct AppStoreSignedDataVerifier: Sendable {
    /// Apple's marker on the leaf certificate that signs App Store data.
    public static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 11, 1]
    /// Apple's marker on the WWDR intermediate certificate.
    public static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 1]
    /// How far in the future a `signedDate` may be: five minutes.
    public static let allowedClockSkew: TimeInterval = 300

    /// The trusted roots (in production, Apple Root CA - G3).
    public let roots: [Certificate]

    /// A verifier trusting `roots`.
    public init(roots: [Certificate]) {
        self.roots = roots
    }

    /// A verifier trusting the certificates in `pemOrDER` files' contents: each element is one
    /// file, PEM (one or more certificates) or DER (one).
    public init(rootFiles: [[UInt8]]) throws(AppStoreVerificationError) {
        var roots: [Certificate] = []
        for (index, bytes) in rootFiles.enumerated() {
            if let text = String(bytes: bytes, encoding: .utf8), text.contains("-----BEGIN CERTIFICATE-----") {
                guard let documents = try? PEMDocument.parseMultiple(pemString: text),
                      let parsed = try? documents.map({ try Certificate(derEncoded: $0.derBytes) }), !parsed.isEmpty else {
                    throw .badCertificateChain("root file \(index + 1) is PEM but holds no readable certificate")
                }
                roots += parsed
            } else {
                guard let parsed = try? Certificate(derEncoded: bytes) else {
                    throw .badCertificateChain("root file \(index + 1) is neither a PEM nor a DER certificate")
                }
                roots.append(parsed)
            }
        }
        self.init(roots: roots)
    }

    /// Verifies `jws` as of `now` and returns its payload; throws what was wrong.
    public func verify(_ jws: String, now: Date = Date()) async throws(AppStoreVerificationError) -> [String: JSONValue] {
        let parsed = try CompactJWS(jws)
        guard let alg = parsed.header["alg"]?.stringValue else { throw .unsupportedAlgorithm("missing") }
        guard alg == "ES256" else { throw .unsupportedAlgorithm(alg) }
        let chain = try Self.certificates(in: parsed.header["x5c"])
        let signedDate = try Self.signedDate(parsed.payload)
        guard signedDate.timeIntervalSince(now) <= Self.allowedClockSkew else {
            throw .badSignedDate("\(Self.iso(signedDate)) is in the future (now \(Self.iso(now)))")
        }
        for (index, certificate) in chain.enumerated() {
            for (moment, name) in [(signedDate, "signedDate"), (now, "now")]
            where moment < certificate.notValidBefore || moment > certificate.notValidAfter {
                throw .expired("certificate \(index + 1) of x5c (\(certificate.subject)) is valid from "
                    + "\(Self.iso(certificate.notValidBefore)) to \(Self.iso(certificate.notValidAfter)), not at \(name) "
                    + Self.iso(moment))
            }
        }
        try await validateChain(chain, at: now)
        guard let key = P256.Signing.PublicKey(chain[0].publicKey) else {
            throw .badCertificateChain("the leaf certificate's key is not a P-256 key")
        }
        guard parsed.signature.count == 64, let signature = try? P256.Signing.ECDSASignature(rawRepresentation: parsed.signature),
              key.isValidSignature(signature, for: parsed.signingInput) else {
            throw .badSignature
        }
        return parsed.payload
    }

    /// The `x5c` header: standard base64 DER certificates, leaf first, at least leaf and intermediate.
    static func certificates(in x5c: JSONValue?) throws(AppStoreVerificationError) -> [Certificate] {
        guard let entries = x5c?.arrayValue else { throw .badCertificateChain("the header has no x5c array") }
        guard entries.count >= 2 else {
            throw .badCertificateChain("x5c holds \(entries.count) certificate(s); the App Store sends leaf, intermediate and root")
        }
        var certificates: [Certificate] = []
        for (index, entry) in entries.enumerated() {
            guard let text = entry.stringValue, let der = Data(base64Encoded: text),
                  let certificate = try? Certificate(derEncoded: Array(der)) else {
                throw .badCertificateChain("x5c entry \(index + 1) is not a base64 DER certificate")
            }
            certificates.append(certificate)
        }
        return certificates
    }

    /// Builds the chain from the leaf through the header's other certificates to a configured root
    /// and checks it under RFC 5280 at `moment` and under Apple's marker policy. (Validity at
    /// `signedDate` was checked before, for every certificate the header carries.)
    private func validateChain(_ chain: [Certificate], at moment: Date) async throws(AppStoreVerificationError) {
        guard !roots.isEmpty else { throw .untrusted("no root certificate is configured") }
        var verifier = Verifier(rootCertificates: CertificateStore(roots)) {
            RFC5280Policy(fixedExpiryValidationTime: moment)
            AppleMarkerPolicy()
        }
        if case .couldNotValidate(let failures) = await verifier.validate(leaf: chain[0], intermediates: CertificateStore(chain.dropFirst())) {
            let reasons = Set(failures.map { $0.policyFailureReason.description }).sorted()
            throw .untrusted(reasons.isEmpty ? "no path from the leaf to a configured root certificate" : reasons.joined(separator: "; "))
        }
    }

    /// `signedDate`: UNIX milliseconds.
    static func signedDate(_ payload: [String: JSONValue]) throws(AppStoreVerificationError) -> Date {
        guard let value = payload["signedDate"], let millis = value.doubleValue, millis >= 0, millis.rounded() == millis else {
            throw .badSignedDate("signedDate must be a whole number of milliseconds since 1970")
        }
        return Date(timeIntervalSince1970: millis / 1000)
    }

    static func iso(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}

/// Apple's certificate policy for App Store signed data: the leaf carries the App Store marker
/// and the certificate above it the WWDR intermediate marker.
struct AppleMarkerPolicy: VerifierPolicy {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = [
        AppStoreSignedDataVerifier.leafMarker, AppStoreSignedDataVerifier.intermediateMarker,
    ]

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        guard chain.count >= 3 else {
            return .failsToMeetPolicy(reason: "the chain has \(chain.count) certificates; Apple's is leaf, intermediate, root")
        }
        guard chain[0].extensions[oid: AppStoreSignedDataVerifier.leafMarker] != nil else {
            return .failsToMeetPolicy(reason: "the leaf certificate lacks Apple's App Store marker (1.2.840.113635.100.6.11.1)")
        }
        guard chain[1].extensions[oid: AppStoreSignedDataVerifier.intermediateMarker] != nil else {
            return .failsToMeetPolicy(reason: "the intermediate certificate lacks Apple's WWDR marker (1.2.840.113635.100.6.2.1)")
        }
        return .meetsPolicy
    }
}
