import LedgerCore
/// The one stylesheet of the HTML reports, inlined in every page (no fonts, images or sheets are
/// fetched). Made for print on A4 and US Letter alike: no paper size is forced, the content is at
/// most 180 mm wide (A4 is 210 mm, Letter 216 mm, less the margins), charts, figure boxes and
/// small tables are kept whole, rows never split, table headers repeat on every page, and the
/// appendix starts a page of its own. The consent register adds ``landscape``: its pages turn
/// sideways for a real table whose identifiers never break.
enum ReportStyle {
    /// The CSS.
    static let css: String = """
        @page { margin: 16mm 13mm 16mm; }
        * { box-sizing: border-box; }
        html { -webkit-print-color-adjust: exact; print-color-adjust: exact; background: #fff; }
        body { max-width: 180mm; margin: 0 auto; padding: 10mm 4mm 14mm;
          font-family: "Helvetica Neue", Helvetica, Arial, "Liberation Sans", "DejaVu Sans", sans-serif;
          font-size: 10pt; line-height: 1.45; color: #1a1a1a; background: #fff; }
        @media print { body { padding: 0; } }
        header { margin-bottom: 4mm; }
        .kicker { margin: 0 0 1mm; font-size: 8pt; letter-spacing: .08em; text-transform: uppercase; color: #4a4a4a; }
        h1 { margin: 0 0 1mm; font-size: 20pt; line-height: 1.2; }
        .subtitle { margin: 0 0 3mm; font-size: 11pt; color: #333; }
        h2 { margin: 8mm 0 2.5mm; padding-bottom: 1mm; border-bottom: 1.5pt solid #1a1a1a; font-size: 14pt; line-height: 1.25;
          break-after: avoid; page-break-after: avoid; }
        h3 { margin: 5mm 0 1.5mm; font-size: 11pt; break-after: avoid; page-break-after: avoid; }
        p { margin: 0 0 2.5mm; }
        .intro { color: #2b2b2b; break-after: avoid; page-break-after: avoid; }
        .nw { white-space: nowrap; }
        .note { font-size: 8.5pt; color: #404040; }
        code, .id { font-family: "DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, monospace; font-size: 8.5pt; }
        td, dd, li, p { overflow-wrap: break-word; }
        .id { overflow-wrap: anywhere; }
        .provenance { margin: 4mm 0 2mm; padding: 3mm 4mm; border: 1pt solid #7a7a7a; background: #f3f5f7;
          break-inside: avoid; page-break-inside: avoid; }
        .provenance h2 { margin: 0 0 2mm; padding: 0; border: 0; font-size: 11pt; }
        .provenance dl { display: grid; grid-template-columns: minmax(28mm, max-content) minmax(0, 1fr); gap: 1mm 4mm; margin: 0 0 2mm; }
        .provenance dt { font-weight: 600; }
        .provenance dd { margin: 0; min-width: 0; }
        .provenance p { margin: 1.5mm 0 0; font-size: 9pt; }
        .check-ok { color: #005a3c; font-weight: 600; }
        .warning { margin: 2mm 0; padding: 2mm 3mm; border: 1.5pt solid #8b0000; background: #fff1f0; color: #5c0000; font-weight: 600; }
        nav.contents { margin: 3mm 0; font-size: 9pt; break-inside: avoid; page-break-inside: avoid; }
        nav.contents ol { margin: 1mm 0 0; padding-left: 6mm; columns: 2; column-gap: 8mm; }
        nav.contents a { color: inherit; }
        table { width: 100%; margin: 1mm 0 4mm; border-collapse: collapse; font-size: 8.5pt; line-height: 1.35; }
        thead { display: table-header-group; }
        tr { break-inside: avoid; page-break-inside: avoid; }
        th, td { padding: 1.2mm 1.5mm; border-bottom: .5pt solid #b5b5b5; text-align: left; vertical-align: top; }
        thead th { border-bottom: 1pt solid #333; background: #eceff2; font-weight: 600; }
        tbody th { font-weight: 600; }
        caption { padding-bottom: 1mm; text-align: left; font-weight: 600; }
        .num { text-align: right; font-variant-numeric: tabular-nums; }
        td.num { white-space: nowrap; }
        table.figures { width: auto; min-width: 60%; }
        table.figures th { font-weight: normal; }
        table.figures td.num { font-weight: 600; }
        table.figures td.explain { color: #404040; }
        table.facts th { width: 30%; font-weight: normal; }
        table.dossier, table.changes, table.violations { table-layout: fixed; }
        table.dossier th:nth-child(1) { width: 16%; } table.dossier th:nth-child(2) { width: 19%; }
        table.dossier th:nth-child(3) { width: 36%; } table.dossier th:nth-child(4) { width: 29%; }
        table.changes th:nth-child(1) { width: 23%; } table.changes th:nth-child(2) { width: 14%; }
        table.changes th:nth-child(3) { width: 9%; } table.changes th:nth-child(4) { width: 11%; }
        table.changes th:nth-child(5) { width: 9%; } table.changes th:nth-child(6) { width: 11%; }
        table.changes th:nth-child(7) { width: 23%; }
        table.violations th:nth-child(1) { width: 17%; } table.violations th:nth-child(2) { width: 18%; }
        table.violations th:nth-child(3) { width: 13%; } table.violations th:nth-child(4) { width: 29%; }
        table.violations th:nth-child(5) { width: 23%; }
        table.chart-data { width: auto; min-width: 50%; }
        table.data td .id { font-size: 8pt; }
        .pair { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 0 6mm; }
        .pair > .subsection { break-inside: avoid; page-break-inside: avoid; }
        .total { border-top: 1pt solid #333; font-weight: 600; }
        ul.rules { margin: 0 0 3mm; padding-left: 5mm; }
        .none { color: #5f5f5f; }
        .exact { color: #5f5f5f; font-size: 8pt; white-space: nowrap; }
        .erased { display: inline-block; padding: 0 1mm; border: 1pt solid #8b0000; border-radius: 1mm; color: #8b0000;
          font-size: 7.5pt; font-weight: 700; letter-spacing: .05em; text-transform: uppercase; line-height: 1.4; }
        ul.evidence, ul.plain { margin: 0; padding: 0; list-style: none; }
        ul.evidence li, ul.plain li { margin: 0 0 .6mm; }
        .pos { font-weight: 600; white-space: nowrap; }
        .outcome { display: inline-block; padding-left: 1.5mm; border-left: 2.5mm solid #999; font-weight: 600; overflow-wrap: normal; }
        figure.chart { margin: 3mm 0 4mm; break-inside: avoid; page-break-inside: avoid; }
        figure.chart figcaption { margin-bottom: 1mm; font-weight: 600; }
        svg.chart { display: block; width: 100%; max-width: 180mm; height: auto; }
        svg.chart text { font-family: inherit; }
        svg.chart text:not(.inbar) { fill: #1a1a1a; }
        svg.chart .grid { stroke: #d6d6d6; stroke-width: .8; }
        svg.chart .axis { stroke: #333; stroke-width: 1; }
        svg.chart .bar { stroke: #fff; stroke-width: .8; }
        svg.chart .axis-title { font-weight: 600; }
        .empty { margin: 1mm 0 3mm; padding: 3mm; border: 1pt dashed #8a8a8a; font-style: italic; color: #333; }
        .key-figures { display: grid; grid-template-columns: repeat(auto-fit, minmax(27mm, 1fr)); gap: 2mm; margin: 3mm 0 4mm;
          break-inside: avoid; page-break-inside: avoid; }
        .key-figures .figure { padding: 2mm 2.5mm; border: 1pt solid #b5b5b5; background: #fafafa; }
        .key-figures .value { display: block; font-size: 14pt; font-weight: 700; line-height: 1.2; }
        .key-figures .label { display: block; font-size: 8pt; color: #404040; }
        .pass { color: #005a3c; font-weight: 700; }
        .fail { color: #8b0000; font-weight: 700; }
        .statement { margin: 1mm 0 3mm; padding: 2mm 3mm; border-left: 1.5mm solid #7a7a7a; background: #f6f6f6; }
        .statement p, .statement ul { margin: 0 0 1.5mm; } .statement > :last-child { margin-bottom: 0; }
        .unchanged { color: #5f5f5f; }
        .issue { margin: 0 0 3mm; font-size: 10pt; }
        section.about p.lead { margin-bottom: 1.5mm; }
        ul.findings { margin: 1mm 0 3mm; padding-left: 5mm; }
        ul.findings li { margin-bottom: 1mm; }
        section.appendix { break-before: page; page-break-before: always; margin-top: 0; }
        section.signoff { break-inside: avoid; page-break-inside: avoid; margin-top: 6mm; }
        table.signoff { width: 100%; border-collapse: collapse; }
        table.signoff th, table.signoff td { text-align: left; padding: 4mm 2mm 1mm 0; vertical-align: bottom; }
        .line { display: inline-block; min-width: 45mm; border-bottom: 0.75pt solid #1a1a1a; height: 1em; }
        .line.short { min-width: 25mm; }
        table.keep { break-inside: avoid; page-break-inside: avoid; }
        footer { margin-top: 8mm; padding-top: 2mm; border-top: .5pt solid #8a8a8a; font-size: 8pt; color: #4a4a4a; }
        """
        + "\n"
        + ConsentOutcome.allCases.map { ".outcome.\($0.cssClass) { border-left-color: \($0.color.fill); }" }.joined(separator: "\n")
        + "\n"

    /// For the consent register: landscape pages (271 mm of width on A4, 253 mm on Letter, less
    /// margins) and the register as one table row per item, identifiers in one piece.
    static let landscape: String = """
        @page { size: landscape; margin: 14mm 12mm 14mm; }
        body { max-width: 270mm; }
        table.register { table-layout: fixed; font-size: 7.5pt; line-height: 1.3; }
        table.register th:nth-child(1) { width: 3%; } table.register th:nth-child(2) { width: 25%; }
        table.register th:nth-child(3) { width: 13.5%; } table.register th:nth-child(4) { width: 9.5%; }
        table.register th:nth-child(5) { width: 41%; } table.register th:nth-child(6) { width: 8%; }
        .id.whole { white-space: nowrap; overflow-wrap: normal; }
        table.register th, table.register td { padding: .8mm 1.2mm; }
        table.register td .id { font-size: 6.6pt; }
        table.register td.n { color: #5f5f5f; text-align: right; white-space: nowrap; }
        table.register .pos { font-weight: normal; }
        table.register td { white-space: normal; overflow-wrap: normal; }

        """
}
