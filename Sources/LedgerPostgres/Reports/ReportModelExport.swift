/// The reports' namespaces, parameters, results and documents are LedgerReportModel's (decision
/// 0073); computing them is here. Re-exported so that whoever calls a report through this module
/// (the application, the CLI, the benchmarks) names its types as before.
@_exported import LedgerReportModel
