import LedgerApplication
import LedgerCore
import ServiceLifecycle

/// Signs checkpoints without a person (`serve --checkpoint-every`): every interval, each log that
/// has grown gets a new checkpoint (``Ledger/keepCheckpoints(every:key:note:)``). Stops with the server.
public struct CheckpointService: Service {
    let ledger: Ledger
    let interval: Duration
    let key: NoteSigningKey
    let note: @Sendable (String) -> Void

    /// A service signing with `key` every `interval`, reporting through `note`.
    public init(ledger: Ledger, interval: Duration, key: NoteSigningKey, note: @escaping @Sendable (String) -> Void) {
        self.ledger = ledger
        self.interval = interval
        self.key = key
        self.note = note
    }

    public func run() async throws {
        try await cancelWhenGracefulShutdown {
            do {
                try await ledger.keepCheckpoints(every: interval, key: key, note: note)
            } catch is CancellationError {}
        }
    }
}
