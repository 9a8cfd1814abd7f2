import LedgerCore
/// An App Store age rating: the code MarketplaceKit uses and the label App Store Connect shows.
struct SimulatedRating: Equatable {
    /// 100, 200, 313, 416 or 618.
    let code: Int
    /// `4+`, `9+`, `13+`, `16+` or `18+`.
    let label: String

    /// The ratings from lowest to highest.
    static let ladder: [SimulatedRating] = [
        SimulatedRating(code: 100, label: "4+"), SimulatedRating(code: 200, label: "9+"),
        SimulatedRating(code: 313, label: "13+"), SimulatedRating(code: 416, label: "16+"),
        SimulatedRating(code: 618, label: "18+"),
    ]

    /// The rating with `code`.
    static func code(_ code: Int) -> SimulatedRating { ladder.first { $0.code == code }! }

    /// The next rating up (18+ stays 18+).
    var raised: SimulatedRating {
        let index = Self.ladder.firstIndex(of: self)!
        return Self.ladder[min(index + 1, Self.ladder.count - 1)]
    }
}

/// One kind of significant change an app may ship: the sentence shown to parents and the feature
/// it gates.
struct ChangeIdea {
    /// The description after "Version <major.minor> " (`adds drawing together with friends…`).
    let text: String
    /// The feature the change adds, gated by the app (`AccessGateApplied.feature`).
    let feature: String
    /// Whether the change raises the App Store age rating by one step.
    let raisesRating: Bool
}

/// A simulated app that uses DeclaredAgeRange (and PermissionKit, and on Android Play Age
/// Signals): fixed traits from the catalogue below.
struct AppTemplate {
    /// Its short name, used in change ids (`kidsdraw-3.1.0`).
    let name: String
    /// Bundle id / package name.
    let bundleId: String
    /// Its `AppleItemID` / `appAppleId`.
    let appleItemID: Int
    /// The gates it passes to `requestAgeRange`.
    let ageGates: [Int]
    /// Its age rating before any change in the simulation.
    let rating: Int
    /// Whether it is also on Google Play.
    let onAndroid: Bool
    /// The ages of the people who use it, and how likely one of them does.
    let ages: ClosedRange<Int>
    /// The share of people of a fitting age who use it.
    let popularity: Double
    /// The feature opened once the age range is known.
    let baseFeature: String
    /// Whether children ask their parents (PermissionKit communication topic) to talk to someone.
    let communication: Bool
    /// Whether it sells something (purchases re-check the age range).
    var shop: Bool { ["kidsdraw", "worldcraft", "bankly"].contains(name) }
    /// The major and minor version at the start.
    let version: (major: Int, minor: Int)
    /// The significant changes it ships, in order (then again from the first, with new versions).
    let ideas: [ChangeIdea]

    /// The apps of the simulation.
    static let catalogue: [AppTemplate] = [
        AppTemplate(name: "kidsdraw", bundleId: "com.example.kidsdraw", appleItemID: 6_471_234_501, ageGates: [13, 16, 18],
                    rating: 200, onAndroid: false, ages: 4...14, popularity: 0.55, baseFeature: "drawing",
                    communication: false, version: (3, 0), ideas: [
                        ChangeIdea(text: "adds drawing together with friends in shared rooms.", feature: "sharedRooms", raisesRating: true),
                        ChangeIdea(text: "lets children send finished drawings to friends.", feature: "sendDrawings", raisesRating: false),
                        ChangeIdea(text: "adds a sticker shop with in-app purchases.", feature: "stickerShop", raisesRating: false),
                        ChangeIdea(text: "adds voice chat while drawing together.", feature: "voiceChat", raisesRating: true),
                    ]),
        AppTemplate(name: "quizquest", bundleId: "com.example.quizquest", appleItemID: 6_471_234_503, ageGates: [10, 13, 16],
                    rating: 100, onAndroid: true, ages: 6...15, popularity: 0.45, baseFeature: "quizzes",
                    communication: false, version: (5, 2), ideas: [
                        ChangeIdea(text: "adds live quiz battles against other players.", feature: "liveBattles", raisesRating: false),
                        ChangeIdea(text: "adds a leaderboard that shows players' nicknames.", feature: "leaderboard", raisesRating: false),
                        ChangeIdea(text: "adds chat during quiz battles.", feature: "battleChat", raisesRating: true),
                    ]),
        AppTemplate(name: "worldcraft", bundleId: "com.example.worldcraft", appleItemID: 6_471_234_504, ageGates: [13, 16, 18],
                    rating: 200, onAndroid: true, ages: 8...40, popularity: 0.4, baseFeature: "singlePlayer",
                    communication: true, version: (12, 4), ideas: [
                        ChangeIdea(text: "adds multiplayer worlds hosted by other players.", feature: "multiplayer", raisesRating: false),
                        ChangeIdea(text: "adds text chat with other players in shared worlds.", feature: "gameChat", raisesRating: true),
                        ChangeIdea(text: "adds a market for items made by other players, paid with coins.", feature: "itemMarket",
                                   raisesRating: false),
                    ]),
        AppTemplate(name: "chatterbox", bundleId: "com.example.chatterbox", appleItemID: 6_471_234_502, ageGates: [13, 16, 18],
                    rating: 313, onAndroid: true, ages: 11...70, popularity: 0.5, baseFeature: "messaging",
                    communication: true, version: (8, 1), ideas: [
                        ChangeIdea(text: "adds video calls with up to eight people.", feature: "groupVideoCalls", raisesRating: false),
                        ChangeIdea(text: "adds public channels that anyone can join.", feature: "publicChannels", raisesRating: true),
                        ChangeIdea(text: "lets friends see each other's location on a map.", feature: "locationSharing",
                                   raisesRating: false),
                    ]),
        AppTemplate(name: "streamsquad", bundleId: "com.example.streamsquad", appleItemID: 6_471_234_505, ageGates: [13, 18],
                    rating: 313, onAndroid: true, ages: 13...55, popularity: 0.35, baseFeature: "watch",
                    communication: false, version: (2, 7), ideas: [
                        ChangeIdea(text: "lets you stream live from your own camera.", feature: "goLive", raisesRating: true),
                        ChangeIdea(text: "adds direct messages between viewers.", feature: "viewerMessages", raisesRating: false),
                    ]),
        AppTemplate(name: "fitpals", bundleId: "com.example.fitpals", appleItemID: 6_471_234_506, ageGates: [16, 18],
                    rating: 100, onAndroid: true, ages: 15...70, popularity: 0.3, baseFeature: "tracking",
                    communication: false, version: (4, 0), ideas: [
                        ChangeIdea(text: "shares your workouts on a public feed.", feature: "publicFeed", raisesRating: false),
                        ChangeIdea(text: "adds challenges with people nearby.", feature: "nearbyChallenges", raisesRating: false),
                    ]),
        AppTemplate(name: "bankly", bundleId: "com.example.bankly", appleItemID: 6_471_234_507, ageGates: [18, 21],
                    rating: 416, onAndroid: false, ages: 18...90, popularity: 0.35, baseFeature: "payments",
                    communication: false, version: (6, 3), ideas: [
                        ChangeIdea(text: "adds card payments between friends.", feature: "friendPayments", raisesRating: false),
                        ChangeIdea(text: "adds trading in crypto assets.", feature: "cryptoTrading", raisesRating: true),
                    ]),
    ]

    /// The MarketplaceKit marketplace children install other apps through.
    static let marketplaceBundleId = "com.example.marketplace"
    /// The marketplace's version.
    static let marketplaceVersion = "1.4.2"
    /// Apps offered in the marketplace: `AppleItemID` and age-rating code.
    static let marketplaceItems: [(appleItemID: Int, rating: Int)] = [
        (6_480_001_101, 100), (6_480_001_102, 200), (6_480_001_103, 313), (6_480_001_104, 416),
        (6_480_001_105, 618), (6_480_001_106, 313), (6_480_001_107, 416), (6_480_001_108, 200),
    ]
}

/// A significant change an app declared during the simulation.
struct SignificantChange {
    /// `<app name>-<version>`; its stream is `change-<id>`.
    let id: String
    /// The index of the app in ``AppTemplate/catalogue``.
    let app: Int
    /// The version that introduces it.
    let version: String
    /// The exact description shown to parents.
    let description: String
    /// The feature it adds.
    let feature: String
    /// When it was declared.
    let declaredAt: Int64
}

/// An app's state in the simulation: its current version and rating, and the changes it has
/// declared so far.
struct SimulatedApp {
    /// Its traits.
    let template: AppTemplate
    /// Its current major and minor version.
    var major: Int, minor: Int, patch = 0
    /// Its current age rating.
    var rating: SimulatedRating
    /// The changes declared so far, oldest first.
    var changes: [SignificantChange] = []
    /// The day of its next release.
    var nextRelease: Int
    /// How many significant changes it has shipped (which idea comes next).
    var shipped = 0
    /// Its own random sequence.
    var random: SimulationRandom

    /// The version string (`3.1.0`).
    var version: String { "\(major).\(minor).\(patch)" }

    /// The app in its starting state.
    init(template: AppTemplate, random: SimulationRandom) {
        self.template = template
        major = template.version.major
        minor = template.version.minor
        rating = .code(template.rating)
        self.random = random
        nextRelease = self.random.int(0...12)
    }

    /// How many of ``changes`` were declared before `instant` (they are in declaration order).
    func changesDeclared(before instant: Int64) -> Int {
        var count = changes.count
        while count > 0, changes[count - 1].declaredAt >= instant { count -= 1 }
        return count
    }
}
