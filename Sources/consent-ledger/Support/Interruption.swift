import Dispatch
import Foundation
import LedgerPostgres

/// What SIGINT (Ctrl-C), SIGTERM and SIGHUP do to a command: stop the embedded database if this
/// command started it (``LedgerDatabase/stopClustersStartedHere()``), then exit with 128 + the
/// signal's number, as a shell expects. Without this a signal would end the tool at once and leave
/// the database it started running in the background.
enum Interruption {
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// Installs the handlers (once, before the command runs).
    static func install() {
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)  // Delivered to the dispatch source instead of ending the process.
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if Console.errorIsTerminal, number == SIGINT { Console.noteRaw("\n") }
                LedgerDatabase.stopClustersStartedHere(note: { Console.note("note: " + $0) })
                Foundation.exit(128 + number)
            }
            source.resume()
            sources.append(source)
        }
    }
}
