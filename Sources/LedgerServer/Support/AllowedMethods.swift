import HTTPTypes
import Hummingbird
import Synchronization

/// The methods each route template answers, so that a request for a path the server has with a
/// method it lacks gets 405 with `Allow` (RFC 9110 §15.5.6) instead of 404. Filled in once the
/// router's routes are all added; read by ``ProblemMiddleware``.
final class AllowedMethods: Sendable {
    private let routes = Mutex<[(segments: [Substring], method: String)]>([])

    /// Records the router's routes: (`/v1/logs/{log}/events`, `GET`), ….
    func record(_ descriptions: [(path: String, method: String)]) {
        routes.withLock { table in
            table = descriptions.map { (Self.segments($0.path), $0.method) }
        }
    }

    /// The methods some route answers for `path`, sorted; empty when no route has the path.
    func methods(for path: String) -> [String] {
        let wanted = Self.segments(path)
        let methods = routes.withLock { table in
            table.filter { route in
                route.segments.count == wanted.count
                    && zip(route.segments, wanted).allSatisfy { $0.first == "{" || $0 == $1 }
            }.map(\.method)
        }
        return Set(methods).sorted()
    }

    static func segments(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }
}
