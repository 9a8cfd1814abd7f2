import LedgerCore
import Logging
import NIOCore
import PostgresNIO

extension EventStore {
    /// Seals the personal-data fields of `events` under their subjects' keys, creating keys for
    /// subjects that have none, on `connection` (inside the append's transaction, so a key made
    /// for a batch that is then refused is rolled back with it). `personalFields` names, per
    /// event, the dotted paths that are personal data (by default the catalogue's). Events without
    /// personal data pass through unchanged, and so do fields already sealed.
    /// ``append(log:events:idempotencyKey:)`` calls this itself, so personal data never reaches
    /// the chain in clear.
    ///
    /// An event about an erased subject that is already stored under its event id (a retry of a
    /// batch appended before the erasure) is taken as it was stored, sealed fields and all, when
    /// it differs from the stored one in nothing but those fields
    /// (``EventInput/asStoredBeforeErasure(_:paths:)``): the batch's digest is then its own, and
    /// `ledger.append_events` answers the retry with the original positions.
    ///
    /// - Throws: `subject-erased` (with the 1-based batch index in `line`) for new personal data
    ///   about a subject who was erased, `missing-field` for personal data with no subject.
    static func sealPersonalData(log: String, events: [EventInput], on connection: PostgresConnection, logger: Logger,
                                 personalFields: ((EventInput) -> [String])? = nil) async throws -> [EventInput] {
        let needing = events.indices.compactMap { index -> (Int, [String])? in
            let paths = personalFields?(events[index]) ?? events[index].catalogued.personalFields
            return paths.isEmpty ? nil : (index, paths)
        }
        guard !needing.isEmpty else { return events }
        let subjects = Array(Set(needing.compactMap { events[$0.0].envelope.subject })).sorted()
        let keys = try await subjectKeys(log: log, subjects: subjects, on: connection, logger: logger)
        let erasedEventIds = needing.compactMap { index, _ in
            events[index].envelope.subject.flatMap { keys[$0] == nil ? events[index].envelope.eventId : nil }
        }
        let storedBeforeErasure = try await storedEvents(log: log, eventIds: erasedEventIds, on: connection, logger: logger)
        var sealed = events
        for (index, paths) in needing {
            if let subject = events[index].envelope.subject, keys[subject] == nil {
                if let stored = storedBeforeErasure[events[index].envelope.eventId] {
                    do {
                        if let asStored = try events[index].asStoredBeforeErasure(stored, paths: paths) {
                            sealed[index] = asStored
                            continue
                        }
                    } catch {
                        throw LedgerError.locating(error, line: index + 1)
                    }
                }
                throw LedgerError(.subjectErased, "subject \(subject) was erased, so no personal data may be recorded for them",
                                  line: index + 1,
                                  hint: "Leave the personal-data fields (\(paths.joined(separator: ", "))) out of events about an erased subject.")
            }
            let key = events[index].envelope.subject.flatMap { keys[$0] } ?? []
            do {
                sealed[index] = try events[index].sealing(paths: paths, key: key, log: log)
            } catch {
                throw LedgerError.locating(error, line: index + 1)
            }
        }
        return sealed
    }

    /// The stored events (the `event` of each record) of `log` with these ids, by event id; an
    /// empty list costs no query.
    static func storedEvents(log: String, eventIds: [String], on connection: PostgresConnection, logger: Logger) async throws -> [String: JSONValue] {
        guard !eventIds.isEmpty else { return [:] }
        let rows = try await connection.watchedQuery(
            "SELECT event_id::text, record FROM ledger.events WHERE log_id = \(log) AND event_id = ANY(\(eventIds)::uuid[])",
            logger: logger)
        var events: [String: JSONValue] = [:]
        for try await (eventId, record) in rows.decode((String, ByteBuffer).self) {
            if let parsed = try? LedgerRecord(parsing: Array(buffer: record)) { events[eventId] = parsed.event }
        }
        return events
    }

    /// The keys of `subjects` (made now for those who have none); an erased subject is absent.
    /// Needs the application role (it calls `ledger.subject_key`).
    static func subjectKeys(log: String, subjects: [String], on connection: PostgresConnection, logger: Logger) async throws -> [String: [UInt8]] {
        let candidates = subjects.map { _ in ByteBuffer(bytes: PersonalDataCipher.newKey()) }
        let rows = try await connection.watchedQuery(
            "SELECT u.s, ledger.subject_key(\(log), u.s, u.c) FROM unnest(\(subjects)::text[], \(candidates)::bytea[]) AS u(s, c)",
            logger: logger)
        var keys: [String: [UInt8]] = [:]
        for try await (subject, key) in rows.decode((String, ByteBuffer?).self) {
            if let key { keys[subject] = Array(buffer: key) }
        }
        return keys
    }

    /// What a reader may know of each subject's key: the key, erased, or (no row) unknown.
    /// Needs the owner's rights (the embedded superuser, or an administrator URL).
    public func keyStates(log: String) async throws -> [String: PersonalDataView.KeyState] {
        let rows = try await pool.query("SELECT subject, key FROM ledger.subject_keys WHERE log_id = \(log)", logger: logger)
        var states: [String: PersonalDataView.KeyState] = [:]
        for try await (subject, key) in rows.decode((String, ByteBuffer?).self) {
            states[subject] = key.map { .available(Array(buffer: $0)) } ?? .erased
        }
        return states
    }
}
