/// One resource of the C2SP tlog-tiles read API (docs/proofs.md, "Tiles"): a hash tile
/// `tile/<L>/<N>[.p/<W>]` or an entry bundle `tile/entries/<N>[.p/<W>]`, as parsed from the path
/// segments after `tile/` and written back.
///
/// A hash tile of level `L` holds the `W` consecutive Merkle tree hashes of height `8·L` (complete
/// subtrees of 256^L leaves) with indexes `N·256` to `N·256 + W − 1`; an entry bundle holds the
/// records of leaves `N·256` to `N·256 + W − 1`. `W` is 256 for a full tile.
///
/// ```swift
/// let tile = try TileAddress(segments: ["0", "x001", "234.p", "7"])  // level 0, index 1234, width 7
/// tile.path  // "tile/0/x001/234.p/7"
/// ```
public struct TileAddress: Sendable, Equatable, Hashable {
    /// What the resource holds.
    public enum Kind: Sendable, Equatable, Hashable {
        /// Merkle tree hashes of tree level `8 · level`.
        case hashes(level: Int)
        /// The records themselves, length-prefixed.
        case entries
    }

    /// The tile height of the C2SP specification: a tile covers 8 levels of the tree.
    public static let height = 8
    /// Hashes (or entries) in a full tile.
    public static let fullWidth = 256
    /// The highest tile level (the specification allows 0 to 63; above 7 a tile's first hash
    /// would already cover more than 2^64 leaves).
    public static let maxLevel = 7

    /// Hashes or entries.
    public var kind: Kind
    /// The tile's index within its level.
    public var index: UInt64
    /// How many hashes or entries it holds: 256 for a full tile, 1 to 255 for a partial one.
    public var width: Int

    /// A tile from its parts.
    public init(kind: Kind, index: UInt64, width: Int = TileAddress.fullWidth) {
        self.kind = kind
        self.index = index
        self.width = width
    }

    /// Whether the tile is full (it never changes once the tree has grown past it).
    public var isFull: Bool { width == Self.fullWidth }

    /// The tree level of its hashes (0 for leaf hashes and for entry bundles).
    public var treeLevel: Int {
        switch kind {
        case .hashes(let level): level * Self.height
        case .entries: 0
        }
    }

    /// The index, at ``treeLevel``, of its first hash or entry.
    public var firstNode: UInt64 { index * UInt64(Self.fullWidth) }

    /// The number of leaves the tree must hold for every hash or entry of this tile to exist.
    /// Nil when that number would not fit in 64 bits (no tree has such a tile).
    public var leavesNeeded: UInt64? {
        let (nodes, overflow) = firstNode.addingReportingOverflow(UInt64(width))
        guard !overflow, treeLevel < 64, nodes <= UInt64.max >> UInt64(treeLevel) else { return nil }
        return nodes << UInt64(treeLevel)
    }

    /// Parses the path segments after `tile/`: `<L>` or `entries`, then `<N>` as zero-padded
    /// 3-digit groups, every group but the last starting with `x`, then `.p/<W>` for a partial
    /// tile. Only the one canonical spelling of each tile is accepted.
    public init<S: StringProtocol>(segments: [S]) throws(LedgerError) {
        guard let first = segments.first, segments.count >= 2 else {
            throw Self.malformed("a tile path is tile/<L>/<N>[.p/<W>] or tile/entries/<N>[.p/<W>]")
        }
        var rest = segments.dropFirst().map { String($0) }
        var width = Self.fullWidth
        if rest.count >= 2, rest[rest.count - 2].hasSuffix(".p") {
            let text = rest.removeLast()
            guard let value = Self.decimal(text), (1..<Self.fullWidth).contains(value) else {
                throw Self.malformed("a partial tile's width is a whole number from 1 to 255 without leading zeros, not '\(text)'")
            }
            width = value
            rest[rest.count - 1].removeLast(2)
        }
        let kind: Kind
        if first == "entries" {
            kind = .entries
        } else {
            guard let level = Self.decimal(String(first)), level <= Self.maxLevel else {
                throw Self.malformed("a tile's level is a whole number from 0 to \(Self.maxLevel) without leading zeros, or 'entries', not '\(first)'")
            }
            kind = .hashes(level: level)
        }
        self.init(kind: kind, index: try Self.index(rest), width: width)
    }

    /// The path of the resource, from `tile/`.
    public var path: String {
        let level = switch kind {
        case .hashes(let level): String(level)
        case .entries: "entries"
        }
        return "tile/\(level)/\(Self.encode(index))" + (isFull ? "" : ".p/\(width)")
    }

    /// `N` as C2SP writes it: 1234067 is `x001/x234/067`.
    public static func encode(_ index: UInt64) -> String {
        var groups: [String] = []
        var rest = index
        repeat {
            let group = String(rest % 1000)
            groups.insert(String(repeating: "0", count: 3 - group.count) + group, at: 0)
            rest /= 1000
        } while rest > 0
        return groups.enumerated().map { $0.offset < groups.count - 1 ? "x" + $0.element : $0.element }.joined(separator: "/")
    }

    private static func index(_ groups: [String]) throws(LedgerError) -> UInt64 {
        guard !groups.isEmpty else { throw malformed("a tile path names the tile's index after its level") }
        var value: UInt64 = 0
        for (offset, group) in groups.enumerated() {
            let last = offset == groups.count - 1
            let digits = last ? Substring(group) : group.hasPrefix("x") ? group.dropFirst() : ""
            guard digits.utf8.count == 3, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = UInt64(digits) else {
                throw malformed("the tile index '\(groups.joined(separator: "/"))' is not 3-digit groups, every one but the last "
                                    + "starting with x (1234067 is x001/x234/067)")
            }
            let (times, overflow) = value.multipliedReportingOverflow(by: 1000)
            guard !overflow, times <= UInt64.max - number else { throw malformed("the tile index is too large") }
            value = times + number
        }
        guard encode(value) == groups.joined(separator: "/") else {
            throw malformed("the tile index '\(groups.joined(separator: "/"))' has leading zero groups; write it as \(encode(value))")
        }
        return value
    }

    private static func decimal(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 3, text.allSatisfy({ $0.isASCII && $0.isNumber }),
              text == "0" || !text.hasPrefix("0") else { return nil }
        return Int(text)
    }

    private static func malformed(_ what: String) -> LedgerError {
        LedgerError(.invalidRequest, what, hint: "See docs/proofs.md, \"Tiles\" (the C2SP tlog-tiles paths).")
    }
}
