import LedgerCore

/// What the group commit does with one batch it has cut, without the database: which
/// ``AppendMode`` each request goes in, what is tried again when a call is refused, and what each
/// request is answered (decision 0041, decision 0074). The calls themselves are `store`'s.
///
/// - Requests without a key go in one ``AppendMode/grouped`` call (a lone one as
///   ``AppendMode/single``). When the database refuses it (one event's expected version, a
///   duplicate id, a subject erased…), nothing of it is stored, and each goes again as
///   ``AppendMode/single``, so that one bad event fails alone.
/// - Requests with a key go in one ``AppendMode/keyed`` call (a lone one as
///   ``AppendMode/batch`` under its key); when that is refused, all of them in one
///   ``AppendMode/keyedEach`` call, each answered as alone.
/// - A lost database (``isDatabaseLost(_:)``: unreachable, the connection closed, the server
///   shutting down, the pool's connections all busy, a commit whose outcome is unknown) is not a
///   refusal: nothing is tried again, one event after another. Every request of the batch not yet
///   answered fails at once with that error.
enum GroupCommitBatch {
    /// One call of the store: `requests` appended to `log` in `mode`, one answer per request. For
    /// ``AppendMode/grouped`` and ``AppendMode/keyed`` it throws when the call is refused as a
    /// whole; for ``AppendMode/keyedEach`` each request has its own answer, and it throws only
    /// when the shared transaction failed.
    typealias Store = @Sendable (_ mode: AppendMode, _ log: String, _ requests: [AppendRequest]) async throws
        -> [Result<AppendResult, any Error>]

    /// Appends `requests` to `log` through `store`, and gives each request's answer to `answer`
    /// (with its index in `requests`) as soon as it is known, each exactly once.
    static func commit(_ requests: [AppendRequest], log: String, store: Store,
                       answer: @Sendable (Int, Result<AppendResult, any Error>) -> Void) async {
        let keyed = requests.indices.filter { requests[$0].idempotencyKey != nil }
        let unkeyed = requests.indices.filter { requests[$0].idempotencyKey == nil }
        var lost: (any Error)?
        if !keyed.isEmpty {
            lost = await commitKeyed(keyed, of: requests, log: log, store: store, answer: answer)
        }
        if let lost {
            for index in unkeyed { answer(index, .failure(lost)) }
        } else if !unkeyed.isEmpty {
            await commitUnkeyed(unkeyed, of: requests, log: log, store: store, answer: answer)
        }
    }

    /// Whether `error` says the database was lost rather than that it refused the batch: after
    /// it, appending the same events one by one would only fail again, one at a time.
    static func isDatabaseLost(_ error: any Error) -> Bool {
        DatabaseErrors.isTransient(error)
    }

    /// The requests with a key; returns the error when the database was lost.
    private static func commitKeyed(_ indices: [Int], of requests: [AppendRequest], log: String, store: Store,
                                    answer: @Sendable (Int, Result<AppendResult, any Error>) -> Void) async -> (any Error)? {
        let batch = indices.map { requests[$0] }
        if batch.count == 1 {
            // Alone: its own call under its key, no savepoint needed.
            return await call(.batch, batch, indices, log: log, store: store, answer: answer)
        }
        switch await attempt(.keyed, batch, log: log, store: store) {
        case .stored(let answers):
            for (index, result) in zip(indices, answers) { answer(index, result) }
            return nil
        case .lost(let error):
            for index in indices { answer(index, .failure(error)) }
            return error
        case .refused:
            return await call(.keyedEach, batch, indices, log: log, store: store, answer: answer)
        }
    }

    /// The requests without a key: together, or each alone when that is refused.
    private static func commitUnkeyed(_ indices: [Int], of requests: [AppendRequest], log: String, store: Store,
                                      answer: @Sendable (Int, Result<AppendResult, any Error>) -> Void) async {
        if indices.count > 1 {
            switch await attempt(.grouped, indices.map { requests[$0] }, log: log, store: store) {
            case .stored(let answers):
                for (index, result) in zip(indices, answers) { answer(index, result) }
                return
            case .lost(let error):
                for index in indices { answer(index, .failure(error)) }
                return
            case .refused:
                break
            }
        }
        for (position, index) in indices.enumerated() {
            if let lost = await call(.single, [requests[index]], [index], log: log, store: store, answer: answer) {
                for rest in indices.dropFirst(position + 1) { answer(rest, .failure(lost)) }
                return
            }
        }
    }

    /// What became of a shared call.
    private enum Attempt {
        /// Stored: one success per request.
        case stored([Result<AppendResult, any Error>])
        /// Refused as a whole (or answered otherwise than one stored event per request): nothing stored.
        case refused
        /// The database was lost.
        case lost(any Error)
    }

    /// A shared call (``AppendMode/grouped``, ``AppendMode/keyed``), which counts only when each
    /// request got a new event of its own.
    private static func attempt(_ mode: AppendMode, _ batch: [AppendRequest], log: String, store: Store) async -> Attempt {
        do {
            let answers = try await store(mode, log, batch)
            let stored = answers.count == batch.count && answers.allSatisfy {
                guard case .success(let result) = $0 else { return false }
                return result.events.count == 1 && !result.idempotentReplay
            }
            return stored ? .stored(answers) : .refused
        } catch let error where isDatabaseLost(error) {
            return .lost(error)
        } catch {
            return .refused
        }
    }

    /// A call whose answers are the requests' own (``AppendMode/batch``, ``AppendMode/single``,
    /// ``AppendMode/keyedEach``): each request is answered; returns the error when the database
    /// was lost.
    private static func call(_ mode: AppendMode, _ batch: [AppendRequest], _ indices: [Int], log: String, store: Store,
                             answer: @Sendable (Int, Result<AppendResult, any Error>) -> Void) async -> (any Error)? {
        do {
            let answers = try await store(mode, log, batch)
            for (position, index) in indices.enumerated() {
                answer(index, position < answers.count ? answers[position]
                                                       : .failure(LedgerError(.databaseError, "the store gave no answer for this request")))
            }
            let lost = answers.lazy.compactMap { result -> (any Error)? in
                if case .failure(let error) = result, isDatabaseLost(error) { return error }
                return nil
            }.first
            return lost
        } catch {
            for index in indices { answer(index, .failure(error)) }
            return isDatabaseLost(error) ? error : nil
        }
    }
}
