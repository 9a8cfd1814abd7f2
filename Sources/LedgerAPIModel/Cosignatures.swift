extension APIModel {
    /// The answer to `POST …/checkpoint/cosignatures` (`CosignatureResult`): which witnesses'
    /// cosignatures the checkpoint now carries because of this request.
    public struct CosignatureResult: Codable, Sendable, Equatable {
        /// The log.
        public var log: String
        /// The size of the checkpoint cosigned.
        public var treeSize: Int64
        /// The witnesses whose cosignature this request stored.
        public var added: [String]
        /// The witnesses whose cosignature of this checkpoint was already stored (unchanged).
        public var alreadyStored: [String]
        /// The checkpoint's note as now served: the ledger's signature and every stored cosignature.
        public var checkpoint: String

        /// A result from its parts.
        public init(log: String, treeSize: Int64, added: [String], alreadyStored: [String], checkpoint: String) {
            self.log = log
            self.treeSize = treeSize
            self.added = added
            self.alreadyStored = alreadyStored
            self.checkpoint = checkpoint
        }
    }
}
