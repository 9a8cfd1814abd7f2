-- The stored questions a range names ($2: question ids of its questions and answers), for the
-- Swift fold (Sources/LedgerFolds/SignificantChanges/).
SELECT question_id, change_id, subject, position FROM questions WHERE log_id = $1 AND question_id = ANY ($2::text[]);
