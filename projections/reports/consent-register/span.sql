-- What the register held as of the report's position (its notices, ConsentRegisterReport.swift):
-- when the first and the last of log $1's items (only subject $2's when it is not NULL) were asked,
-- or tried for a question that could not be asked, and when the event at position $3, the newest
-- the report reads, was recorded.
SELECT (SELECT min(coalesce(asked_at, failed_at)) FROM entries WHERE log_id = $1 AND ($2::text IS NULL OR subject = $2)),
       (SELECT max(coalesce(asked_at, failed_at)) FROM entries WHERE log_id = $1 AND ($2::text IS NULL OR subject = $2)),
       (SELECT recorded_at FROM ledger.events WHERE log_id = $1 AND position = $3)
