-- Up to schema version 17 ledger.erase_subject took the log and the subject and returned whether it
-- destroyed a key; the caller appended SubjectErased through ledger.append_events. Since version 18
-- it takes the event and records it itself (decision 0056), and returns its position: another
-- argument list and result type, so the old function goes first.
DROP FUNCTION IF EXISTS ledger.erase_subject(text, text);
