import LedgerPostgres
import Testing

@Suite("Splitting SQL files into statements")
struct SQLScriptTests {
    @Test("semicolons inside strings, identifiers, comments and dollar quotes do not split")
    func hiddenSemicolons() {
        let script = """
            -- a comment; with a semicolon
            CREATE TABLE a (x text DEFAULT 'it''s; fine', "odd;name" int);
            /* block; /* nested; */ still comment */
            CREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $fn$
            BEGIN
              RAISE NOTICE 'x;y'; RETURN 1;
            END
            $fn$;
            COMMENT ON TABLE a IS 'done;'
            """
        let statements = SQLScript.statements(in: script)
        #expect(statements.count == 3)
        #expect(statements[0].hasSuffix(#""odd;name" int)"#))
        #expect(statements[1].contains("RAISE NOTICE 'x;y'; RETURN 1;"))
        #expect(statements[1].hasSuffix("$fn$"))
        #expect(statements[2] == "COMMENT ON TABLE a IS 'done;'")
    }

    @Test("comment-only pieces are dropped")
    func commentsOnly() {
        #expect(SQLScript.statements(in: "-- nothing here;\n/* nor; here */\n;").isEmpty)
    }
}
