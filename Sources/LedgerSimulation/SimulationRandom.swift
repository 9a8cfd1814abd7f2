import LedgerCore
/// The simulator's source of randomness: SplitMix64 (Steele, Lea and Flood, 2014), written out
/// here so that a seed gives the same numbers on every platform and every Swift release.
///
/// It deliberately does not conform to `RandomNumberGenerator`: the standard library's
/// `random(in:using:)` and `shuffled(using:)` do not promise how many numbers they draw or how
/// they map them, so the simulator uses only the helpers below, whose arithmetic is fixed.
struct SimulationRandom {
    private var state: UInt64

    /// Starts the sequence at `seed`.
    init(seed: UInt64) { state = seed }

    /// Starts an independent sequence for one part of the simulation (a family, an app, the ids
    /// of a family): `seed` mixed with the part's labels.
    init(seed: UInt64, _ labels: UInt64...) {
        var mixed = Self.mix(seed ^ 0x5EED_C0DE_1ED6_E400)
        for label in labels { mixed = Self.mix(mixed ^ Self.mix(label &+ 0x9E37_79B9_7F4A_7C15)) }
        state = mixed
    }

    /// The SplitMix64 finalizer: a bijection of 64-bit words that scatters every input bit.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// FNV-1a of a string's UTF-8 bytes, to turn a text label (the log's name) into a seed part.
    static func label(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// A number in `0..<count` (`count` at least 1), by Lemire's multiply-high mapping.
    mutating func below(_ count: Int) -> Int {
        precondition(count > 0, "below(_:) needs a positive count")
        return Int(next().multipliedFullWidth(by: UInt64(count)).high)
    }

    /// A number in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// A number in `range`, as the 64-bit seconds the clock counts in.
    mutating func seconds(_ range: ClosedRange<Int>) -> Int64 { Int64(int(range)) }

    /// A uniform number in [0, 1) with 53 random bits.
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// True with probability `probability`.
    mutating func chance(_ probability: Double) -> Bool { unit() < probability }

    /// One element of a non-empty array.
    mutating func pick<Element>(_ elements: [Element]) -> Element { elements[below(elements.count)] }

    /// One of `choices`, each as likely as its weight (weights at least 0, not all 0).
    mutating func weighted<Element>(_ choices: [(Element, Int)]) -> Element {
        let total = choices.reduce(0) { $0 + $1.1 }
        precondition(total > 0, "weighted(_:) needs a positive total weight")
        var roll = below(total)
        for (element, weight) in choices {
            if roll < weight { return element }
            roll -= weight
        }
        return choices[choices.count - 1].0
    }
}
