-- Coverage (titled by the laws that govern the jurisdiction, RegulatorLaws.coverage): the installs
-- active in the period (regulator_installs, installs.sql), how many had an age range requested at
-- download, at launch, and, of those with none at download, any by the period's end. The period's
-- back-fill requests are counted with the other counts (period-counts.sql).
WITH requested AS (
       SELECT i.subject, i.bundle_id,
              coalesce(bool_or(r.trigger = 'download'), false) AS at_download,
              coalesce(bool_or(r.trigger = 'launch'), false) AS at_launch,
              count(r.position) > 0 AS any_request
         FROM regulator_installs i
         LEFT JOIN facts r ON r.log_id = $1 AND r.type = 'AgeRangeRequested'
                          AND r.subject = i.subject AND r.bundle_id = i.bundle_id
                          AND r.position <= $2 AND r.occurred_at < $4
        GROUP BY i.subject, i.bundle_id)
SELECT count(*)::bigint, count(*) FILTER (WHERE at_download)::bigint, count(*) FILTER (WHERE at_launch)::bigint,
       count(*) FILTER (WHERE NOT at_download)::bigint,
       count(*) FILTER (WHERE NOT at_download AND any_request)::bigint
  FROM requested
