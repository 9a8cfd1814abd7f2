-- Schema version 2 marked surprising facts (an answer with no question, a decision made twice, ...)
-- in ledger.anomalies inside every append. Since version 3 the anomalies projection finds them
-- (projections/anomalies), after the append has committed: the append does less, and every kind is
-- found the same way whether the log is caught up in steps, rebuilt or time-travelled.
DROP FUNCTION IF EXISTS ledger.mark_anomalies(text, bigint, bigint);
DROP TABLE IF EXISTS ledger.anomalies;
