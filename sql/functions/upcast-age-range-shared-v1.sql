-- AgeRangeShared version 1 -> version 2, in SQL, for the projections (the Swift catalogue does
-- the same in AgeRangeShared+Version1.swift, and a test checks that both agree): version 2 lists
-- the parental controls in force as `activeParentalControls` instead of an object of flags
-- `parentalControls`, in the order communicationLimits, significantAppChangeApprovalRequired
-- (all false gives []; an absent or null object stays absent). Every other member is kept.
CREATE OR REPLACE FUNCTION ledger.upcast_age_range_shared_v1(p_payload jsonb)
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
  SELECT CASE WHEN jsonb_typeof(p_payload -> 'parentalControls') = 'object' THEN
           (p_payload - 'parentalControls')
           || jsonb_build_object('activeParentalControls', to_jsonb(array_remove(ARRAY[
                CASE WHEN p_payload -> 'parentalControls' -> 'communicationLimits' = 'true'::jsonb
                     THEN 'communicationLimits' END,
                CASE WHEN p_payload -> 'parentalControls' -> 'significantAppChangeApprovalRequired' = 'true'::jsonb
                     THEN 'significantAppChangeApprovalRequired' END], NULL)))
         ELSE p_payload - 'parentalControls' END
$fn$;
