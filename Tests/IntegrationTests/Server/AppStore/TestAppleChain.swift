import Crypto
import Foundation
import LedgerCore
import SwiftASN1
import X509
import LedgerAppStore

/// A certificate chain shaped like Apple's (root, WWDR-style intermediate, App Store leaf, each
/// with its marker extension), generated afresh for the tests, and a signer of App Store JWS with it.
struct TestAppleChain {
    let rootKey = P256.Signing.PrivateKey()
    let intermediateKey = P256.Signing.PrivateKey()
    let leafKey = P256.Signing.PrivateKey()
    let root: Certificate
    let intermediate: Certificate
    let leaf: Certificate

    /// A chain valid from a day ago for a year; the leaf's validity is `leafValidity` when given,
    /// and `leafMarker: false` leaves Apple's marker off the leaf.
    init(name: String = "Test", leafValidity: ClosedRange<Date>? = nil, leafMarker: Bool = true) throws {
        let now = Date()
        let start = now.addingTimeInterval(-30 * 86_400), end = now.addingTimeInterval(365 * 86_400)
        let rootName = try DistinguishedName { CommonName("\(name) Root CA - G3"); OrganizationName("\(name) Apple") }
        let intermediateName = try DistinguishedName { CommonName("\(name) WWDR CA - G6"); OrganizationName("\(name) Apple") }
        let leafName = try DistinguishedName { CommonName("\(name) Mac App Store and iTunes Store Receipt Signing") }
        root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(rootKey.publicKey), notValidBefore: start, notValidAfter: end,
            issuer: rootName, subject: rootName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(rootKey))
        intermediate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(intermediateKey.publicKey), notValidBefore: start, notValidAfter: end,
            issuer: rootName, subject: intermediateName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                Certificate.Extension(oid: AppStoreSignedDataVerifier.intermediateMarker, critical: false, value: [0x05, 0x00])
            },
            issuerPrivateKey: .init(rootKey))
        let validity = leafValidity ?? start...end
        leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(leafKey.publicKey),
            notValidBefore: validity.lowerBound, notValidAfter: validity.upperBound,
            issuer: intermediateName, subject: leafName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                if leafMarker {
                    Certificate.Extension(oid: AppStoreSignedDataVerifier.leafMarker, critical: false, value: [0x05, 0x00])
                }
            },
            issuerPrivateKey: .init(intermediateKey))
    }

    /// The root's DER bytes, as a `--app-store-root` file holds it.
    var rootDER: [UInt8] { Self.der(root) }

    /// The root as PEM.
    var rootPEM: String { (try? root.serializeAsPEM().pemString) ?? "" }

    /// `payload` signed as the App Store signs: ES256, x5c leaf, intermediate, root.
    /// `alg` and `key` let a test forge.
    func sign(_ payload: JSONValue, alg: String = "ES256", key: P256.Signing.PrivateKey? = nil) throws -> String {
        let header: JSONValue = .object([
            "alg": .string(alg),
            "x5c": .array([leaf, intermediate, root].map { .string(Data(Self.der($0)).base64EncodedString()) }),
        ])
        let input = Base64URL.encode(CanonicalJSON.encode(header)) + "." + Base64URL.encode(CanonicalJSON.encode(payload))
        let signature = try (key ?? leafKey).signature(for: Array(input.utf8))
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }

    static func der(_ certificate: Certificate) -> [UInt8] {
        var serializer = DER.Serializer()
        try? serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    /// A `RESCIND_CONSENT` payload signed now (or at `signedDate`), with a signed app transaction.
    func rescindConsent(uuid: String = UUID().uuidString.lowercased(), signedDate: Date = Date(),
                        bundleId: String = "com.example.kidsdraw", type: String = "RESCIND_CONSENT",
                        environment: String = "Production") throws -> String {
        let millis = Double(Int(signedDate.timeIntervalSince1970 * 1000))
        let transaction = try sign(.object([
            "appTransactionId": "704567890123456789", "bundleId": .string(bundleId), "environment": .string(environment),
            "signedDate": .number(millis), "receiptType": "Production",
        ]))
        return try sign(.object([
            "notificationType": .string(type), "notificationUUID": .string(uuid), "version": "2.0", "signedDate": .number(millis),
            "appData": .object([
                "appAppleId": 6_471_234_567, "bundleId": .string(bundleId), "environment": .string(environment),
                "signedAppTransactionInfo": .string(transaction),
            ]),
        ]))
    }
}
