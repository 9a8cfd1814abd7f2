-- A subject's state as one JSON object (SubjectSnapshot.swift): one row per subject of log $1 (only
-- subject $2 when it is not NULL), each the JSON text of its snapshot, in subject order, from the
-- subject_state and consent_register tables the search_path finds (live, a time-travel copy, or a
-- replay's). The dossier's states, `state` and `replay` print it.
WITH who AS (
  SELECT subject FROM subjects WHERE log_id = $1 AND ($2::text IS NULL OR subject = $2)
  UNION
  SELECT subject FROM entries WHERE log_id = $1 AND subject IS NOT NULL AND ($2::text IS NULL OR subject = $2))
SELECT jsonb_build_object(
  'subject', w.subject,
  'age', CASE WHEN s.age_position IS NOT NULL THEN jsonb_build_object(
           'category', s.age_category, 'lower', s.age_lower, 'upper', s.age_upper,
           'declaration', s.age_declaration, 'verifiedAdult', s.verified_adult,
           'source', s.age_event_type, 'position', s.age_position, 'eventId', s.age_event_id) END,
  'parentalControls', to_jsonb(s.parental_controls),
  'erased', coalesce(s.erased, false),
  'signals', coalesce((SELECT jsonb_agg(jsonb_build_object(
               'platform', p.platform, 'outcome', p.outcome, 'category', p.age_category,
               'position', p.position) ORDER BY p.platform)
               FROM platform_signals p WHERE p.log_id = $1 AND p.subject = w.subject), '[]'::jsonb),
  'features', coalesce((SELECT jsonb_agg(jsonb_build_object(
                'app', f.bundle_id, 'feature', f.feature, 'state', f.state,
                'policyVersion', f.policy_version, 'basis', to_jsonb(f.basis), 'position', f.position)
                ORDER BY f.bundle_id, f.feature)
                FROM features f WHERE f.log_id = $1 AND f.subject = w.subject), '[]'::jsonb),
  'appFacts', coalesce((SELECT jsonb_agg(jsonb_build_object(
                'app', a.bundle_id, 'fact', a.fact, 'value', a.value, 'detail', to_jsonb(a.detail), 'position', a.position)
                ORDER BY a.bundle_id, a.fact)
                FROM app_facts a WHERE a.log_id = $1 AND a.subject = w.subject), '[]'::jsonb),
  'consents', coalesce((SELECT jsonb_agg(jsonb_build_object(
                'kind', e.kind, 'id', e.item_id, 'app', e.bundle_id, 'topic', e.topic,
                'changeId', e.change_id, 'ratedApp', e.rated_app, 'status', e.status,
                'answeredBy', e.answered_by, 'channel', e.answer_channel,
                'evidence', to_jsonb(e.evidence_positions))
                ORDER BY coalesce(e.asked_position, e.answered_position, e.failed_position, e.expired_position),
                         e.kind, e.item_id)
                FROM entries e WHERE e.log_id = $1 AND e.subject = w.subject), '[]'::jsonb)
)::text
  FROM who w
  LEFT JOIN subjects s ON s.log_id = $1 AND s.subject = w.subject
 ORDER BY w.subject
