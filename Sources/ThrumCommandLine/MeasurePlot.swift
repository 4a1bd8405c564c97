import ActuatorMeasurement
import FoundationEssentials
import FoundationStandIns
import Glibc

/// `thrum measure --plot`: the response (magnitude and phase against log frequency, the −3 dB band shaded,
/// f0 marked) and the histogram of the clicks' latencies, as one SVG.
struct MeasurePlot {
    let result: MeasurementResult
    static let width = 900.0
    static let left = 70.0
    static let right = 24.0
    static let panelHeight = 220.0

    private var plotWidth: Double { Self.width - Self.left - Self.right }
    private func x(_ hz: Double) -> Double { Self.left + log(hz / 20) / log(1000.0 / 20) * plotWidth }

    func render() -> String {
        let magnitudes = result.response.map(\.magnitudeDB)
        let top = ((magnitudes.max() ?? 0) / 10).rounded(.up) * 10
        let bottom = max(((magnitudes.min() ?? -60) / 10).rounded(.down) * 10, top - 80)
        let magnitudeTop = 40.0
        func y(_ db: Double) -> Double {
            magnitudeTop + (top - min(max(db, bottom), top)) / max(top - bottom, 1) * Self.panelHeight
        }
        let phaseTop = magnitudeTop + Self.panelHeight + 40
        func yPhase(_ degrees: Double) -> Double { phaseTop + (180 - degrees) / 360 * Self.panelHeight * 0.6 }
        let histogramTop = phaseTop + Self.panelHeight * 0.6 + 50
        let height = histogramTop + 150 + 40
        var items: [SVGElement] = [
            SVGElement("rect", ["width": "100%", "height": "100%", "fill": "white"]),
            SVGElement("text", ["x": "\(Self.left)", "y": "24", "font-size": "15", "font-family": "sans-serif"],
                text: "Actuator response (captured ÷ played), f0 \(SVGText.number((result.resonance * 10).rounded() / 10)) Hz, Q \(SVGText.number((result.q * 100).rounded() / 100)), \(result.model.rawValue)"),
            SVGElement("rect", [
                "x": SVGText.coordinate(x(max(result.band.low, 20))), "y": SVGText.coordinate(magnitudeTop),
                "width": SVGText.coordinate(max(0, x(min(result.band.high, 1000)) - x(max(result.band.low, 20)))),
                "height": SVGText.coordinate(Self.panelHeight), "fill": "#dbeafe",
            ]),
        ]
        for hz in [20.0, 50, 100, 200, 500, 1000] {
            items.append(SVGElement("line", [
                "x1": SVGText.coordinate(x(hz)), "x2": SVGText.coordinate(x(hz)), "y1": SVGText.coordinate(magnitudeTop),
                "y2": SVGText.coordinate(phaseTop + Self.panelHeight * 0.6), "stroke": "#ddd",
            ]))
            items.append(SVGElement("text", [
                "x": SVGText.coordinate(x(hz)), "y": SVGText.coordinate(phaseTop + Self.panelHeight * 0.6 + 16),
                "font-size": "11", "font-family": "sans-serif", "text-anchor": "middle",
            ], text: "\(Int(hz)) Hz"))
        }
        var level = bottom
        while level <= top {
            items.append(SVGElement("text", [
                "x": SVGText.coordinate(Self.left - 8), "y": SVGText.coordinate(y(level) + 4), "font-size": "11",
                "font-family": "sans-serif", "text-anchor": "end",
            ], text: "\(Int(level)) dB"))
            level += 10
        }
        let magnitudePath = result.response.map { "\(SVGText.coordinate(x($0.hz))),\(SVGText.coordinate(y($0.magnitudeDB)))" }
        items.append(SVGElement("polyline", [
            "points": magnitudePath.joined(separator: " "), "fill": "none", "stroke": "#1d4ed8", "stroke-width": "2",
        ]))
        let phasePath = result.response.map { "\(SVGText.coordinate(x($0.hz))),\(SVGText.coordinate(yPhase($0.phaseDegrees)))" }
        items.append(SVGElement("polyline", [
            "points": phasePath.joined(separator: " "), "fill": "none", "stroke": "#b45309", "stroke-width": "1.5",
        ]))
        for degrees in [-180.0, 0, 180] {
            items.append(SVGElement("text", [
                "x": SVGText.coordinate(Self.left - 8), "y": SVGText.coordinate(yPhase(degrees) + 4), "font-size": "11",
                "font-family": "sans-serif", "text-anchor": "end",
            ], text: "\(Int(degrees))°"))
        }
        items.append(SVGElement("line", [
            "x1": SVGText.coordinate(x(result.resonance)), "x2": SVGText.coordinate(x(result.resonance)),
            "y1": SVGText.coordinate(magnitudeTop), "y2": SVGText.coordinate(magnitudeTop + Self.panelHeight),
            "stroke": "#dc2626", "stroke-dasharray": "4 3",
        ]))
        items += histogram(top: histogramTop)
        return SVGElement(
            "svg", [
                "xmlns": "http://www.w3.org/2000/svg", "width": "\(Int(Self.width))", "height": "\(Int(height))",
                "viewBox": "0 0 \(Int(Self.width)) \(Int(height))",
            ], children: items, onSeparateLines: true
        ).markup + "\n"
    }

    /// The clicks' latencies in 20 bins between their extremes.
    private func histogram(top: Double) -> [SVGElement] {
        let values = result.latency.clicks.map { $0 * 1000 }
        guard let low = values.min(), let high = values.max() else { return [] }
        let span = max(high - low, 0.01)
        var counts = [Int](repeating: 0, count: 20)
        for value in values { counts[min(19, Int((value - low) / span * 20))] += 1 }
        let most = Double(counts.max() ?? 1)
        var items = [
            SVGElement("text", ["x": "\(Self.left)", "y": SVGText.coordinate(top - 10), "font-size": "13", "font-family": "sans-serif"],
                text: "Latency of \(values.count) clicks: median \(SVGText.number((result.latency.median * 1e5).rounded() / 100)) ms, p99 \(SVGText.number((result.latency.p99 * 1e5).rounded() / 100)) ms"),
        ]
        let barWidth = plotWidth / 20
        for (bin, count) in counts.enumerated() where count > 0 {
            let h = Double(count) / most * 120
            items.append(SVGElement("rect", [
                "x": SVGText.coordinate(Self.left + Double(bin) * barWidth + 1), "y": SVGText.coordinate(top + 120 - h),
                "width": SVGText.coordinate(barWidth - 2), "height": SVGText.coordinate(h), "fill": "#059669",
            ]))
        }
        for (value, anchor, place) in [(low, "start", Self.left), (high, "end", Self.left + plotWidth)] {
            items.append(SVGElement("text", [
                "x": SVGText.coordinate(place), "y": SVGText.coordinate(top + 136), "font-size": "11",
                "font-family": "sans-serif", "text-anchor": anchor,
            ], text: "\(SVGText.number((value * 1000).rounded() / 1000)) ms"))
        }
        return items
    }
}
