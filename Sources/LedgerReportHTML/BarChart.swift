import LedgerCore
/// A bar chart as inline SVG: one bar (stacked) or one group of bars (grouped) per category, an
/// axis with labelled ticks and titles, the count written on or above every bar, and a text
/// legend. It is an image to assistive technology (`role="img"`) labelled by its `<title>` and a
/// `<desc>` that lists every number, so it reads without colour or sight; the report also prints
/// the same numbers as a table (``dataTable(categoryHeader:)``).
///
/// With nothing to show (no categories, or every count zero) it renders ``emptySentence`` instead
/// of an empty axis.
public struct BarChart {
    /// How the series of a category are drawn.
    public enum Layout {
        /// One bar per category, its series stacked (the first at the bottom), the total above.
        case stacked
        /// One bar per series side by side in each category.
        case grouped
    }

    /// One series: a name for the legend and a colour.
    public struct Series {
        /// The name in the legend and the description.
        public var name: String
        /// Its colour.
        public var color: ChartColor

        /// A series from its parts.
        public init(name: String, color: ChartColor) {
            self.name = name
            self.color = color
        }
    }

    /// Unique in the page; prefixes the ids of the title and description.
    var id: String
    /// The caption and the SVG's `<title>`.
    var title: String
    /// The x labels, one per category, in order.
    var categories: [String]
    /// The series, in stacking and legend order.
    var series: [Series]
    /// `values[category][series]`.
    var values: [[Int]]
    /// Stacked or grouped.
    var layout: Layout
    /// Under the x axis.
    var xAxisTitle: String
    /// Beside the y axis.
    var yAxisTitle: String
    /// What a count counts, plural ("questions"), for the description.
    var unit: String
    /// Printed instead of the chart when there is nothing to show.
    var emptySentence: String
    /// A sentence under the chart (what it counts and from what), when there is one.
    var note: String? = nil

    /// A chart from its parts (see each property).
    public init(id: String, title: String, categories: [String], series: [Series], values: [[Int]], layout: Layout,
                xAxisTitle: String, yAxisTitle: String, unit: String, emptySentence: String, note: String? = nil) {
        self.id = id
        self.title = title
        self.categories = categories
        self.series = series
        self.values = values
        self.layout = layout
        self.xAxisTitle = xAxisTitle
        self.yAxisTitle = yAxisTitle
        self.unit = unit
        self.emptySentence = emptySentence
        self.note = note
    }

    // MARK: Geometry, in SVG user units (the chart scales to the column's width)

    private static let width = 720.0
    private static let plotLeft = 64.0
    private static let plotRight = width - 12
    private static let plotHeight = 210.0
    private static let labelFont = 11.0
    /// Beyond this many categories, zero counts are not written (the table beside has them).
    private static let denseCategories = 16
    /// Rough advance of a character of the label font: enough to decide what fits.
    private static let charWidth = 6.4

    /// Whether there is anything to draw.
    var isEmpty: Bool { categories.isEmpty || values.allSatisfy { $0.allSatisfy { $0 == 0 } } }

    /// The figure: caption, SVG (or the empty sentence) and note.
    public func render() -> HTML {
        precondition(values.count == categories.count && values.allSatisfy { $0.count == series.count },
                     "a chart needs one value per category and series")
        var figure: HTML = "<figure class=\"chart\" id=\"\(id)\">\n<figcaption>\(title)</figcaption>\n"
        if isEmpty {
            figure += "<p class=\"empty\">\(emptySentence)</p>\n"
        } else {
            figure += svg()
        }
        if let note { figure += "<p class=\"note\">\(note)</p>\n" }
        figure += "</figure>\n"
        return figure
    }

    /// The same numbers as a table: one row per category, one column per series (and the total
    /// when stacked). Empty when the chart is.
    public func dataTable(categoryHeader: String) -> HTML {
        guard !isEmpty else { return .empty }
        var header: [HTML] = ["<th scope=\"col\">\(categoryHeader)</th>"]
        header += series.map { "<th scope=\"col\" class=\"num\">\($0.name)</th>" }
        if layout == .stacked && series.count > 1 { header.append("<th scope=\"col\" class=\"num\">total</th>") }
        var rows: [HTML] = []
        for (index, category) in categories.enumerated() {
            var cells: [HTML] = ["<th scope=\"row\">\(category)</th>"]
            cells += values[index].map { "<td class=\"num\">\(ReportFormat.count($0))</td>" }
            if layout == .stacked && series.count > 1 {
                cells.append("<td class=\"num\">\(ReportFormat.count(values[index].reduce(0, +)))</td>")
            }
            rows.append("<tr>\(cells)</tr>\n")
        }
        return "<table class=\"data chart-data\" aria-label=\"\(title): the numbers\">\n<thead><tr>\(header)</tr></thead>\n<tbody>\n\(rows)</tbody>\n</table>\n"
    }

    /// Every number in words: "2026-03-02: 4 approved, 1 denied (5 in all); 2026-03-09: none."
    var description: String {
        let parts = categories.enumerated().map { index, category -> String in
            let counts = values[index]
            let named = zip(series, counts).filter { $0.1 != 0 }.map { "\(ReportFormat.count($0.1)) \($0.0.name)" }
            if named.isEmpty { return "\(category): none" }
            if layout == .stacked && series.count > 1 {
                return "\(category): \(named.joined(separator: ", ")) (\(ReportFormat.count(counts.reduce(0, +))) in all)"
            }
            return "\(category): \(named.joined(separator: ", "))"
        }
        let kind = layout == .stacked ? "Stacked bars" : (series.count > 1 ? "Grouped bars" : "Bars")
        return "\(kind) of \(unit) by \(xAxisTitle.lowercased()). " + parts.joined(separator: "; ") + "."
    }

    // MARK: Drawing

    private func svg() -> HTML {
        let f = ReportFormat.coordinate
        let width = Self.width
        let n = Double(categories.count)
        let band = (Self.plotRight - Self.plotLeft) / n

        // The legend: swatch and name, wrapped to the width.
        var legend: [HTML] = []
        var legendY = 10.0
        if series.count > 1 {
            var x = Self.plotLeft
            for item in series {
                let itemWidth = 12 + 5 + Double(item.name.count) * Self.charWidth + 16
                if x + itemWidth > Self.plotRight && x > Self.plotLeft {
                    x = Self.plotLeft
                    legendY += 18
                }
                legend.append("<rect x=\"\(f(x))\" y=\"\(f(legendY))\" width=\"12\" height=\"12\" fill=\"\(item.color.fill)\" stroke=\"#333\" stroke-width=\"0.5\"/>"
                    + "<text x=\"\(f(x + 17))\" y=\"\(f(legendY + 10))\">\(item.name)</text>\n")
                x += itemWidth
            }
            legendY += 18
        }

        // Bars, and where their counts go.
        let totals = values.map { layout == .stacked ? $0.reduce(0, +) : ($0.max() ?? 0) }
        let (yMax, step) = Self.scale(max: totals.max() ?? 0)
        let barWidth = layout == .stacked ? band * 0.7 : band * 0.8 / Double(series.count)
        let widestCount = values.flatMap { $0 }.map { ReportFormat.count($0).count }.max() ?? 1
        let widestTotal = totals.map { ReportFormat.count($0).count }.max() ?? 1
        let countsUpright = Double(layout == .stacked ? widestTotal : widestCount) * Self.charWidth <= (layout == .stacked ? band : barWidth) + 2
        let headroom = countsUpright ? 16.0 : Double(max(widestTotal, widestCount)) * Self.charWidth + 8
        let plotTop = legendY + headroom
        let plotBottom = plotTop + Self.plotHeight
        func y(_ value: Int) -> Double { plotBottom - Double(value) / Double(yMax) * Self.plotHeight }

        // x labels: level when they fit under their band, else slanted and thinned out.
        let widestLabel = Double(categories.map(\.count).max() ?? 1) * Self.charWidth
        let labelsLevel = widestLabel <= band - 4
        let labelStride = labelsLevel ? 1 : max(1, Int((16 / band).rounded(.up)))
        let labelDepth = labelsLevel ? 16.0 : widestLabel * 0.71 + 14
        let height = plotBottom + labelDepth + 30

        var body: [HTML] = []
        // Grid and y axis.
        var tick = 0
        while tick <= yMax {
            let ty = y(tick)
            body.append("<line x1=\"\(f(Self.plotLeft))\" x2=\"\(f(Self.plotRight))\" y1=\"\(f(ty))\" y2=\"\(f(ty))\" class=\"grid\"/>"
                + "<text x=\"\(f(Self.plotLeft - 6))\" y=\"\(f(ty + 4))\" text-anchor=\"end\">\(ReportFormat.count(tick))</text>\n")
            tick += step
        }
        // Bars.
        for (index, counts) in values.enumerated() {
            let bandLeft = Self.plotLeft + band * Double(index)
            let category = categories[index]
            switch layout {
            case .stacked:
                let x = bandLeft + (band - barWidth) / 2
                var running = 0
                for (seriesIndex, count) in counts.enumerated() where count > 0 {
                    let top = y(running + count), bottom = y(running)
                    let item = series[seriesIndex]
                    body.append("<rect x=\"\(f(x))\" y=\"\(f(top))\" width=\"\(f(barWidth))\" height=\"\(f(bottom - top))\" fill=\"\(item.color.fill)\" class=\"bar\">"
                        + "<title>\(category): \(ReportFormat.count(count)) \(item.name)</title></rect>\n")
                    let label = ReportFormat.count(count)
                    if series.count > 1, bottom - top >= 13, Double(label.count) * Self.charWidth <= barWidth - 2 {
                        body.append("<text x=\"\(f(x + barWidth / 2))\" y=\"\(f((top + bottom) / 2 + 4))\" text-anchor=\"middle\" fill=\"\(item.color.ink)\" class=\"inbar\">\(label)</text>\n")
                    }
                    running += count
                }
                // With many bars, an empty one is left blank rather than crowding the axis with zeros.
                if running > 0 || categories.count <= Self.denseCategories {
                    body.append(countLabel(ReportFormat.count(running), x: x + barWidth / 2, top: y(running), upright: countsUpright, bold: series.count > 1))
                }
            case .grouped:
                let groupLeft = bandLeft + band * 0.1
                for (seriesIndex, count) in counts.enumerated() {
                    let x = groupLeft + barWidth * Double(seriesIndex)
                    let item = series[seriesIndex]
                    let top = y(count)
                    if count > 0 {
                        body.append("<rect x=\"\(f(x))\" y=\"\(f(top))\" width=\"\(f(barWidth))\" height=\"\(f(plotBottom - top))\" fill=\"\(item.color.fill)\" class=\"bar\">"
                            + "<title>\(category): \(ReportFormat.count(count)) \(item.name)</title></rect>\n")
                    }
                    if count > 0 || categories.count <= Self.denseCategories {
                        body.append(countLabel(ReportFormat.count(count), x: x + barWidth / 2, top: top, upright: countsUpright, bold: false))
                    }
                }
            }
            // The category's label.
            if index % labelStride == 0 {
                let cx = bandLeft + band / 2
                if labelsLevel {
                    body.append("<text x=\"\(f(cx))\" y=\"\(f(plotBottom + 15))\" text-anchor=\"middle\">\(category)</text>\n")
                } else {
                    let ly = plotBottom + 10
                    body.append("<text x=\"\(f(cx + 3))\" y=\"\(f(ly))\" text-anchor=\"end\" transform=\"rotate(-45 \(f(cx + 3)) \(f(ly)))\">\(category)</text>\n")
                }
            }
        }
        // Axes and their titles.
        body.append("<line x1=\"\(f(Self.plotLeft))\" x2=\"\(f(Self.plotRight))\" y1=\"\(f(plotBottom))\" y2=\"\(f(plotBottom))\" class=\"axis\"/>"
            + "<line x1=\"\(f(Self.plotLeft))\" x2=\"\(f(Self.plotLeft))\" y1=\"\(f(plotTop))\" y2=\"\(f(plotBottom))\" class=\"axis\"/>\n")
        let centerX = (Self.plotLeft + Self.plotRight) / 2
        body.append("<text x=\"\(f(centerX))\" y=\"\(f(height - 8))\" text-anchor=\"middle\" class=\"axis-title\">\(xAxisTitle)</text>\n")
        let centerY = (plotTop + plotBottom) / 2
        body.append("<text x=\"14\" y=\"\(f(centerY))\" text-anchor=\"middle\" transform=\"rotate(-90 14 \(f(centerY)))\" class=\"axis-title\">\(yAxisTitle)</text>\n")

        return "<svg class=\"chart\" role=\"img\" viewBox=\"0 0 \(f(width)) \(f(height))\" "
            + "width=\"\(f(width))\" height=\"\(f(height))\" aria-labelledby=\"\(id)-title \(id)-desc\" font-size=\"\(f(Self.labelFont))\">\n"
            + "<title id=\"\(id)-title\">\(title)</title>\n<desc id=\"\(id)-desc\">\(description)</desc>\n"
            + "\(legend)\(body)</svg>\n"
    }

    /// A bar's count above it: level, or turned upright when bars are too narrow for it.
    private func countLabel(_ text: String, x: Double, top: Double, upright level: Bool, bold: Bool) -> HTML {
        let f = ReportFormat.coordinate
        let weight: HTML = bold ? " font-weight=\"bold\"" : ""
        if level {
            return "<text x=\"\(f(x))\" y=\"\(f(top - 4))\" text-anchor=\"middle\" class=\"count\"\(weight)>\(text)</text>\n"
        }
        let ly = top - 4
        return "<text x=\"\(f(x + 4))\" y=\"\(f(ly))\" text-anchor=\"start\" transform=\"rotate(-90 \(f(x + 4)) \(f(ly)))\" class=\"count\"\(weight)>\(text)</text>\n"
    }

    /// The top of the y axis and the tick step for counts up to `max`: the step is 1, 2 or 5
    /// times a power of ten, giving at most five steps.
    static func scale(max: Int) -> (top: Int, step: Int) {
        guard max > 0 else { return (1, 1) }
        var magnitude = 1
        while true {
            for factor in [1, 2, 5] {
                let step = factor * magnitude
                let steps = (max + step - 1) / step
                if steps <= 5 { return (steps * step, step) }
            }
            magnitude *= 10
        }
    }
}
