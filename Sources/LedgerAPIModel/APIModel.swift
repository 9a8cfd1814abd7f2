/// The bodies of the HTTP API as docs/openapi.json names them (`components/schemas`), shared by
/// the server (LedgerServer) and the client library (LedgerClient), so that both read and write
/// the same types. Positions, versions and counts are integers (`Int64`), never floating point.
public enum APIModel {}
