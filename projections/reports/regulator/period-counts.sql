-- The period's events of every jurisdiction, counted by jurisdiction code, environment, type and
-- the age signal's columns, with the first position of each combination (RegulatorQuery+Period.swift
-- adds them up for the scope, the age signals and coverage's back-fill requests). $6 and $7 are
-- where the period's whole UTC days start and end (RegulatorQuery.wholeDays). Those days come from
-- period_counts, block by block for the blocks of 10,000 positions that end at or below $2
-- (report_facts' fold.sql); facts itself gives the rest: the positions after the last such block,
-- and the hours before $6 and from $7 on.
SELECT jurisdiction, environment, type, trigger, category, declaration, play_status, error, check_method, outcome,
       sum(events)::bigint, min(first_position)
  FROM (SELECT jurisdiction, environment, type, trigger, category, declaration, play_status, error, check_method,
               outcome, events, first_position
          FROM period_counts
         WHERE log_id = $1 AND day >= ($6::timestamptz AT TIME ZONE 'UTC')::date AND day < ($7::timestamptz AT TIME ZONE 'UTC')::date
           AND block < $2 / 10000
        UNION ALL
        SELECT jurisdiction, environment, type, trigger, category, declaration, play_status, error, check_method,
               outcome, 1, position
          FROM facts
         WHERE log_id = $1 AND position > ($2 / 10000) * 10000 AND position <= $2 AND occurred_at >= $3 AND occurred_at < $4
        UNION ALL
        SELECT jurisdiction, environment, type, trigger, category, declaration, play_status, error, check_method,
               outcome, 1, position
          FROM facts
         WHERE log_id = $1 AND position <= ($2 / 10000) * 10000
           AND ((occurred_at >= $3 AND occurred_at < $6) OR (occurred_at >= $7 AND occurred_at < $4))) counted
 GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
