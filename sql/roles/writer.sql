-- consent_ledger_writer: the ledger's own writer (decision 0072). It is the application role
-- (a member that inherits its rights) and may also call ledger.append_checked_events, which stores
-- events the ledger's own code (serve, the CLI) has already checked against the event catalogue,
-- without checking them again in SQL. The integrity gate (positions, leaf and chain hashes, every
-- column against its record, the head, who may append each type) holds for it as for every
-- writer. Give its login only to the ledger's own processes: a client that holds it could store an
-- event the catalogue refuses. Every other caller (psql, another client) uses consent_ledger_app,
-- whose one way in, ledger.append_events, checks everything.
DO $writer$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'consent_ledger_writer') THEN
    BEGIN
      CREATE ROLE consent_ledger_writer LOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL;
    END;
  END IF;
  IF NOT pg_has_role('consent_ledger_writer', 'consent_ledger_app', 'MEMBER') THEN
    GRANT consent_ledger_app TO consent_ledger_writer;
  END IF;
END
$writer$;
