import FoundationEssentials
import FoundationStandIns
import RenderCore
import ThrumModel

/// Draws a `PlotTimeline` as an SVG document: title, legend, event lanes, effective intensity and
/// sharpness, rendered waveforms, and a time axis. Output depends only on the inputs (fixed number formats).
struct PlotSVG {
    let timeline: PlotTimeline
    let width: Int

    static let leftMargin = 116.0
    static let rightMargin = 24.0
    static let rowHeight = 20.0
    static let parameterHeight = 120.0
    static let waveHeight = 64.0
    static let gap = 16.0

    var plotLeft: Double { Self.leftMargin }
    var plotRight: Double { Double(width) - Self.rightMargin }
    var plotWidth: Double { plotRight - plotLeft }
    /// One time slice per pixel column of the plot area.
    var columns: Int { max(1, Int(plotWidth.rounded())) }

    func x(_ time: Double) -> Double { plotLeft + time / timeline.end * plotWidth }

    /// One event placed in its lane: the row it sits in and where its label goes.
    struct PlacedEvent {
        let index: Int
        let event: EventData
        let row: Int
        let x0: Double
        let x1: Double
        let label: String
        let labelX: Double
        let labelAnchor: String
        let labelInside: Bool
    }

    /// Places the events of one type into rows so no bars or labels overlap (greedy, in time order).
    func place(_ events: [(Int, EventData)]) -> [PlacedEvent] {
        var rowEnds: [Double] = []
        var placed: [PlacedEvent] = []
        let sorted = events.sorted { a, b in a.1.time != b.1.time ? a.1.time < b.1.time : a.0 < b.0 }
        for (index, event) in sorted {
            let x0 = x(event.time)
            let seconds = timeline.barSeconds(index: index, event: event)
            let isBar = event.type != .hapticTransient && seconds > 0
            let x1 = isBar ? max(x(event.time + seconds), x0 + 2) : x0 + 1
            let label = PlotStyle.label(event)
            let labelWidth = PlotStyle.labelWidth(label)
            var labelX: Double
            var anchor = "start"
            var inside = false
            var extentStart = x0 - 1
            var extentEnd: Double
            if isBar, x1 - x0 >= labelWidth + 8 {
                labelX = x0 + 4
                inside = true
                extentEnd = x1
            } else if x1 + 3 + labelWidth <= plotRight {
                labelX = x1 + 3
                extentEnd = labelX + labelWidth
            } else {
                // No room right of the event: the label goes to its left.
                labelX = x0 - 3
                anchor = "end"
                extentStart = labelX - labelWidth
                extentEnd = x1
            }
            extentEnd += 3
            var row = rowEnds.firstIndex { $0 <= extentStart } ?? rowEnds.count
            if row == rowEnds.count { rowEnds.append(extentEnd) } else { rowEnds[row] = extentEnd }
            row = max(row, 0)
            placed.append(
                PlacedEvent(
                    index: index, event: event, row: row, x0: x0, x1: x1, label: label, labelX: labelX,
                    labelAnchor: anchor, labelInside: inside))
        }
        return placed.sorted { $0.index < $1.index }
    }

    /// The whole SVG document.
    func render() -> String {
        let header = header()
        let panelsTop = header.bottom
        let lanes = eventLanes(top: panelsTop)
        let parameters = parameterPanel(top: lanes.bottom + Self.gap)
        let waveforms = waveformPanel(top: parameters.bottom + Self.gap)
        let panelsBottom = waveforms.bottom
        var body = [axis(panelsTop: panelsTop, panelsBottom: panelsBottom)] + header.elements + lanes.elements
        body += [parameters.element, waveforms.element]
        if let loopEnd = timeline.loopEnd {
            let lx = x(loopEnd)
            let line = SVGElement(
                "line",
                [
                    "x1": c(lx), "y1": c(panelsTop - 4), "x2": c(lx), "y2": c(panelsBottom), "stroke": "#000",
                    "stroke-width": "1.5", "stroke-dasharray": "5 3",
                ])
            body.append(
                SVGElement(
                    "g", ["class": "loop-end", "data-time": SVGText.number(loopEnd)], children: [line],
                    onSeparateLines: false))
        }
        let height = (panelsBottom + 44).rounded(.up)
        let clip = SVGElement(
            "clipPath", ["id": "plot-area"],
            children: [SVGElement("rect", ["x": c(plotLeft), "y": "0", "width": c(plotWidth), "height": c(height)])],
            onSeparateLines: false)
        let document = SVGElement(
            "svg",
            [
                "xmlns": "http://www.w3.org/2000/svg", "width": "\(width)", "height": "\(Int(height))",
                "viewBox": "0 0 \(width) \(Int(height))", "font-family": "DejaVu Sans, Arial, sans-serif",
            ],
            children: [
                SVGElement("title", text: "thrum plot: \(timeline.name)"),
                SVGElement("defs", children: [clip], onSeparateLines: false),
                SVGElement("rect", ["width": c(Double(width)), "height": c(height), "fill": "#fff"]),
            ] + body,
            onSeparateLines: true)
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + document.markup + "\n"
    }

    // MARK: Panels

    /// The title, the subtitle (beside the title when it fits, else below) and the legend (wrapped to the
    /// width); `bottom` is where the panels start.
    func header() -> (elements: [SVGElement], bottom: Double) {
        let pattern = timeline.pattern
        let headerLeft = 12.0
        let headerRight = Double(width) - 12
        let title =
            "\(timeline.name) — \(String(cFormat: "%.3f", timeline.duration)) s"
            + (timeline.soundingEnd > timeline.duration + 0.0005
                ? " (\(String(cFormat: "%.3f", timeline.soundingEnd)) s with tails)" : "")
        let subtitle =
            "\(counted(pattern.events.count, "event")), \(counted(pattern.parameters.count, "parameter step")), "
            + "\(counted(pattern.curves.count, "curve")); rendered at \(Int(timeline.sampleRate)) Hz, "
            + "\(String(cFormat: "%.3f", timeline.end)) s shown"
        // Long titles on narrow plots shrink to fit (bold text is about 10 % wider).
        let available = headerRight - headerLeft
        let titleSize = min(18, (available / (PlotStyle.textWidth(title, size: 1) * 1.1)).rounded(.down))
        let subtitleSize = min(12, (available / PlotStyle.textWidth(subtitle, size: 1)).rounded(.down))
        let sideBySide =
            headerLeft + PlotStyle.textWidth(title, size: titleSize) * 1.1 + 24 + PlotStyle.textWidth(subtitle, size: subtitleSize)
            <= headerRight
        let subtitleY = sideBySide ? 26.0 : 44.0
        let titleElement = SVGElement(
            "text",
            ["class": "title", "x": c(headerLeft), "y": "26", "font-size": SVGText.number(titleSize), "font-weight": "bold"],
            text: title)
        let subtitleElement = SVGElement(
            "text",
            [
                "class": "subtitle", "x": c(sideBySide ? headerRight : headerLeft), "y": c(subtitleY),
                "font-size": SVGText.number(subtitleSize), "fill": "#555", "text-anchor": sideBySide ? "end" : nil,
            ],
            text: subtitle)

        var legendX = headerLeft
        var legendY = subtitleY + 22
        var legend: [SVGElement] = []
        func wrapLegend(_ itemWidth: Double) {
            if legendX > headerLeft, legendX + itemWidth > headerRight {
                legendX = headerLeft
                legendY += 18
            }
        }
        for type in PlotStyle.types {
            let itemWidth = 18 + PlotStyle.textWidth(type.rawValue, size: 12)
            wrapLegend(itemWidth)
            legend.append(
                SVGElement(
                    "rect",
                    ["x": c(legendX), "y": c(legendY - 9), "width": "14", "height": "10", "fill": PlotStyle.colour(type)]))
            legend.append(text(type.rawValue, x: legendX + 18, y: legendY, size: 12))
            legendX += itemWidth + 14
        }
        let lines: [(name: String, colour: String, dash: String?)] =
            [
                ("effective intensity", PlotStyle.intensityColour, nil),
                ("effective sharpness", PlotStyle.sharpnessColour, "6 3"),
            ] + (timeline.loopEnd != nil ? [("loop end", "#000", "5 3")] : [])
        for line in lines {
            let itemWidth = 22 + PlotStyle.textWidth(line.name, size: 12)
            wrapLegend(itemWidth)
            legend.append(
                SVGElement(
                    "line",
                    [
                        "x1": c(legendX), "y1": c(legendY - 4), "x2": c(legendX + 18), "y2": c(legendY - 4),
                        "stroke": line.colour, "stroke-width": "2", "stroke-dasharray": line.dash,
                    ]))
            legend.append(text(line.name, x: legendX + 22, y: legendY, size: 12))
            legendX += itemWidth + 14
        }
        let legendGroup = SVGElement("g", ["class": "legend"], children: legend, onSeparateLines: true)
        return ([titleElement, subtitleElement, legendGroup], legendY + 14)
    }

    /// Event lanes from `top`, one per event type present, each with as many rows as its labels need: the
    /// lane frames and the events (clipped to the plot area).
    func eventLanes(top: Double) -> (elements: [SVGElement], bottom: Double) {
        let pattern = timeline.pattern
        var y = top
        var lanes: [SVGElement] = []
        var events: [SVGElement] = []
        let present = PlotStyle.types.filter { type in pattern.events.contains { $0.type == type } }
        let unknown = pattern.events.enumerated().filter { !$0.element.type.isKnown }
        let groups: [(String, [(Int, EventData)])] =
            present.map { type in
                (PlotStyle.laneName(type), pattern.events.enumerated().filter { $0.element.type == type }.map { ($0.offset, $0.element) })
            } + (unknown.isEmpty ? [] : [("Other", unknown.map { ($0.offset, $0.element) })])
        if groups.isEmpty {
            lanes.append(frame(y: y, height: Self.rowHeight))
            lanes.append(text("no events", x: plotLeft + 6, y: y + 14, size: 12, fill: "#777"))
            y += Self.rowHeight
        }
        for (laneName, members) in groups {
            let placed = place(members)
            let rows = (placed.map(\.row).max() ?? 0) + 1
            let height = Double(rows) * Self.rowHeight
            lanes.append(frame(y: y, height: height))
            lanes.append(text(laneName, x: plotLeft - 8, y: y + height / 2 + 4, size: 12, anchor: "end"))
            events += placed.map { eventElement($0, laneTop: y) }
            y += height
        }
        return (
            [
                SVGElement("g", ["class": "lanes"], children: lanes, onSeparateLines: true),
                SVGElement("g", ["class": "events", "clip-path": "url(#plot-area)"], children: events, onSeparateLines: true),
            ], y
        )
    }

    /// One event: its bar, its label and a tooltip, with its index, time, type, duration and file as data.
    func eventElement(_ item: PlacedEvent, laneTop: Double) -> SVGElement {
        let event = item.event
        let top = laneTop + Double(item.row) * Self.rowHeight + 3
        let barHeight = Self.rowHeight - 6
        let bar = SVGElement(
            "rect",
            [
                "x": c(item.x0 - (item.x1 - item.x0 < 2 ? 1 : 0)), "y": c(top), "width": c(max(item.x1 - item.x0, 2)),
                "height": c(barHeight), "fill": PlotStyle.colour(event.type),
                "fill-opacity": event.type == .hapticTransient ? nil : "0.75",
            ])
        let label = SVGElement(
            "text",
            [
                "x": c(item.labelX), "y": c(top + barHeight - 3), "font-family": "DejaVu Sans Mono, monospace",
                "font-size": SVGText.number(PlotStyle.labelFontSize),
                "text-anchor": item.labelAnchor == "end" ? "end" : nil, "fill": item.labelInside ? "#fff" : "#222",
            ],
            text: item.label)
        return SVGElement(
            "g",
            [
                "class": "event", "data-index": "\(item.index)", "data-time": SVGText.number(event.time),
                "data-type": event.type.rawValue,
                "data-duration": event.type == .hapticTransient ? nil : SVGText.number(event.playedDuration),
                "data-file": event.waveformPath,
            ],
            children: [SVGElement("title", text: tooltip(event)), bar, label], onSeparateLines: false)
    }

    /// Effective intensity and sharpness from `top`, one point per pixel column, with a dot per transient.
    func parameterPanel(top: Double) -> (element: SVGElement, bottom: Double) {
        let ph = Self.parameterHeight
        var parameter: [SVGElement] = [frame(y: top, height: ph)]
        parameter.append(text("Intensity", x: plotLeft - 8, y: top + ph / 2 - 4, size: 12, anchor: "end", fill: PlotStyle.intensityColour))
        parameter.append(text("Sharpness", x: plotLeft - 8, y: top + ph / 2 + 12, size: 12, anchor: "end", fill: PlotStyle.sharpnessColour))
        for value in [0.0, 0.5, 1.0] {
            let vy = top + ph - value * ph
            if value > 0, value < 1 {
                parameter.append(SVGElement("line", ["x1": c(plotLeft), "y1": c(vy), "x2": c(plotRight), "y2": c(vy), "stroke": "#e4e4e4"]))
            }
            parameter.append(
                text(String(cFormat: "%.1f", value), x: plotRight + 3, y: vy + (value == 1 ? 9 : value == 0 ? -2 : 4), size: 10, fill: "#777"))
        }
        var intensityPath = ""
        var sharpnessPath = ""
        var drawing = false
        let columnSeconds = timeline.end / Double(columns)
        func valueY(_ v: Float) -> Double { top + ph - 2 - Double(v) * (ph - 4) }
        for column in 0...columns {
            let t0 = Double(column) * columnSeconds
            let window = t0...(t0 + columnSeconds)
            guard column < columns, let value = timeline.effective(in: window) else {
                drawing = false
                continue
            }
            let px = x(t0 + columnSeconds / 2)
            let command = drawing ? "L" : "M"
            intensityPath += "\(command)\(c(px)) \(c(valueY(value.intensity)))"
            sharpnessPath += "\(command)\(c(px)) \(c(valueY(value.sharpness)))"
            drawing = true
        }
        parameter.append(
            SVGElement(
                "path",
                [
                    "class": "intensity", "d": intensityPath.isEmpty ? "M0 0" : intensityPath, "fill": "none",
                    "stroke": PlotStyle.intensityColour, "stroke-width": "2.5", "stroke-linejoin": "round",
                ]))
        parameter.append(
            SVGElement(
                "path",
                [
                    "class": "sharpness", "d": sharpnessPath.isEmpty ? "M0 0" : sharpnessPath, "fill": "none",
                    "stroke": PlotStyle.sharpnessColour, "stroke-width": "1.5", "stroke-dasharray": "6 3",
                    "stroke-linejoin": "round",
                ]))
        // Transients last a few milliseconds: mark each with a dot at its effective intensity.
        for event in timeline.hapticEvents where event.kind == .transient && event.time <= timeline.end {
            let t = event.time
            let intensity = min(max(event.intensity * timeline.control(.hapticIntensity, at: t), 0), 1)
            parameter.append(
                SVGElement("circle", ["cx": c(x(t)), "cy": c(valueY(intensity)), "r": "2.5", "fill": PlotStyle.intensityColour]))
            parameter.append(
                SVGElement("circle", ["cx": c(x(t)), "cy": c(valueY(event.sharpness)), "r": "2", "fill": PlotStyle.sharpnessColour]))
        }
        return (SVGElement("g", ["class": "parameters"], children: parameter, onSeparateLines: true), top + ph)
    }

    /// The rendered haptic, left and right channels from `top`: min/max per pixel column as a filled envelope.
    func waveformPanel(top: Double) -> (element: SVGElement, bottom: Double) {
        var y = top
        var waves: [SVGElement] = []
        let columnSeconds = timeline.end / Double(columns)
        // One lane per actuator: "Haptic" for the default one alone, else the actuator's name.
        let haptics = timeline.haptics.map { actuator in
            (
                timeline.haptics.count == 1 && actuator.name == ActuatorNames.defaultActuator ? "Haptic" : actuator.name,
                actuator.samples, PlotStyle.hapticWaveColour
            )
        }
        for (name, samples, colour) in haptics + [
            ("Audio L", timeline.left, PlotStyle.audioWaveColour),
            ("Audio R", timeline.right, PlotStyle.audioWaveColour),
        ] {
            let h = Self.waveHeight
            let mid = y + h / 2
            waves.append(frame(y: y, height: h))
            waves.append(text(name, x: plotLeft - 8, y: mid, size: 12, anchor: "end"))
            let peak = PlotTimeline.peak(samples)
            // Quiet channels are magnified by a power of two (shown next to the peak) so their shape is visible.
            var zoom = 1
            while peak > 0, Float(zoom) * peak < 0.25, zoom < 64 { zoom *= 2 }
            waves.append(
                text(
                    peak > 0 ? String(cFormat: "peak %.2f", peak) + (zoom > 1 ? " ×\(zoom)" : "") : "silent",
                    x: plotLeft - 8, y: mid + 14, size: 10, anchor: "end", fill: "#777"))
            waves.append(SVGElement("line", ["x1": c(plotLeft), "y1": c(mid), "x2": c(plotRight), "y2": c(mid), "stroke": "#ccc"]))
            let envelope = timeline.envelope(samples, columns: columns)
            let scale = (h / 2 - 2) * Double(zoom)
            var upper: [String] = []
            var lower: [String] = []
            for (column, range) in envelope.enumerated() {
                let px = x((Double(column) + 0.5) * columnSeconds)
                // At least half a pixel each way so quiet stretches still show as a line.
                let high = max(Double(min(range.max, 1)) * scale, range.max > 0 ? 0.5 : 0)
                let low = min(Double(max(range.min, -1)) * scale, range.min < 0 ? -0.5 : 0)
                upper.append("\(c(px)),\(c(mid - high))")
                lower.append("\(c(px)),\(c(mid - low))")
            }
            if peak > 0 {
                waves.append(
                    SVGElement(
                        "polygon",
                        [
                            "class": "waveform", "data-channel": name,
                            "points": (upper + lower.reversed()).joined(separator: " "), "fill": colour,
                            "fill-opacity": "0.8", "stroke": colour, "stroke-width": "0.5",
                        ]))
            }
            y += h + 6
        }
        return (SVGElement("g", ["class": "waveforms"], children: waves, onSeparateLines: true), y - 6)
    }

    /// The time axis: grid lines through every panel, tick labels below.
    func axis(panelsTop: Double, panelsBottom: Double) -> SVGElement {
        let ticks = AxisTicks(end: timeline.end, maxTicks: max(2, Int(plotWidth / 75)))
        var axis: [SVGElement] = []
        for value in ticks.values {
            let tx = x(value)
            axis.append(
                SVGElement(
                    "line",
                    [
                        "x1": c(tx), "y1": c(panelsTop), "x2": c(tx), "y2": c(panelsBottom + 5), "stroke": "#000",
                        "stroke-opacity": "0.12",
                    ]))
            axis.append(text(ticks.label(value), x: tx, y: panelsBottom + 19, size: 11, anchor: "middle"))
        }
        axis.append(text("time (s)", x: plotRight, y: panelsBottom + 36, size: 12, anchor: "end", fill: "#555"))
        return SVGElement("g", ["class": "axis"], children: axis, onSeparateLines: true)
    }

    // MARK: Helpers

    private func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    private func c(_ value: Double) -> String { SVGText.coordinate(value) }

    /// The background and border of a panel across the plot area.
    private func frame(y: Double, height: Double) -> SVGElement {
        SVGElement(
            "rect",
            ["x": c(plotLeft), "y": c(y), "width": c(plotWidth), "height": c(height), "fill": "#fafafa", "stroke": "#bbb"])
    }

    /// A line of proportional text; the anchor and fill are written only when they differ from the defaults.
    private func text(
        _ content: String, x: Double, y: Double, size: Double, anchor: String = "start", fill: String = "#222"
    ) -> SVGElement {
        SVGElement(
            "text",
            [
                "x": c(x), "y": c(y), "font-size": SVGText.number(size), "text-anchor": anchor == "start" ? nil : anchor,
                "fill": fill == "#222" ? nil : fill,
            ],
            text: content)
    }

    private func tooltip(_ event: EventData) -> String {
        var parts = ["\(event.type.rawValue) at \(SVGText.number(event.time)) s"]
        if event.playedDuration > 0 { parts.append("duration \(SVGText.number(event.playedDuration)) s") }
        if event.type.isHaptic {
            parts.append("intensity \(String(cFormat: "%.2f", event.value(of: .hapticIntensity)))")
            parts.append("sharpness \(String(cFormat: "%.2f", event.value(of: .hapticSharpness)))")
        } else if event.type.isKnown {
            parts.append("volume \(String(cFormat: "%.2f", event.value(of: .audioVolume)))")
        }
        if let path = event.waveformPath { parts.append("file \(path)") }
        return parts.joined(separator: ", ")
    }
}
