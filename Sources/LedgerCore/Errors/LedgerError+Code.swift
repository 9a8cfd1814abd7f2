extension LedgerError {
    /// A stable error kind. New kinds are added as static members; none is ever renamed.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The identifier, for logs and machine-readable output (`missing-field`).
        public let rawValue: String
        /// What kind of failure it is, declared with the code: what decides the HTTP status.
        public let kind: Kind
        /// Creates a code; prefer the static members. Every code says what kind of failure it is.
        public init(_ rawValue: String, _ kind: Kind) {
            self.rawValue = rawValue
            self.kind = kind
        }
        /// The identifier.
        public var description: String { rawValue }
        /// Codes are equal when their identifiers are.
        public static func == (lhs: Code, rhs: Code) -> Bool { lhs.rawValue == rhs.rawValue }
        /// Hashes the identifier.
        public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

        /// The kinds of failure, each answered with one HTTP status (LedgerServer's `Problem`).
        public enum Kind: Sendable, CaseIterable {
            /// The request is wrong; sent again unchanged it fails again (400).
            case badInput
            /// The request is understood but this caller may not do it (403): an event its type lets
            /// only another route or actor append.
            case forbidden
            /// The request conflicts with what is stored (409).
            case conflict
            /// What the request names does not exist (404).
            case notFound
            /// The request is over a size limit (413).
            case tooLarge
            /// The database cannot serve now; the same request may succeed later (503, Retry-After).
            case unavailable
            /// The ledger or its database failed in a way the caller cannot fix (500).
            case serverFault
        }

        // MARK: Input
        /// The input is not valid JSON.
        public static let invalidJSON = Code("invalid-json", .badInput)
        /// A required field is absent.
        public static let missingField = Code("missing-field", .badInput)
        /// A field the envelope does not define.
        public static let unknownField = Code("unknown-field", .badInput)
        /// A field is present but its value is not allowed.
        public static let invalidField = Code("invalid-field", .badInput)
        /// A birth date, birth year or exact age: never accepted (docs/design/events.md).
        public static let forbiddenPersonalData = Code("forbidden-personal-data", .badInput)
        /// A record over the size limit.
        public static let recordTooLarge = Code("record-too-large", .tooLarge)
        /// A batch with no events, or an option out of range.
        public static let invalidRequest = Code("invalid-request", .badInput)
        /// A batch of more events than one request may carry.
        public static let batchTooLarge = Code("batch-too-large", .tooLarge)

        // MARK: Append conditions
        /// A stream was not at the version the event expected.
        public static let wrongExpectedVersion = Code("wrong-expected-version", .conflict)
        /// An idempotency key was reused for a different batch.
        public static let idempotencyKeyReused = Code("idempotency-key-reused", .conflict)
        /// An event id is already stored in the log, or repeated in the batch.
        public static let duplicateEventId = Code("duplicate-event-id", .conflict)
        /// The log id is not well-formed.
        public static let invalidLogId = Code("invalid-log-id", .badInput)
        /// The log does not exist.
        public static let logNotFound = Code("log-not-found", .notFound)
        /// The log has no events about the subject (up to the position asked for).
        public static let subjectNotFound = Code("subject-not-found", .notFound)
        /// No AccessGateApplied of the log names the feature.
        public static let featureNotFound = Code("feature-not-found", .notFound)

        // MARK: Integrity
        /// The events table refused a change (it is append-only) or a row whose hashes lie.
        public static let immutabilityViolation = Code("immutability-violation", .serverFault)
        /// Verification found a record, hash or link that does not check.
        public static let integrityFailure = Code("integrity-failure", .serverFault)
        /// A checkpoint was refused: not consistent with the last one, beyond the built tree, or
        /// a proof that does not verify against it.
        public static let checkpointRefused = Code("checkpoint-refused", .badInput)
        /// The log has no signed checkpoint (of the size asked for).
        public static let checkpointNotFound = Code("checkpoint-not-found", .notFound)
        /// A tile or entry bundle the stored Merkle tree does not cover (yet), or cannot hold.
        public static let tileNotFound = Code("tile-not-found", .notFound)
        /// A witness's cosignature the ledger will not store: not on a checkpoint it signed, from a
        /// witness it does not accept, or not verifying.
        public static let cosignatureRefused = Code("cosignature-refused", .badInput)
        /// A signing or verifier key that is missing, unreadable or malformed.
        public static let invalidKey = Code("invalid-key", .badInput)

        // MARK: Database
        /// The database cannot be reached, or refused the connection.
        public static let databaseUnavailable = Code("database-unavailable", .unavailable)
        /// The database is up, but no connection of the pool was free within the bound on a
        /// request's wait (every one in use by other requests): nothing was done; try again.
        public static let databaseBusy = Code("database-busy", .unavailable)
        /// The connection to the database was lost while a commit was in flight: the work may or
        /// may not have been stored. Repeating an append is safe (its idempotency key is
        /// recognised); anything else should be checked before it is repeated.
        public static let outcomeUnknown = Code("outcome-unknown", .unavailable)
        /// The database has no ledger schema yet.
        public static let schemaMissing = Code("schema-missing", .unavailable)
        /// The database's schema is newer than this software knows.
        public static let schemaTooNew = Code("schema-too-new", .serverFault)
        /// PostgreSQL's server programs are not installed.
        public static let postgresNotInstalled = Code("postgres-not-installed", .serverFault)
        /// The embedded cluster could not be created, started or stopped.
        public static let clusterFailure = Code("cluster-failure", .serverFault)
        /// A database error with no more specific code.
        public static let databaseError = Code("database-error", .serverFault)
    }
}

extension LedgerError.Code {
    /// Personal data about a subject whose key was destroyed.
    public static let subjectErased = LedgerError.Code("subject-erased", .badInput)
    /// No webhook subscription with that id (of that log).
    public static let subscriptionNotFound = LedgerError.Code("subscription-not-found", .notFound)
}
