import LedgerCore
import PostgresNIO

extension EventStore {
    /// Appends `requests` (one event, an idempotency key) together in one call of
    /// `ledger.append_events` with per-event keys: each event is recorded under its own key as if
    /// it had come alone, so a later retry of any of them alone is answered with its position.
    /// Throws, storing nothing, when any key was already used in the log or any event is refused:
    /// the caller then answers each request alone (``appendEach(log:requests:)``).
    /// ``AppendMode/keyed``.
    public func appendKeyedTogether(log: String, requests: [(event: EventInput, idempotencyKey: String)]) async throws -> [AppendResult] {
        let result = try await append(.keyed, log: log, events: requests.map(\.event), idempotencyKey: nil,
                                      eventKeys: requests.map(\.idempotencyKey))
        return result.events.map { AppendResult(events: [$0], idempotentReplay: false) }
    }

    /// Appends each of `requests` (one event, an idempotency key) as if it had come alone, but in
    /// one transaction: each in a savepoint of its own, through the same
    /// ``append(log:events:idempotencyKey:on:logger:)``, so that each key is answered exactly as
    /// alone (the original positions on a retry, `idempotency-key-reused` for other content) and a
    /// refused request rolls back only its savepoint. One commit (one WAL flush) for all of them:
    /// group commit for requests that carry an `Idempotency-Key`.
    ///
    /// The answers are returned only once the transaction has committed. A failure that is not
    /// one request's refusal (the connection lost, the commit failed) is thrown for all of them:
    /// their outcome is then unknown, and retrying with the same keys is safe. ``AppendMode/keyedEach``.
    public func appendEach(log: String, requests: [(event: EventInput, idempotencyKey: String)]) async throws -> [Result<AppendResult, any Error>] {
        let logger = self.logger
        let functions = pool.appendFunctions
        return try await pool.transaction { connection in
            let function = try await functions.function(on: connection, logger: logger)
            var answers: [Result<AppendResult, any Error>] = []
            answers.reserveCapacity(requests.count)
            for request in requests {
                try await connection.watchedQuery("SAVEPOINT one_request", logger: logger)
                do {
                    let result = try await Self.append(log: log, events: [request.event], idempotencyKey: request.idempotencyKey,
                                                       as: .keyedEach, function: function, on: connection, logger: logger)
                    try await connection.watchedQuery("RELEASE SAVEPOINT one_request", logger: logger)
                    answers.append(.success(result))
                } catch let error as PSQLError where error.serverInfo?[.sqlState] != nil {
                    // The database refused this request (its key, its stream's version, its content).
                    try await connection.watchedQuery("ROLLBACK TO SAVEPOINT one_request", logger: logger)
                    try await connection.watchedQuery("RELEASE SAVEPOINT one_request", logger: logger)
                    answers.append(.failure(DatabaseErrors.translateAny(error)))
                } catch let error as LedgerError {
                    // Refused before the database saw it (sealing found the subject erased, say).
                    try await connection.watchedQuery("ROLLBACK TO SAVEPOINT one_request", logger: logger)
                    try await connection.watchedQuery("RELEASE SAVEPOINT one_request", logger: logger)
                    answers.append(.failure(error))
                }
            }
            return answers
        }
    }
}
