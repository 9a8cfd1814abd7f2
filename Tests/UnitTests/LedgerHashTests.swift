import LedgerCore
import Testing

/// `LedgerHash`: leaf = SHA-256(0x00 || record), chain = SHA-256(previous || leaf), genesis = 32
/// zero bytes. Expected values were computed independently with Python's hashlib, e.g.
/// `python3 -c 'import hashlib; print(hashlib.sha256(b"\x00abc").hexdigest())'`.
@Suite("LedgerHash")
struct LedgerHashTests {
    /// hashlib.sha256(b"\x00").hexdigest()
    static let leafOfEmpty = "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d"
    /// hashlib.sha256(b"\x00abc").hexdigest()
    static let leafOfABC = "609f6e36d2405585188d5cfd761f407c7cc46a7d3f314c88270469dde315fcd1"
    /// hashlib.sha256(b"\x00hello").hexdigest()
    static let leafOfHello = "8a2a5c9b768827de5a9552c38a044c66959c68f6d2f21b5260af54d2f87db827"
    /// hashlib.sha256(bytes(32) + sha256(b"\x00abc").digest()).hexdigest()
    static let chainGenesisABC = "83f951ac32b0a436bb35b6d534ec7fdb390d5cc51637028197883dd0c5f4b83d"
    /// hashlib.sha256(bytes(32) + sha256(b"\x00").digest()).hexdigest()
    static let chainGenesisEmpty = "64fdb2b463190df45dc976206ce8111d8c83680ddeb86778b7f9982d6822de6a"
    /// hashlib.sha256(<chainGenesisABC bytes> + sha256(b"\x00hello").digest()).hexdigest()
    static let chainABCHello = "79cc59be2032714b18a190bbc4db2d66d18b936c6aca16ab36a48b4950053603"
    /// hashlib.sha256(b"").hexdigest()
    static let sha256OfEmpty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    /// hashlib.sha256(b"abc").hexdigest() (FIPS 180-2 example)
    static let sha256OfABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    /// hashlib.sha256(b"\x00" + record).hexdigest() for `sampleRecord`.
    static let sampleRecord = #"{"event":{"a":1},"log":"acme","position":1,"recordedAt":"2026-11-22T10:15:00.123456Z","streamVersion":1}"#
    static let leafOfSampleRecord = "3ec9b164f870269a24b8f0247a2fad3ec9f846ccbf0fc9b078c45e697b9576a6"

    @Test("genesis is 32 zero bytes")
    func genesis() {
        #expect(LedgerHash.genesis.count == 32)
        #expect(LedgerHash.genesis.allSatisfy { $0 == 0 })
        #expect(LedgerHash.hex(LedgerHash.genesis) == String(repeating: "0", count: 64))
    }

    @Test("leaf of the empty record")
    func leafEmpty() {
        let leaf = LedgerHash.leaf([UInt8]())
        #expect(leaf.count == 32)
        #expect(leaf == TestEvents.bytes(hex: Self.leafOfEmpty))
        #expect(TestEvents.hex(leaf) == Self.leafOfEmpty)
    }

    @Test("leaf of known bytes", arguments: [
        ("abc", leafOfABC), ("hello", leafOfHello), (sampleRecord, leafOfSampleRecord),
    ])
    func leafKnown(text: String, expected: String) {
        #expect(LedgerHash.leaf(Array(text.utf8)) == TestEvents.bytes(hex: expected))
        // Any sequence of bytes gives the same leaf.
        #expect(LedgerHash.leaf(text.utf8) == TestEvents.bytes(hex: expected))
        #expect(LedgerHash.leaf(Array(text.utf8)[...]) == TestEvents.bytes(hex: expected))
    }

    @Test("leaf is domain-separated: it is not plain SHA-256 of the record")
    func leafIsPrefixed() {
        let record = Array("abc".utf8)
        #expect(LedgerHash.leaf(record) != LedgerHash.sha256(record))
        #expect(LedgerHash.leaf(record) == LedgerHash.sha256([0x00] + record))
    }

    @Test("the leaf hash equals the RFC 9162 Merkle leaf hash")
    func leafMatchesMerkle() {
        for text in ["", "abc", Self.sampleRecord] {
            #expect(LedgerHash.leaf(Array(text.utf8)) == MerkleHash.leaf(Array(text.utf8)))
        }
    }

    @Test("chain from genesis")
    func chainFromGenesis() {
        let abc = LedgerHash.chain(previous: LedgerHash.genesis, leaf: LedgerHash.leaf(Array("abc".utf8)))
        #expect(abc == TestEvents.bytes(hex: Self.chainGenesisABC))
        let empty = LedgerHash.chain(previous: LedgerHash.genesis, leaf: LedgerHash.leaf([UInt8]()))
        #expect(empty == TestEvents.bytes(hex: Self.chainGenesisEmpty))
    }

    @Test("chain of two links")
    func chainTwoLinks() {
        let first = LedgerHash.chain(previous: LedgerHash.genesis, leaf: LedgerHash.leaf(Array("abc".utf8)))
        let second = LedgerHash.chain(previous: first, leaf: LedgerHash.leaf(Array("hello".utf8)))
        #expect(second == TestEvents.bytes(hex: Self.chainABCHello))
        // Order matters.
        let swapped = LedgerHash.chain(previous: LedgerHash.leaf(Array("hello".utf8)), leaf: first)
        #expect(swapped != second)
    }

    @Test("chain is SHA-256 of the concatenation, with no prefix")
    func chainIsConcatenation() {
        let previous = TestEvents.bytes(hex: Self.chainGenesisABC)
        let leaf = TestEvents.bytes(hex: Self.leafOfHello)
        #expect(LedgerHash.chain(previous: previous, leaf: leaf) == LedgerHash.sha256(previous + leaf))
    }

    @Test("plain sha256 of known inputs")
    func sha256Known() {
        #expect(LedgerHash.sha256([UInt8]()) == TestEvents.bytes(hex: Self.sha256OfEmpty))
        #expect(LedgerHash.sha256(Array("abc".utf8)) == TestEvents.bytes(hex: Self.sha256OfABC))
    }

    @Test("hex is lowercase, two digits a byte, in order")
    func hexFormatting() {
        #expect(LedgerHash.hex([UInt8]()) == "")
        #expect(LedgerHash.hex([0x00]) == "00")
        #expect(LedgerHash.hex([0x0f]) == "0f")
        #expect(LedgerHash.hex([0xf0]) == "f0")
        #expect(LedgerHash.hex([0x00, 0x01, 0x7f, 0x80, 0xab, 0xcd, 0xef, 0xff]) == "00017f80abcdefff")
        #expect(LedgerHash.hex(Array(0...255)) == TestEvents.hex(Array(0...255)))
        #expect(LedgerHash.hex(LedgerHash.leaf([UInt8]())) == Self.leafOfEmpty)
    }
}
