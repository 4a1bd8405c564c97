import Foundation
import RenderCore
import Testing
import ThrumModel
import ThrumServices
import ThrumTestSupport

@testable import ThrumCommandLine

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What the SVG's XML parse found: every element, and the event groups with their attributes.
private final class SVGScan: NSObject, XMLParserDelegate {
    var elementCount = 0
    var events: [[String: String]] = []
    /// For each event group: its bar (x, y, width) and label (x, anchor, text).
    var shapes: [(rect: [String: String], text: [String: String], label: String)] = []
    private var inEvent = false
    private var rect: [String: String] = [:]
    private var textAttributes: [String: String] = [:]
    private var inText = false
    private var label = ""

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        elementCount += 1
        if name == "g", attributes["class"] == "event" {
            events.append(attributes)
            inEvent = true
            label = ""
        } else if inEvent, name == "rect" {
            rect = attributes
        } else if inEvent, name == "text" {
            textAttributes = attributes
            inText = true
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inText { label += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text" { inText = false }
        if name == "g", inEvent {
            shapes.append((rect, textAttributes, label))
            inEvent = false
        }
    }
}

/// Parses `svg`; records an issue when it is not well-formed XML.
private func scan(_ svg: String, sourceLocation: SourceLocation = #_sourceLocation) -> SVGScan {
    let parser = XMLParser(data: Data(svg.utf8))
    let delegate = SVGScan()
    parser.delegate = delegate
    let ok = parser.parse()
    #expect(ok, "SVG is not well-formed: \(String(describing: parser.parserError))", sourceLocation: sourceLocation)
    return delegate
}

/// The (time, type) of each event in an AHAP file, read straight from its JSON.
private func eventsInFile(_ path: String) throws -> [(time: Double, type: String)] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let entries = try #require(root["Pattern"] as? [[String: Any]])
    return entries.compactMap { entry in
        guard let event = entry["Event"] as? [String: Any] else { return nil }
        return ((event["Time"] as? NSNumber)?.doubleValue ?? 0, event["EventType"] as? String ?? "")
    }
}

/// Measures event labels as rsvg-convert draws them: each label alone in black, in the plot's font, size and
/// anchor, on a white canvas; `Tools/dev/png-ink.py` reports its inked pixel columns.
private final class LabelInk {
    let tool: String
    let folder = TemporaryDirectory("label-ink")
    private var cache: [String: ClosedRange<Double>] = [:]
    static let origin = 500.0

    init() throws {
        tool = try #require(PlotPNG.find(PlotPNG.tool, in: ProcessInfo.processInfo.environment["PATH"]), "rsvg-convert is missing")
    }

    /// The label's ink from its anchor point, in pixels: its first column to one past its last.
    func extent(of label: String, attributes: [String: String]) throws -> ClosedRange<Double> {
        let font = [attributes["font-family"] ?? "", attributes["font-size"] ?? "", attributes["text-anchor"] ?? "start"]
        let key = font.joined(separator: "|") + "|" + label
        if let known = cache[key] { return known }
        let svg = SVGElement(
            "svg", ["xmlns": "http://www.w3.org/2000/svg", "width": "1000", "height": "40"],
            children: [
                SVGElement(
                    "text",
                    [
                        "x": "\(Int(Self.origin))", "y": "25", "font-family": font[0], "font-size": font[1],
                        "text-anchor": font[2], "fill": "#000",
                    ], text: label)
            ], onSeparateLines: false)
        let png = folder.file("label.png")
        try PlotPNG.convert(svg.markup, toolPath: tool).write(to: URL(fileURLWithPath: png))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", packageRoot.appendingPathComponent("Tools/dev/png-ink.py").path, png]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let columns = text.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(process.terminationStatus == 0 && columns.count == 2, "png-ink.py: \(text)")
        let extent = (columns[0] - Self.origin)...(columns[1] + 1 - Self.origin)
        cache[key] = extent
        return extent
    }
}

/// Runs `thrum plot` and returns the SVG it wrote.
private func plot(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    let folder = TemporaryDirectory("cli")
    let output = try folder.write("plot.svg", "")
    let result = runThrum(["plot"] + arguments + ["-o", output])
    #expect(result.status == 0, "stderr: \(result.err)", sourceLocation: sourceLocation)
    return try String(contentsOfFile: output, encoding: .utf8)
}

private let patterns = packageRoot.path + "/Resources/Patterns"

private var bundledPatterns: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: patterns)) ?? []).filter { $0.hasSuffix(".ahap") }.sorted()
}

@Suite struct PlotCommandTests {
    @Test func svgIsWellFormedAndHasOneElementPerEvent() throws {
        #expect(bundledPatterns.count >= 5, "the bundled patterns in \(patterns)")
        for name in bundledPatterns {
            let path = patterns + "/" + name
            let svg = try plot([path])
            let found = scan(svg)
            let expected = try eventsInFile(path)
            #expect(found.events.count == expected.count, "\(name)")
            for (index, event) in expected.enumerated() where index < found.events.count {
                let element = found.events.first { $0["data-index"] == "\(index)" }
                let time = element?["data-time"].flatMap(Double.init)
                #expect(time.map { abs($0 - event.time) < 1e-6 } == true, "\(name) event \(index): \(String(describing: time))")
                #expect(element?["data-type"] == event.type, "\(name) event \(index)")
            }
        }
    }

    /// Label extents come from the text as rsvg-convert draws it (not from the layout's width estimate):
    /// each label alone, in the plot's font, rendered and measured by its inked pixel columns.
    @Test func bundledPatternsHaveNoOverlappingBarsOrLabels() throws {
        let measure = try LabelInk()
        // Besides the bundled patterns, a crowded one: transients 1 ms apart (a few pixels, as the last event
        // at 0.5 s sets the scale) and audio files 6 ms apart.
        let folder = TemporaryDirectory("cli")
        let crowded = ([0.5] + (0..<40).map { Double($0) * 0.001 }).map { time in
            #"{"Event": {"Time": \#(time), "EventType": "HapticTransient"}}"#
        } + (0..<12).map { i in
            #"{"Event": {"Time": \#(Double(i) * 0.006), "EventType": "AudioCustom", "EventWaveformPath": "click.wav"}}"#
        }
        let crowdedPath = try folder.write("crowded.ahap", #"{"Version": 1, "Pattern": [\#(crowded.joined(separator: ","))]}"#)
        for name in bundledPatterns + [crowdedPath] {
            let path = name.hasPrefix("/") ? name : patterns + "/" + name
            let found = scan(try plot([path, "--resources", packageRoot.path + "/Resources/Audio"]))
            var spans: [String: [(Double, Double)]] = [:]  // by row (the bar's y)
            for shape in found.shapes {
                let x = try #require(shape.rect["x"].flatMap(Double.init))
                let width = try #require(shape.rect["width"].flatMap(Double.init))
                let labelX = try #require(shape.text["x"].flatMap(Double.init))
                let ink = try measure.extent(of: shape.label, attributes: shape.text)
                spans[shape.rect["y"] ?? "", default: []].append((min(x, labelX + ink.lowerBound), max(x + width, labelX + ink.upperBound)))
            }
            for (row, items) in spans {
                let sorted = items.sorted { $0.0 < $1.0 }
                for (a, b) in zip(sorted, sorted.dropFirst()) {
                    #expect(a.1 <= b.0 + 0.01, "\(name): overlap in row y=\(row): \(a) and \(b)")
                }
            }
        }
    }

    @Test func snapshots() throws {
        for name in ["heartbeat", "checkout"] {
            let svg = try plot([patterns + "/\(name).ahap"])
            assertSnapshot(svg, named: "plot-\(name).svg")
            #expect(try plot([patterns + "/\(name).ahap"]) == svg, "output is deterministic")
        }
    }

    @Test func effectiveValuesFollowCurvesAndSteps() throws {
        let folder = TemporaryDirectory("cli")
        let path = try folder.write(
            "curve.ahap",
            """
            {"Version": 1.0, "Pattern": [
              {"Event": {"Time": 0.0, "EventType": "HapticContinuous", "EventDuration": 1.0,
                "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.8},
                                    {"ParameterID": "HapticSharpness", "ParameterValue": 0.5}]}},
              {"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0.0,
                "ParameterCurveControlPoints": [{"Time": 0.0, "ParameterValue": 0.0}, {"Time": 0.5, "ParameterValue": 1.0}]}},
              {"Parameter": {"ParameterID": "HapticSharpnessControl", "Time": 0.6, "ParameterValue": 0.9}},
              {"Event": {"Time": 1.5, "EventType": "HapticTransient"}}
            ]}
            """)
        let svg = try plot([path, "--duration", "2", "--loop-end", "1.25", "--width", "800"])
        _ = scan(svg)
        #expect(svg.contains("<g class=\"loop-end\" data-time=\"1.25\">"))
        #expect(svg.contains("width=\"800\""))
        // Evaluate the timeline directly: intensity = 0.8 × ramp, sharpness = 0.5 + 0.9 clamped to 1.
        let data = try #require(try? Patterns.load(path)).pattern.data
        let timeline = try PlotTimeline(
            name: "curve", pattern: data, end: 2, loopEnd: nil, sampleRate: 8000, haptics: [], left: [], right: [],
            profile: .default)
        let quarter = try #require(timeline.effective(in: 0.25...0.25))
        #expect(abs(quarter.intensity - 0.4) < 1e-4)
        #expect(abs(quarter.sharpness - 0.5) < 1e-4)
        let late = try #require(timeline.effective(in: 0.8...0.8))
        #expect(abs(late.intensity - 0.8) < 1e-4)
        #expect(late.sharpness == 1)
        #expect(timeline.effective(in: 1.2...1.3) == nil, "no haptic event plays there")
        let transient = try #require(timeline.effective(in: 1.5...1.5))
        #expect(abs(transient.intensity - 0.75) < 1e-4, "the control holds 1 after the curve")
    }

    @Test("one haptic lane per actuator: PATTERN@rightHandle on the DualSense layout leaves the left handle silent")
    func lanePerActuator() throws {
        let svg = try plot(["heartbeat@rightHandle", "--layout", "dualsense"])
        let labels = ["leftHandle", "rightHandle", "Audio L", "Audio R"].compactMap { svg.range(of: ">\($0)</text>")?.lowerBound }
        #expect(labels.count == 4 && labels == labels.sorted(), "a lane per actuator, in map order, then audio")
        #expect(!svg.contains(">Haptic</text>"))
        // Silent lanes draw no waveform.
        #expect(svg.contains("data-channel=\"rightHandle\""))
        #expect(!svg.contains("data-channel=\"leftHandle\""))
    }

    @Test func escapesText() {
        #expect(SVGText.escaped("a<b & \"c\" 'd'>") == "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;")
        #expect(SVGText.number(0.25) == "0.25")
        #expect(SVGText.number(1) == "1")
        #expect(SVGText.coordinate(-0.01) == "0.0")
        let label = SVGElement("text", ["x": "1", "data-file": "a\"<b>.wav", "fill": nil], text: "x & y")
        #expect(label.markup == "<text x=\"1\" data-file=\"a&quot;&lt;b&gt;.wav\">x &amp; y</text>")
        let group = SVGElement("g", ["class": "a&b"], children: [SVGElement("rect"), label], onSeparateLines: true)
        #expect(group.markup == "<g class=\"a&amp;b\">\n<rect/>\n" + label.markup + "\n</g>")
    }

    @Test func pngHasTheRequestedSize() throws {
        let folder = TemporaryDirectory("cli")
        let output = try folder.write("plot.png", "")
        let result = runThrum(["plot", patterns + "/heartbeat.ahap", "-o", output, "--width", "900"])
        try #require(result.status == 0, "stderr: \(result.err)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        try #require(bytes.count > 24)
        #expect(bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(String(decoding: bytes[12..<16], as: UTF8.self) == "IHDR")
        func big(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        #expect(big(16) == 900)
        let svg = try plot([patterns + "/heartbeat.ahap", "--width", "900"])
        let height = try #require(svg.firstMatch(of: /height="(\d+)" viewBox/)?.output.1)
        #expect(big(20) == Int(height))
    }

    @Test func missingConverterIsReported() {
        #expect(PlotPNG.find("rsvg-convert", in: "/nonexistent:/also-missing") == nil)
        #expect(PlotPNG.find("sh", in: "/nonexistent:/bin") == "/bin/sh")
        #expect(PlotPNG.missingToolMessage.contains("rsvg-convert"))
        #expect(PlotPNG.missingToolMessage.contains("librsvg2-bin"))
    }

    @Test func usageErrors() {
        let noOutput = runThrum(["plot", "heartbeat"])
        #expect(noOutput.status == 64)
        #expect(noOutput.err == "thrum plot: 'thrum plot' needs -o FILE (an .svg or .png file to write)\n")
        let badExtension = runThrum(["plot", "heartbeat", "-o", "/tmp/plot.pdf"])
        #expect(badExtension.status == 64)
        #expect(
            badExtension.err
                == "thrum plot: -o /tmp/plot.pdf: the file name must end in .svg or .png, not .pdf (or be - for SVG on standard output)\n")
        let noExtension = runThrum(["plot", "heartbeat", "-o", "/tmp/plot"])
        #expect(noExtension.err == "thrum plot: -o /tmp/plot: the file name must end in .svg or .png (or be - for SVG on standard output)\n")
        let narrow = runThrum(["plot", "heartbeat", "-o", "/tmp/plot.svg", "--width", "10"])
        #expect(narrow.status == 64)
        #expect(narrow.err.contains("--width takes a whole number from 400 to 8000"))
        let missing = runThrum(["plot", "/nonexistent/none.ahap", "-o", "/tmp/plot.svg"])
        #expect(missing.status == 66)
        let help = runThrum(["plot", "--help"])
        #expect(help.status == 0)
        #expect(help.out.contains("69 rsvg-convert missing"))
    }
}
