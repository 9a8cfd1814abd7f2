import ArgumentParser

/// `consent-ledger report …`: compliance reports (REPORTS.md).
struct Report: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compliance reports computed as of a log position, reproducible byte for byte.",
        discussion: """
            Each report states its parameters, the log position and the chain hash it was computed at, \
            the software version, and its own SHA-256; each row cites the event positions and ids it rests \
            on. Available so far: consent-register and dossier, in JSON and CSV. The regulator report and \
            HTML output are not built yet.
            """,
        subcommands: [ReportConsentRegister.self, ReportDossier.self]
    )
}
