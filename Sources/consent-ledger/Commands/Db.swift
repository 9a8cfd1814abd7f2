import ArgumentParser

/// `consent-ledger db start | stop | status`: the embedded database.
struct Db: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start, stop or inspect the embedded PostgreSQL.",
        discussion: """
            Other commands start the embedded database when they need it and stop it when they are done. \
            `db start` keeps it running between commands (faster, and lets psql connect: the status \
            command prints how); `db stop` stops it.
            """,
        subcommands: [DbStart.self, DbStop.self, DbStatus.self]
    )
}
