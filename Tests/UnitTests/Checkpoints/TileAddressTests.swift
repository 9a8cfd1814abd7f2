import LedgerCore
import Testing

/// C2SP tlog-tiles paths (docs/proofs.md, "Tiles"): the specification's own example, partial
/// tiles, and the spellings it does not allow.
@Suite("C2SP tile paths")
struct TileAddressTests {
    @Test("the specification's example: index 1234067 is x001/x234/067; paths read back to the same tile")
    func encoding() throws {
        #expect(TileAddress.encode(1_234_067) == "x001/x234/067")
        #expect(TileAddress.encode(0) == "000")
        #expect(TileAddress.encode(1000) == "x001/000")
        for (segments, tile) in [
            (["0", "x001", "x234", "067"], TileAddress(kind: .hashes(level: 0), index: 1_234_067)),
            (["3", "000.p", "17"], TileAddress(kind: .hashes(level: 3), index: 0, width: 17)),
            (["entries", "x001", "234.p", "255"], TileAddress(kind: .entries, index: 1234, width: 255)),
        ] {
            let parsed = try TileAddress(segments: segments)
            #expect(parsed == tile)
            #expect(parsed.path == "tile/" + segments.joined(separator: "/"))
        }
    }

    @Test("what a tile needs of the tree: a level-1 tile of width 2 needs 512 leaves; a partial level-0 tile its last leaf")
    func leavesNeeded() {
        #expect(TileAddress(kind: .hashes(level: 1), index: 0, width: 2).leavesNeeded == 512)
        #expect(TileAddress(kind: .hashes(level: 0), index: 2, width: 88).leavesNeeded == 600)
        #expect(TileAddress(kind: .entries, index: 1).leavesNeeded == 512)
        #expect(TileAddress(kind: .hashes(level: 7), index: 1).leavesNeeded == nil, "more than 2^64 leaves")
    }

    @Test("spellings the specification does not allow are refused, each saying why")
    func refused() {
        for segments in [["0"], ["0", "2"], ["0", "x000", "001"], ["0", "001", "002"], ["0", "x1", "000"], ["0", "000.p", "0"],
                         ["0", "000.p", "256"], ["0", "000.p", "07"], ["8", "000"], ["01", "000"], ["-1", "000"], ["entries"],
                         ["0", "000.p"], ["0", "x99999999", "000"]] {
            #expect(throws: LedgerError.self, "\(segments)") { try TileAddress(segments: segments) }
        }
    }
}
