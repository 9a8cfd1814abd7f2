import LedgerPostgres
import ServiceLifecycle

/// Keeps the projections caught up inside the server process (`ProjectionFollower`, woken by
/// every append's NOTIFY), and stops with the server.
public struct ProjectionService: Service {
    let follower: ProjectionFollower
    let note: @Sendable (String) -> Void

    /// A service running `follower`, reporting through `note`.
    public init(follower: ProjectionFollower, note: @escaping @Sendable (String) -> Void) {
        self.follower = follower
        self.note = note
    }

    public func run() async throws {
        try await cancelWhenGracefulShutdown {
            do {
                try await follower.follow(note: note, stopOnLastingFailure: false)
            } catch is CancellationError {}
        }
    }
}
