import Foundation

/// A self-contained proof, as `consent-ledger prove` writes it and `verify-proof` (and
/// tools/verify-proof.py) reads it: the signed checkpoint, and an inclusion proof of one record,
/// a consistency proof from an earlier tree size, or both. The format is docs/proofs.md.
public struct ProofBundle: Sendable, Equatable {
    /// The value of the `format` member.
    public static let format = "consent-ledger-proof/1"

    /// What the bundle proves first.
    public enum Kind: String, Sendable {
        /// A record is a leaf of the checkpoint's tree.
        case inclusion
        /// The checkpoint's tree extends an earlier tree.
        case consistency
    }

    /// A record and its audit path.
    public struct Inclusion: Sendable, Equatable {
        /// The record's log position (leaf index + 1).
        public var position: UInt64
        /// The leaf index (position − 1).
        public var leafIndex: UInt64
        /// The size of the tree the path is for (the checkpoint's).
        public var treeSize: UInt64
        /// The exact bytes that were hashed.
        public var record: [UInt8]
        /// `SHA-256(0x00 || record)`.
        public var leafHash: [UInt8]
        /// RFC 9162 audit path, nearest sibling first.
        public var path: [[UInt8]]

        /// An inclusion member from its parts.
        public init(position: UInt64, leafIndex: UInt64, treeSize: UInt64, record: [UInt8], leafHash: [UInt8], path: [[UInt8]]) {
            self.position = position
            self.leafIndex = leafIndex
            self.treeSize = treeSize
            self.record = record
            self.leafHash = leafHash
            self.path = path
        }
    }

    /// A consistency proof from an earlier tree to the checkpoint's.
    public struct Consistency: Sendable, Equatable {
        /// The earlier tree's size.
        public var fromSize: UInt64
        /// The earlier tree's root.
        public var fromRoot: [UInt8]
        /// The checkpoint's size.
        public var toSize: UInt64
        /// RFC 9162 `PROOF(fromSize, D[toSize])`.
        public var path: [[UInt8]]

        /// A consistency member from its parts.
        public init(fromSize: UInt64, fromRoot: [UInt8], toSize: UInt64, path: [[UInt8]]) {
            self.fromSize = fromSize
            self.fromRoot = fromRoot
            self.toSize = toSize
            self.path = path
        }
    }

    /// What the bundle proves first.
    public var kind: Kind
    /// The log id.
    public var log: String
    /// The signed checkpoint's note text.
    public var checkpoint: String
    /// Present exactly when `kind` is `.inclusion`.
    public var inclusion: Inclusion?
    /// Required when `kind` is `.consistency`; optional otherwise.
    public var consistency: Consistency?

    /// A bundle from its parts.
    public init(kind: Kind, log: String, checkpoint: String, inclusion: Inclusion? = nil, consistency: Consistency? = nil) {
        self.kind = kind
        self.log = log
        self.checkpoint = checkpoint
        self.inclusion = inclusion
        self.consistency = consistency
    }

    /// The bundle's file bytes, as `consent-ledger prove` writes them and the HTTP API answers:
    /// its canonical JSON and a newline.
    public var bytes: [UInt8] { CanonicalJSON.encode(json) + [0x0A] }

    /// The bundle as JSON (RFC 8785 canonical, so the same proof is always the same bytes).
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "format": .string(Self.format), "kind": .string(kind.rawValue), "log": .string(log), "checkpoint": .string(checkpoint),
        ]
        if let inclusion {
            object["inclusion"] = [
                "position": .number(Double(inclusion.position)), "leafIndex": .number(Double(inclusion.leafIndex)),
                "treeSize": .number(Double(inclusion.treeSize)), "record": .string(Data(inclusion.record).base64EncodedString()),
                "leafHash": .string(LedgerHash.hex(inclusion.leafHash)), "path": .array(inclusion.path.map { .string(LedgerHash.hex($0)) }),
            ]
        }
        if let consistency {
            object["consistency"] = [
                "fromSize": .number(Double(consistency.fromSize)), "fromRoot": .string(LedgerHash.hex(consistency.fromRoot)),
                "toSize": .number(Double(consistency.toSize)), "path": .array(consistency.path.map { .string(LedgerHash.hex($0)) }),
            ]
        }
        return .object(object)
    }

    /// Parses a bundle's JSON. Throws ``LedgerError`` (``LedgerError/Code/invalidField``) naming
    /// the member that is missing or malformed.
    public init(json bytes: [UInt8]) throws(LedgerError) {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch {
            throw LedgerError(.invalidJSON, "the proof bundle is not JSON: \(error.description)")
        }
        let reader = BundleReader(value: value)
        try reader.onlyMembers(["format", "kind", "log", "checkpoint", "inclusion", "consistency"])
        guard try reader.string("format") == Self.format else {
            throw LedgerError(.invalidField, "not a ConsentLedger proof bundle: format is not \(Self.format)", field: "format")
        }
        guard let kind = Kind(rawValue: try reader.string("kind")) else {
            throw LedgerError(.invalidField, "kind must be inclusion or consistency", field: "kind")
        }
        self.kind = kind
        self.log = try reader.string("log")
        self.checkpoint = try reader.string("checkpoint")
        if let inclusion = try reader.object("inclusion") {
            let proof = BundleReader(value: inclusion, path: "inclusion.")
            try proof.onlyMembers(["position", "leafIndex", "treeSize", "record", "leafHash", "path"])
            guard let record = Data(base64Encoded: try proof.string("record")) else {
                throw LedgerError(.invalidField, "not base64", field: "inclusion.record")
            }
            self.inclusion = Inclusion(position: try proof.count("position"), leafIndex: try proof.count("leafIndex"),
                                       treeSize: try proof.count("treeSize"), record: Array(record),
                                       leafHash: try proof.hash("leafHash"), path: try proof.hashes("path"))
        } else {
            self.inclusion = nil
        }
        if let consistency = try reader.object("consistency") {
            let proof = BundleReader(value: consistency, path: "consistency.")
            try proof.onlyMembers(["fromSize", "fromRoot", "toSize", "path"])
            self.consistency = Consistency(fromSize: try proof.count("fromSize"), fromRoot: try proof.hash("fromRoot"),
                                           toSize: try proof.count("toSize"), path: try proof.hashes("path"))
        } else {
            self.consistency = nil
        }
        if kind == .inclusion, inclusion == nil {
            throw LedgerError(.missingField, "an inclusion bundle needs its inclusion member", field: "inclusion")
        }
        if kind == .consistency, inclusion != nil {
            throw LedgerError(.unknownField, "a consistency bundle has no inclusion member", field: "inclusion")
        }
        if kind == .consistency, consistency == nil {
            throw LedgerError(.missingField, "a consistency bundle needs its consistency member", field: "consistency")
        }
    }
}

/// Reads typed members of a bundle's JSON, naming the member on error.
private struct BundleReader {
    var value: JSONValue
    var path = ""

    /// Refuses members the format does not define (a typo must not pass for an absent member).
    func onlyMembers(_ names: Set<String>) throws(LedgerError) {
        guard let object = value.objectValue else { throw LedgerError(.invalidField, "not a JSON object", field: path.isEmpty ? nil : String(path.dropLast())) }
        if let unknown = object.keys.sorted().first(where: { !names.contains($0) }) {
            throw LedgerError(.unknownField, "not a member of a proof bundle", field: path + unknown)
        }
    }

    func member(_ name: String) throws(LedgerError) -> JSONValue {
        guard let member = value[name], !member.isNull else {
            throw LedgerError(.missingField, "missing", field: path + name)
        }
        return member
    }

    func string(_ name: String) throws(LedgerError) -> String {
        guard let string = try member(name).stringValue else { throw LedgerError(.invalidField, "not a string", field: path + name) }
        return string
    }

    func object(_ name: String) throws(LedgerError) -> JSONValue? {
        guard let member = value[name], !member.isNull else { return nil }
        guard member.objectValue != nil else { throw LedgerError(.invalidField, "not an object", field: path + name) }
        return member
    }

    func count(_ name: String) throws(LedgerError) -> UInt64 {
        guard let number = try member(name).doubleValue, number >= 0, number <= 9_007_199_254_740_991, number.rounded() == number else {
            throw LedgerError(.invalidField, "not a whole number from 0 to 2^53 - 1", field: path + name)
        }
        return UInt64(number)
    }

    func hash(_ name: String) throws(LedgerError) -> [UInt8] {
        try Self.hexHash(try string(name), field: path + name)
    }

    func hashes(_ name: String) throws(LedgerError) -> [[UInt8]] {
        guard let array = try member(name).arrayValue else { throw LedgerError(.invalidField, "not an array", field: path + name) }
        var result: [[UInt8]] = []
        for (index, element) in array.enumerated() {
            guard let text = element.stringValue else {
                throw LedgerError(.invalidField, "not a string", field: "\(path)\(name)[\(index)]")
            }
            result.append(try Self.hexHash(text, field: "\(path)\(name)[\(index)]"))
        }
        return result
    }

    /// 64 lowercase hex digits.
    static func hexHash(_ text: String, field: String) throws(LedgerError) -> [UInt8] {
        let digits = Array(text.utf8)
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
            default: return nil
            }
        }
        guard digits.count == 2 * MerkleHash.byteCount else {
            throw LedgerError(.invalidField, "a hash is 64 lowercase hex digits, this is \(digits.count) characters", field: field)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(MerkleHash.byteCount)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else {
                throw LedgerError(.invalidField, "a hash is 64 lowercase hex digits", field: field)
            }
            bytes.append(high << 4 | low)
        }
        return bytes
    }
}
