import LedgerCore
import Testing

@Suite("CSV (RFC 4180) and report seals")
struct CSVAndSealTests {
    @Test("fields with commas, quotes or line breaks are quoted, quotes doubled, records end in CRLF")
    func csvQuoting() {
        let text = CSVWriter.document(header: ["a", "b", "c"], rows: [
            ["plain", "with, comma", "say \"hi\""],
            ["two\nlines", "", "cr\rhere"],
        ])
        #expect(text == "a,b,c\r\nplain,\"with, comma\",\"say \"\"hi\"\"\"\r\n\"two\nlines\",,\"cr\rhere\"\r\n")
    }

    @Test("a cell a spreadsheet would run as a formula is written as text; plain numbers are left as they are",
          arguments: [("=HYPERLINK(\"http://x\")", "\"'=HYPERLINK(\"\"http://x\"\")\""), ("+1+1", "'+1+1"), ("-2+3", "'-2+3"),
                      ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"), ("=1", "'=1"), ("-", "'-"), ("-5", "-5"), ("+1.5", "+1.5"),
                      ("-0.25", "-0.25"), ("a=b", "a=b"), ("", "")])
    func csvInjection(cell: String, written: String) {
        #expect(CSVWriter.field(cell) == written)
    }

    @Test("a sealed report verifies, and any change to it breaks the seal")
    func sealVerifies() throws {
        let (bytes, digest) = ReportSeal.seal(["report": "x", "rows": [["n": 1]], "sha256": "stale"])
        let report = try JSONParser.parse(bytes)
        #expect(report["sha256"]?.stringValue == digest)
        #expect(ReportSeal.verify(report))
        guard case .object(var members) = report else { Issue.record("not an object"); return }
        members["rows"] = [["n": 2]]
        #expect(!ReportSeal.verify(.object(members)))
        // The same object gives the same bytes, whatever order its members were built in.
        #expect(ReportSeal.seal(["rows": [["n": 1]], "report": "x"]).bytes == bytes)
    }
}

@Suite("Report tables as CSV")
struct ReportTableTests {
    @Test("strings as they are, lists of scalars joined by spaces, objects as canonical JSON, null empty")
    func fields() {
        let rows: [JSONValue] = [["a": "x, y", "b": [5, 6], "c": ["k": 1], "d": .null, "e": true, "f": 12]]
        #expect(ReportTable.csv(rows: rows, columns: ["a", "b", "c", "d", "e", "f", "missing"])
                == "a,b,c,d,e,f,missing\r\n\"x, y\",5 6,\"{\"\"k\"\":1}\",,true,12,\r\n")
    }
}
