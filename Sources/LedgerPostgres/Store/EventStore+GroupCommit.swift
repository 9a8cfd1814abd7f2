import LedgerCore

extension EventStore {
    /// The group commit's calls (``GroupCommitBatch/Store``): `requests` appended to `log` in
    /// `mode`, one answer per request. Only the modes the group commit uses: ``AppendMode/batch``
    /// (one keyed request alone), ``AppendMode/single``, ``AppendMode/grouped``,
    /// ``AppendMode/keyed`` and ``AppendMode/keyedEach``.
    func groupCommitCall(_ mode: AppendMode, log: String, requests: [AppendRequest]) async throws -> [Result<AppendResult, any Error>] {
        switch mode {
        case .batch, .single:
            // Each request alone (the group commit sends one).
            var answers: [Result<AppendResult, any Error>] = []
            for request in requests {
                answers.append(.success(mode == .single ? try await appendSingle(log: log, event: request.event)
                                                        : try await append(log: log, events: [request.event], idempotencyKey: request.idempotencyKey)))
            }
            return answers
        case .grouped:
            let result = try await append(.grouped, log: log, events: requests.map(\.event), idempotencyKey: nil)
            return result.events.map { .success(AppendResult(events: [$0], idempotentReplay: result.idempotentReplay)) }
        case .keyed:
            return try await appendKeyedTogether(log: log, requests: try Self.keyed(requests)).map { .success($0) }
        case .keyedEach:
            return try await appendEach(log: log, requests: try Self.keyed(requests))
        case .bulk, .erasure, .retention:
            throw LedgerError(.databaseError, "the group commit does not append in mode \(mode.rawValue)")
        }
    }

    /// `requests` with their keys, each of which has one.
    private static func keyed(_ requests: [AppendRequest]) throws -> [(event: EventInput, idempotencyKey: String)] {
        try requests.map { request in
            guard let key = request.idempotencyKey else {
                throw LedgerError(.databaseError, "a keyed group commit call was given a request without a key")
            }
            return (request.event, key)
        }
    }
}
