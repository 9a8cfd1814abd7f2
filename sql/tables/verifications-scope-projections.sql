-- Schema 18: `verify --projections` is recorded too (scope 'projections', head_position the
-- position every projection was proven to), and the regulator report states the newest (decision
-- 0058). Re-runnable: the constraint is made again with the three scopes.
ALTER TABLE ledger.verifications DROP CONSTRAINT IF EXISTS verifications_scope_check;
ALTER TABLE ledger.verifications ADD CONSTRAINT verifications_scope_check
  CHECK (scope IN ('full', 'since-checkpoint', 'projections'));
