import Foundation
import LedgerAPIModel
import LedgerCore

/// A JSON block of the documentation, recognised by what it holds and checked by the parser the
/// ledger itself reads such a document with.
enum JSONExample: Equatable {
    /// Events (one, or an NDJSON file of them, one per line), to be appended: their canonical lines.
    case events([String])
    /// A report policy (`--policy`, `serve --report-policy`), read by ``ReportPolicy/parse(_:)``.
    case policy
    /// An App Store notification as an app's server forwards it (`POST …/app-store/notifications`).
    case appStoreNotification
    /// An error as the HTTP API answers it (RFC 9457 problem+json).
    case problem

    /// Reads `example`'s JSON and checks it as what it is.
    /// - Throws: ``Refused`` when it is not JSON, the ledger refuses it, or it is none of the kinds above.
    static func check(_ example: MarkdownExample) throws -> JSONExample {
        let ndjson: Bool
        if case .file(let name) = example.mark { ndjson = name.hasSuffix(".ndjson") } else { ndjson = false }
        let values = try ndjson
            ? example.code.split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }.map { try parse(String($0), example) }
            : [parse(example.code, example)]
        if ndjson || values[0]["eventId"] != nil {
            return .events(try values.map { try event($0, example) })
        }
        let value = values[0]
        if value["issuer"] != nil || value["dateOfIssue"] != nil {
            do { _ = try ReportPolicy.parse(CanonicalJSON.encode(value)) } catch {
                throw Refused(example, "the report policy is refused: \(error.message) (field \(error.field ?? "-"))")
            }
            return .policy
        }
        if value["signedPayload"] != nil {
            do { _ = try value.decoded(as: APIModel.AppStoreNotificationRequest.self) } catch {
                throw Refused(example, "not the App Store notification route's body: \(error)")
            }
            return .appStoreNotification
        }
        if value["type"]?.stringValue?.hasPrefix("https://consent-ledger.dev/problems/") == true {
            do { _ = try value.decoded(as: APIModel.ProblemDocument.self) } catch {
                throw Refused(example, "not the API's problem document: \(error)")
            }
            return .problem
        }
        throw Refused(example, "a JSON example the documentation test does not know how to check: "
            + "an event (eventId), a report policy (issuer), an App Store notification (signedPayload) or a problem (type)")
    }

    /// An event as `serve` and `append` check it: the envelope and the catalogue, in its type's
    /// current schema version (an example in an older one has drifted).
    private static func event(_ value: JSONValue, _ example: MarkdownExample) throws -> String {
        let input: EventInput
        do { input = try EventInput(json: value) } catch {
            throw Refused(example, "the event is refused: \(error.message) (field \(error.field ?? "-"))")
        }
        let current = EventCatalogue.schema(for: input.envelope.type)?.version
        guard input.envelope.schemaVersion == current else {
            throw Refused(example, "\(input.envelope.type) is in schema version \(input.envelope.schemaVersion); new events use \(current ?? 0)")
        }
        return String(decoding: CanonicalJSON.encode(value), as: UTF8.self)
    }

    private static func parse(_ text: String, _ example: MarkdownExample) throws -> JSONValue {
        do { return try JSONParser.parse(text) } catch { throw Refused(example, "not valid JSON: \(error)") }
    }

    /// A JSON example the ledger would not take, with the block it is in.
    struct Refused: Error, CustomStringConvertible {
        let description: String
        init(_ example: MarkdownExample, _ problem: String) {
            description = "\(example): \(problem)\n\(example.code)"
        }
    }
}
