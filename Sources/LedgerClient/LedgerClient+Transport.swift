import AsyncHTTPClient
import Foundation
import LedgerAPIModel
import LedgerCore
import NIOCore
import NIOHTTP1

extension LedgerClient {
    /// One answer as it came.
    struct RawAnswer {
        var status: HTTPResponseStatus
        var headers: HTTPHeaders
        var body: [UInt8]
    }

    /// The largest answer read (a report of a big log is a few MiB; events are paged by `limit`).
    static let maxAnswerBytes = 256 << 20

    /// Sends a request and decodes a JSON answer of type `Answer`.
    func send<Answer: Decodable>(_ method: HTTPMethod, path: String, query: [(String, String?)] = [], headers: HTTPHeaders = [:],
                                 body: [UInt8]? = nil, retrying: Bool = true) async throws -> Answer {
        let answer = try await sendRaw(method, path: path, query: query, headers: headers, body: body, retrying: retrying)
        do {
            return try JSONDecoder().decode(Answer.self, from: Data(answer.body))
        } catch {
            throw LedgerClientError.unexpectedAnswer(status: Int(answer.status.code),
                                                     detail: "the body is not a \(Answer.self): \(error)")
        }
    }

    /// Sends a request, trying again as ``retry`` allows; returns a 2xx answer, or throws the
    /// server's problem (``LedgerClientError/problem(_:)``) or what kept it from answering.
    func sendRaw(_ method: HTTPMethod, path: String, query: [(String, String?)] = [], headers: HTTPHeaders = [:],
                 body: [UInt8]? = nil, retrying: Bool = true) async throws -> RawAnswer {
        var request = HTTPClientRequest(url: baseURL + path + Self.queryString(query))
        request.method = method
        request.headers = headers
        request.headers.add(name: "Authorization", value: "Bearer \(apiKey)")
        var attempt = 1
        while true {
            if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
            let wait: Duration
            do {
                let response = try await http.execute(request, timeout: timeout, logger: logger)
                let bytes = Array(buffer: try await response.body.collect(upTo: Self.maxAnswerBytes))
                let answer = RawAnswer(status: response.status, headers: response.headers, body: bytes)
                if (200..<300).contains(answer.status.code) { return answer }
                let problem = Self.problem(in: answer)
                guard retrying, attempt < retry.attempts, retry.retries(status: Int(answer.status.code)) else {
                    throw LedgerClientError.problem(problem)
                }
                wait = retry.pause(attempt: attempt, retryAfter: answer.headers.first(name: "Retry-After").flatMap(Int.init))
                logger.info("retrying after \(answer.status.code) \(problem.code)", metadata: ["attempt": "\(attempt)", "path": "\(path)"])
            } catch let error as LedgerClientError {
                throw error
            } catch {
                // No answer (refused, reset, timed out): the request may or may not have been
                // stored; sending it again unchanged is safe, the ledger answers a replay.
                guard retrying, attempt < retry.attempts else { throw LedgerClientError.transport(String(describing: error)) }
                wait = retry.pause(attempt: attempt, retryAfter: nil)
                logger.info("retrying after \(error)", metadata: ["attempt": "\(attempt)", "path": "\(path)"])
            }
            try await Task.sleep(for: wait)
            attempt += 1
        }
    }

    /// The problem document of an error answer, or one describing what came instead.
    static func problem(in answer: RawAnswer) -> APIModel.ProblemDocument {
        if let problem = try? JSONDecoder().decode(APIModel.ProblemDocument.self, from: Data(answer.body)) { return problem }
        return APIModel.ProblemDocument(code: "unexpected-answer", title: answer.status.reasonPhrase, status: Int(answer.status.code),
                                        detail: String(decoding: answer.body.prefix(500), as: UTF8.self))
    }

    /// `?a=1&b=2` of the parameters that have a value.
    static func queryString(_ query: [(String, String?)]) -> String {
        let pairs = query.compactMap { name, value in value.map { "\(name)=\(Self.component($0))" } }
        return pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&")
    }

    /// A path segment, percent-encoded.
    static func segment(_ text: String) -> String { component(text) }

    static func component(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
