import LedgerCore

/// Writes `ledger.key_problems`: every member name of every event of a batch, at any depth, read
/// from the text as sent (type `json`, which keeps duplicate keys, unlike `jsonb`), for two checks:
/// a key that appears twice in one object (the Swift parser refuses it; jsonb would silently keep
/// the last), and ``ForbiddenPersonalData``'s birth-date and exact-age names, folded as Swift folds
/// them (case, and everything but letters and digits, dropped).
enum KeyProblemsSQL {
    /// A case-insensitive regular expression for a key, in the JSON text of the array of an event's
    /// keys, that folds to one of the forbidden names. (A key with escapes may fold otherwise; it is
    /// refused as an unknown field either way, since no catalogue key has a forbidden name.)
    static var forbiddenKeyRegex: String {
        let skip = "[^a-z0-9\"]*"
        let names = (ForbiddenPersonalData.birthDateKeys.sorted() + ForbiddenPersonalData.exactAgeKeys.sorted())
            .map { $0.map(String.init).joined(separator: skip) }
        return "\"" + skip + "(" + names.joined(separator: "|") + ")" + skip + "\""
    }

    /// `ledger.may_have_key_problem(body, doc)`: the cheap screen in front of the walk.
    static var screen: String {
        """
        -- ledger.may_have_key_problem: false when the event text p_body (parsed: p_doc) certainly has no
        -- duplicate key and no forbidden key, so that ledger.key_problems walks only the others.
        -- Duplicates: when no quote in the text is followed by whitespace, every key's closing quote is
        -- followed by a colon, so the text holds at least as many '":' as keys (more only when a string
        -- holds an escaped quote before a colon); if it holds exactly as many as the keys jsonb kept,
        -- jsonb dropped none. Text with a quote before whitespace is always walked. Forbidden names:
        -- one cached regular expression over the text of the array of every key. PL/pgSQL, so the
        -- array of keys is computed once; string functions, not a regular expression, count the colons
        -- (five times cheaper; decision 0040).
        CREATE OR REPLACE FUNCTION ledger.may_have_key_problem(p_body text, p_doc jsonb) RETURNS boolean
        LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
        AS $fn$
        DECLARE
          v_keys jsonb := jsonb_path_query_array(p_doc, 'strict $.** ? (@.type() == "object").keyvalue().key');
        BEGIN
          RETURN strpos(p_body, '" ') > 0 OR strpos(p_body, E'"\\t') > 0 OR strpos(p_body, E'"\\n') > 0 OR strpos(p_body, E'"\\r') > 0
              OR (length(p_body) - length(replace(p_body, '":', ''))) / 2 <> jsonb_array_length(v_keys)
              OR v_keys::text ~* '\(forbiddenKeyRegex)';
        END
        $fn$;

        """
    }

    static var function: String {
        let birth = SQLText.list(ForbiddenPersonalData.birthDateKeys.sorted())
        let age = SQLText.list(ForbiddenPersonalData.exactAgeKeys.sorted())
        return """
            -- ledger.key_problems: for each event of p_events (by ordinality) whose member names break a
            -- rule, the first duplicate key in an object (kind 'duplicate') and the first birth date, birth
            -- year or exact age (kind 'forbidden'), each as '<path>: <what is wrong>'. One recursive walk over
            -- the whole batch. Keys are folded as ForbiddenPersonalData folds them in Swift: lowercase, only
            -- letters and digits kept (here ASCII ones: every catalogue key is ASCII, so a key with other
            -- characters is refused as unknown either way). The first is the first in sorted-key,
            -- depth-first order, as Swift finds it. PL/pgSQL, so that its plan is kept for the session: as
            -- a SQL function called with a sub-select argument it was planned again on every append
            -- (decision 0040).
            CREATE OR REPLACE FUNCTION ledger.key_problems(p_events text[])
            RETURNS TABLE (ord bigint, kind text, problem text)
            LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
            AS $fn$
            #variable_conflict use_column
            BEGIN
            RETURN QUERY
            WITH RECURSIVE node (ord, parent, key, path, sort_path, value) AS (
              SELECT u.ord, NULL::text, NULL::text, ''::text, ARRAY[]::text[], u.body::json
                FROM unnest(p_events) WITH ORDINALITY AS u(body, ord)
              UNION ALL
              SELECT n.ord, n.path, c.key, c.path, n.sort_path || c.part, c.value
                FROM node n
                CROSS JOIN LATERAL (
                  SELECT o.key, CASE WHEN n.path = '' THEN o.key ELSE n.path || '.' || o.key END, o.key, o.value
                    FROM json_each(CASE WHEN json_typeof(n.value) = 'object' THEN n.value ELSE '{}'::json END) AS o
                  UNION ALL
                  SELECT NULL, n.path || '[' || (a.i - 1) || ']', lpad((a.i - 1)::text, 10, '0'), a.value
                    FROM json_array_elements(CASE WHEN json_typeof(n.value) = 'array' THEN n.value ELSE '[]'::json END)
                         WITH ORDINALITY AS a(value, i)
                ) AS c(key, path, part, value)
               WHERE json_typeof(n.value) IN ('object', 'array')
            ),
            keys AS (
              SELECT n.ord, n.parent, n.key, n.path, n.sort_path,
                     count(*) OVER (PARTITION BY n.ord, n.parent, n.key) AS copies,
                     regexp_replace(lower(n.key), '[^a-z0-9]', '', 'g') AS folded
                FROM node n WHERE n.key IS NOT NULL
            )
            SELECT * FROM (
              SELECT DISTINCT ON (k.ord) k.ord, 'duplicate',
                     k.path || ': duplicate key ' || to_json(k.key)::text
                     || ' (a key appears once per object; PostgreSQL''s jsonb would keep only the last)'
                FROM keys k WHERE k.copies > 1
               ORDER BY k.ord, k.sort_path COLLATE "C") AS d
            UNION ALL
            SELECT * FROM (
              SELECT DISTINCT ON (k.ord) k.ord, 'forbidden',
                     k.path || ': ' || CASE WHEN k.folded IN (\(birth)) THEN 'a birth date or birth year'
                                            ELSE 'an exact age' END || ' is never accepted'
                FROM keys k WHERE k.folded IN (\(birth)) OR k.folded IN (\(age))
               ORDER BY k.ord, k.sort_path COLLATE "C") AS f;
            END
            $fn$;

            """
    }
}
