import Foundation

/// What adding cosignatures to a checkpoint (`CheckpointStore.addCosignatures`) did: the witnesses' cosignatures a
/// checkpoint now carries.
public struct CosignaturesAdded: Sendable, Equatable {
    /// The checkpoint, as now served (with every stored cosignature).
    public var checkpoint: StoredCheckpoint
    /// The witnesses whose cosignature was stored by this call.
    public var added: [String]
    /// The witnesses whose cosignature of this checkpoint was stored before (kept unchanged).
    public var alreadyStored: [String]

    /// A result from its parts.
    package init(checkpoint: StoredCheckpoint, added: [String], alreadyStored: [String]) {
        self.checkpoint = checkpoint
        self.added = added
        self.alreadyStored = alreadyStored
    }
}
