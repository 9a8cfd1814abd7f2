import ConsentLedgerEvents
import Foundation
import Testing

/// `EventSource`: typed events with their envelope, checked where they are made.
@Suite("ConsentLedgerEvents")
struct ConsentLedgerEventsTests {
    let source = EventSource(bundleId: "com.example.kidsdraw", appVersion: "3.0.0", platform: .iOS, jurisdiction: "US-TX")

    @Test("an event made from a typed payload is the event the ledger takes: envelope, stream and payload")
    func madeEventIsAccepted() throws {
        let id = UUID()
        let event = try source.event(AgeRangeShared(lowerBound: 13, upperBound: 15, ageRangeDeclaration: .guardianDeclared),
                                     subject: "p_7f3a9c", occurredAt: Date(timeIntervalSince1970: 1_795_000_000), actor: .guardian, eventId: id)
        #expect(event.envelope.eventId == id.uuidString.lowercased())
        #expect(event.envelope.stream == "subject-p_7f3a9c")
        #expect(event.envelope.type == "AgeRangeShared" && event.envelope.schemaVersion == 2)
        #expect(event.envelope.occurredAt == "2026-11-18T11:06:40Z")
        #expect(event.envelope.actor.kind == "guardian")
        #expect(event.envelope.app?.appVersion == "3.0.0" && event.envelope.app?.environment == "production")
        #expect(event.envelope.jurisdiction?.code == "US-TX")
        #expect(event.catalogued.payload as? AgeRangeShared == AgeRangeShared(lowerBound: 13, upperBound: 15, ageRangeDeclaration: .guardianDeclared))
    }

    @Test("a question's events go on the question's stream, a declared change on its change stream")
    func conventionalStreams() throws {
        let question = "6c1e8a52-3d9b-4f0e-a7c2-91b5e0d4f318"
        let answer = try source.event(ParentalAnswerReceived(questionId: question, choiceId: "allow", choiceTitle: "Allow", answer: .approval,
                                                             receivedAt: "2026-11-20T18:41:03Z", channel: .message),
                                      subject: "p_7f3a9c", actor: .guardian)
        #expect(answer.envelope.stream == "question-" + question)
    }

    @Test("what the ledger would refuse throws where it is made, naming the field")
    func refusedWhereMade() {
        #expect {
            _ = try source.event(ParentalAnswerReceived(questionId: "not-a-uuid", choiceId: "allow", choiceTitle: "Allow", answer: .approval,
                                                        receivedAt: "2026-11-20T18:41:03Z", channel: .message),
                                 subject: "p_7f3a9c")
        } throws: { error in
            (error as? LedgerError)?.field == "payload.questionId"
        }
        #expect {
            _ = try source.event(AgeRangeShared(lowerBound: 13, upperBound: 15), subject: "Jane Doe", stream: "subject-jane")
        } throws: { error in
            (error as? LedgerError)?.field == "subject"
        }
        let unknownPlace = EventSource(bundleId: "com.example.kidsdraw", appVersion: "3.0.0", platform: .iOS, jurisdiction: "Texas")
        #expect {
            _ = try unknownPlace.event(AgeRangeDeclined(), subject: "p_7f3a9c")
        } throws: { error in
            (error as? LedgerError)?.field == "jurisdiction.code"
        }
    }

    @Test("an event about no subject with no conventional stream asks for one")
    func streamNeeded() {
        #expect {
            _ = try source.event(AgeRangeDeclined(), subject: nil)
        } throws: { error in
            (error as? LedgerError)?.field == "stream"
        }
    }

    @Test("the library's enums name exactly the values the envelope's checks allow (one list each, the core's)")
    func enumsAreTheEnvelopesValues() {
        #expect(Set(EventSource.Platform.allCases.map(\.rawValue)) == EventEnvelope.AppInfo.platforms)
        #expect(Set(EventSource.Environment.allCases.map(\.rawValue)) == EventEnvelope.AppInfo.environments)
        #expect(Set(EventSource.JurisdictionBasis.allCases.map(\.rawValue)) == EventEnvelope.Jurisdiction.bases)
        // The kinds the ledger records itself (appStore, playStore, ledger) are not an app's to name.
        #expect(Set(EventActor.Kind.allCases.map(\.rawValue)).union(["appStore", "playStore", "ledger"]) == EventEnvelope.Actor.kinds)
    }
}
