import Hummingbird
import Synchronization

/// The bound on each API key's reads under way (decision 0055): a `GET` under `/v1` counts from
/// its admission until the last byte of its answer is written (a streamed answer to a client that
/// has stopped reading counts until that client goes), and a key already at
/// ``maxPerKey`` is refused at once with 429 `too-many-requests` and `Retry-After`, before any
/// database work. So one key cannot take every connection of the auditor pool, or every slot of
/// the server, from the others.
public final class ReadAdmission: Sendable {
    /// The most reads one key may have under way.
    public let maxPerKey: Int
    private let underWay: BoundedCounts

    /// A bound of `maxPerKey` reads under way per key.
    public init(maxPerKey: Int) {
        self.maxPerKey = max(1, maxPerKey)
        underWay = BoundedCounts(limit: self.maxPerKey)
    }

    /// Reads under way for `key`, now.
    public func reads(of key: String) -> Int { underWay.count(of: key) }

    /// Admits one read for `key`, or refuses it with 429 when the key holds its share.
    func admit(key: String) throws -> Permit {
        if let held = underWay.take(key) {
            var problem = Problem(.tooManyRequests, code: "too-many-requests",
                                  detail: "this API key has \(held) reads under way (at most \(maxPerKey) per key)",
                                  hint: "Retry after \(Self.retryAfterSeconds) s (Retry-After), or read fewer things at once with this key.")
            problem.headers[.retryAfter] = String(Self.retryAfterSeconds)
            throw problem
        }
        return Permit(admission: self, key: key)
    }

    fileprivate func release(key: String) { underWay.give(key) }

    /// Seconds a refused read is told to wait: reads are short, streams end when their client reads.
    static let retryAfterSeconds = 1

    /// One admitted read: given back once, by ``release()`` or when the permit is dropped (an
    /// answer never written still gives its share back).
    final class Permit: Sendable {
        private let admission: ReadAdmission
        private let key: String
        private let released = Atomic<Bool>(false)

        fileprivate init(admission: ReadAdmission, key: String) {
            self.admission = admission
            self.key = key
        }

        deinit { release() }

        /// Gives the read's share back (once; later calls do nothing).
        func release() {
            if !released.exchange(true, ordering: .acquiringAndReleasing) { admission.release(key: key) }
        }
    }
}

/// Holds each keyed `GET` to its key's share of ``ReadAdmission`` until its answer is written to
/// the end (or fails), streamed answers included. Requests without a key (open routes, public
/// proofs) and other methods (appends have their own queue, ``AppendAdmission``) pass.
struct ReadAdmissionMiddleware: RouterMiddleware {
    typealias Context = LedgerRequestContext
    let admission: ReadAdmission

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get, let key = context.key else { return try await next(request, context) }
        let permit = try admission.admit(key: key.keyID)
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            permit.release()
            throw error
        }
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            defer { permit.release() }
            try await body.write(writer)
        }
        return response
    }
}
