extension LedgerError {
    /// A stable error kind. New kinds are added as static members; none is ever renamed.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The identifier, for logs and machine-readable output (`missing-field`).
        public let rawValue: String
        /// Creates a code; prefer the static members.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        // MARK: Input
        /// The input is not valid JSON.
        public static let invalidJSON = Code("invalid-json")
        /// A required field is absent.
        public static let missingField = Code("missing-field")
        /// A field the envelope does not define.
        public static let unknownField = Code("unknown-field")
        /// A field is present but its value is not allowed.
        public static let invalidField = Code("invalid-field")
        /// A birth date, birth year or exact age: never accepted (docs/design/events.md).
        public static let forbiddenPersonalData = Code("forbidden-personal-data")
        /// A record over the size limit.
        public static let recordTooLarge = Code("record-too-large")
        /// A batch with no events, or an option out of range.
        public static let invalidRequest = Code("invalid-request")

        // MARK: Append conditions
        /// A stream was not at the version the event expected.
        public static let wrongExpectedVersion = Code("wrong-expected-version")
        /// An idempotency key was reused for a different batch.
        public static let idempotencyKeyReused = Code("idempotency-key-reused")
        /// An event id is already stored in the log, or repeated in the batch.
        public static let duplicateEventId = Code("duplicate-event-id")
        /// The log id is not well-formed.
        public static let invalidLogId = Code("invalid-log-id")
        /// The log does not exist.
        public static let logNotFound = Code("log-not-found")
        /// The log has no events about the subject (up to the position asked for).
        public static let subjectNotFound = Code("subject-not-found")
        /// No AccessGateApplied of the log names the feature.
        public static let featureNotFound = Code("feature-not-found")

        // MARK: Integrity
        /// The events table refused a change (it is append-only) or a row whose hashes lie.
        public static let immutabilityViolation = Code("immutability-violation")
        /// Verification found a record, hash or link that does not check.
        public static let integrityFailure = Code("integrity-failure")
        /// A checkpoint was refused: not consistent with the last one, beyond the built tree, or
        /// a proof that does not verify against it.
        public static let checkpointRefused = Code("checkpoint-refused")
        /// A signing or verifier key that is missing, unreadable or malformed.
        public static let invalidKey = Code("invalid-key")

        // MARK: Database
        /// The database cannot be reached, or refused the connection.
        public static let databaseUnavailable = Code("database-unavailable")
        /// The database has no ledger schema yet.
        public static let schemaMissing = Code("schema-missing")
        /// The database's schema is newer than this software knows.
        public static let schemaTooNew = Code("schema-too-new")
        /// PostgreSQL's server programs are not installed.
        public static let postgresNotInstalled = Code("postgres-not-installed")
        /// The embedded cluster could not be created, started or stopped.
        public static let clusterFailure = Code("cluster-failure")
        /// A database error with no more specific code.
        public static let databaseError = Code("database-error")
    }
}

extension LedgerError.Code {
    /// Personal data about a subject whose key was destroyed.
    public static let subjectErased = LedgerError.Code("subject-erased")
}
