-- The index of anomalies that only readers use (a subject's findings): no fold statement reads
-- findings but through its primary key. A rebuild creates it after its last range, before the
-- swap; every other schema gets it with its tables.
CREATE INDEX findings_subject ON findings (log_id, subject);
