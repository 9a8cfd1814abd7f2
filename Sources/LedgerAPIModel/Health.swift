extension APIModel {
    /// `GET /health`: the process answers.
    public struct Health: Codable, Sendable, Equatable {
        /// Always `ok`.
        public var status: String
        /// The software and its version.
        public var software: String

        /// A health answer.
        public init(status: String = "ok", software: String) {
            self.status = status
            self.software = software
        }
    }

    /// `GET /ready`: the database answers too.
    public struct Ready: Codable, Sendable, Equatable {
        /// Always `ready` (an unready server answers 503 with a problem document).
        public var status: String
        /// The schema version the database is at (null before the first migration).
        public var schemaVersion: Int?

        /// A readiness answer.
        public init(status: String = "ready", schemaVersion: Int?) {
            self.status = status
            self.schemaVersion = schemaVersion
        }

        /// Writes `schemaVersion` as null when there is none: the document requires the member.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(status, forKey: .status)
            try container.encode(schemaVersion, forKey: .schemaVersion)
        }
    }
}
