import HTTPTypes
import Hummingbird

/// Who the client is, for the record of reads, the sign-ins and the request log: the peer's
/// address, or, when the peer is one of the proxies `serve --trusted-proxy` names, the client it
/// forwarded for (the rightmost `X-Forwarded-For` address that is not itself a trusted proxy). From
/// any other peer `X-Forwarded-For` is ignored, so a client cannot write another address into the
/// record of reads (issue 36, finding 7). `X-Forwarded-Proto: https` likewise says the client came
/// over TLS (the console's cookie is then `Secure`) only from a trusted proxy.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = LedgerRequestContext

    /// The proxies whose `X-Forwarded-For` is believed (IP addresses as the socket reports them).
    let trustedProxies: Set<String>

    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!
    static let forwardedProto = HTTPField.Name("X-Forwarded-Proto")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let peer = context.remoteAddress, trustedProxies.contains(peer) {
            let hops = request.headers[values: Self.forwardedFor]
                .flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            if let client = hops.last(where: { !trustedProxies.contains($0) }) ?? hops.first {
                context.remoteAddress = String(client.prefix(64))
            }
            context.forwardedOverTLS = request.headers[Self.forwardedProto]?.lowercased() == "https"
        }
        return try await next(request, context)
    }
}
