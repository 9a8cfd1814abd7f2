// ConsentLedgerEvents: the event catalogue's types for app backends (docs/client.md).
//
// Every payload type (`AgeRangeShared`, `PermissionQuestionSent`, `ParentalAnswerReceived`, …) with
// its allowed values as enums comes from LedgerCore, the very code the ledger checks events with;
// `EventSource` adds the envelope and checks the whole event before it leaves the backend.
@_exported import LedgerCore
