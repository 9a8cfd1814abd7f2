import ArgumentParser

/// `consent-ledger report …`: compliance reports (docs/design/reports.md).
struct Report: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compliance reports computed as of a log position, reproducible byte for byte.",
        discussion: """
            Each report states its parameters, the log position and the chain hash it was computed at, \
            the software version, and its own SHA-256; each row cites the event positions and ids it rests \
            on. Each comes as JSON (canonical, sealed), CSV (one row per item) and HTML (one self-contained \
            printable page with inline SVG charts).
            """,
        subcommands: [ReportConsentRegister.self, ReportRegulator.self, ReportDossier.self]
    )
}
