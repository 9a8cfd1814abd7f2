-- What the log held as of the report's position (the notices, RegulatorQuery+Notices.swift): when
-- its first and last events occurred (device clock; report_facts' index facts_period), and when the
-- event at the report's position, the newest it reads, was recorded. $1 log, $2 the position.
SELECT (SELECT min(occurred_at) FROM facts WHERE log_id = $1 AND position <= $2),
       (SELECT max(occurred_at) FROM facts WHERE log_id = $1 AND position <= $2),
       (SELECT recorded_at FROM ledger.events WHERE log_id = $1 AND position = $2)
