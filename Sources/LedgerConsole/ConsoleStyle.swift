/// console.css: the console's only stylesheet, served at ``ConsoleAssets/stylesheetPath``. Text
/// and controls meet WCAG 2.1 AA contrast (4.5:1 for text, 3:1 for focus rings and borders); focus
/// is always visible; the print style drops the navigation and the controls.
enum ConsoleStyle {
    /// The stylesheet.
    static let source = #"""
:root { color-scheme: light; --ink: #1a1a1a; --muted: #4a4a4a; --line: #767676; --accent: #0b5cad; --bad: #a1260d; --good: #1d6b32; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: #fff; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, summary:focus-visible, main:focus-visible {
  outline: 3px solid #c45100; outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: #fff; padding: .5rem 1rem; }
.skip:focus { left: .5rem; }
header { display: flex; flex-wrap: wrap; align-items: center; gap: 1rem; padding: .75rem 1.5rem; border-bottom: 1px solid var(--line); }
header .brand { margin: 0; font-weight: 700; }
nav { display: flex; flex-wrap: wrap; align-items: center; gap: 1rem; flex: 1; }
nav ul { display: flex; gap: 1rem; list-style: none; margin: 0; padding: 0; }
nav .sign-out { margin-left: auto; display: flex; gap: .75rem; align-items: center; color: var(--muted); }
main { max-width: 72rem; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 2rem; } h3 { font-size: 1.05rem; margin: 0 0 .25rem; }
label { display: block; font-weight: 600; margin: .5rem 0 .25rem; }
input, select, textarea { font: inherit; padding: .4rem .5rem; border: 1px solid var(--line); border-radius: 3px; color: var(--ink); background: #fff; }
input { min-width: min(28rem, 100%); }
textarea { width: 100%; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: .85rem; }
button { font: inherit; padding: .4rem .9rem; border: 1px solid var(--accent); border-radius: 3px; background: var(--accent); color: #fff; cursor: pointer; }
button:hover { background: #094a8c; }
.sign-out button { background: #fff; color: var(--accent); }
.help { color: var(--muted); font-size: .9rem; margin: .25rem 0; }
.alert { border-left: 4px solid var(--bad); padding: .5rem .75rem; background: #fdf0ed; color: #5c1607; }
.hint { color: var(--muted); }
table.data, table.chart-data { border-collapse: collapse; margin: .5rem 0; }
table.data th, table.data td, table.chart-data th, table.chart-data td { border-bottom: 1px solid #c8c8c8; padding: .3rem .75rem; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
caption { text-align: left; color: var(--muted); padding-bottom: .25rem; }
figure.chart { margin: 1rem 0; } figure.chart figcaption { font-weight: 600; }
svg.chart { display: block; width: 100%; max-width: 48rem; height: auto; }
ol.timeline { list-style: none; padding: 0; }
li.event { border: 1px solid #c8c8c8; border-radius: 4px; padding: .75rem 1rem; margin: .75rem 0; }
li.event .position { color: var(--muted); font-weight: 400; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; margin: .5rem 0; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; }
dl.json { margin: .25rem 0 .25rem 1rem; } dl.json dt { font-weight: 600; } dl.json dd { margin: 0 0 .25rem 1rem; }
.empty { color: var(--muted); }
.proof { margin-top: .5rem; }
.proof-result { display: block; margin: .4rem 0; font-weight: 600; }
.proof-result.verified { color: var(--good); }
.proof-result.failed { color: var(--bad); }
.proof-none { color: var(--muted); }
output.verified { color: var(--good); font-weight: 600; } output.failed { color: var(--bad); font-weight: 600; }
#verify-form { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; }
form.as-of, form.find, form.sign-in { margin: .5rem 0 1rem; }
pre.record-bytes { white-space: pre-wrap; word-break: break-all; font-size: .85rem; }
form.filters { display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; align-items: flex-end; }
form.filters input { min-width: 10rem; }
nav.pages { display: flex; gap: 1.5rem; margin: .5rem 0 1.5rem; }
td.status.denial, td.status.rescinded { color: var(--bad); }
.problem { color: var(--bad); } .ok { color: var(--good); }
section.decision { border-top: 1px solid #c8c8c8; margin-top: 1rem; }
ul.filters { display: flex; gap: 1rem; list-style: none; padding: 0; }
ol.findings { list-style: none; padding: 0; }
li.finding { border-left: 4px solid var(--line); padding: .25rem 1rem; margin: .75rem 0; }
li.finding.violation { border-left-color: var(--bad); }
li.event:target { outline: 3px solid #c45100; }
main.wide { max-width: none; }
.nowrap { white-space: nowrap; }
#register th, #register td { padding: .3rem .5rem; vertical-align: top; }
#register td.evidence { min-width: 5rem; }
#reads td.detail { overflow-wrap: anywhere; }
ul.status-totals { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; list-style: none; padding: 0; margin: .75rem 0; }
ul.status-totals li.current { font-weight: 600; border-bottom: 3px solid var(--accent); }
section.state-part { margin: 1rem 0 1.5rem; }
section.state-part h3 { font-size: 1.05rem; margin: 0 0 .25rem; }
p.empty { margin: .25rem 0; }
details.raw-json pre { white-space: pre-wrap; overflow-wrap: anywhere; font-size: .85rem; }
ul.subject-findings { padding-left: 1.25rem; } ul.subject-findings li { margin: .35rem 0; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(28rem, 1fr)); gap: 0 2rem; }
ul.presets { display: flex; flex-wrap: wrap; gap: .5rem; list-style: none; padding: 0; margin: .25rem 0; }
ul.presets button { background: #fff; color: var(--accent); }
@media print {
  header nav, .skip, form, button, .proof, details.proof-bytes { display: none !important; }
  details.state-after { display: block; } details.state-after > * { display: block; }
  li.event { break-inside: avoid; }
  a { color: inherit; text-decoration: none; }
}
"""#
}
