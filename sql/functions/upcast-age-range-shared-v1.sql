-- AgeRangeShared version 1 -> version 2, in SQL, for the projections (the Swift catalogue does
-- the same in AgeRangeShared+Version1.swift, and a test checks that both agree): version 2 lists
-- the parental controls in force as `activeParentalControls` instead of an object of flags
-- `parentalControls`, in the order communicationLimits, significantAppChangeApprovalRequired.
-- Every other member is kept.
CREATE OR REPLACE FUNCTION ledger.upcast_age_range_shared_v1(p_payload jsonb)
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
  SELECT (p_payload - 'parentalControls')
         || jsonb_build_object('activeParentalControls', to_jsonb(array_remove(ARRAY[
              CASE WHEN (p_payload #>> '{parentalControls,communicationLimits}')::boolean
                   THEN 'communicationLimits' END,
              CASE WHEN (p_payload #>> '{parentalControls,significantAppChangeApprovalRequired}')::boolean
                   THEN 'significantAppChangeApprovalRequired' END], NULL)))
$fn$;
