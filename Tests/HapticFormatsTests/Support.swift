import Foundation
import Testing
import ThrumTestSupport

/// Paths of this test target's fixtures and of Meta's oracles.
enum TestPaths {
    /// `Tests/HapticFormatsTests`.
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let packageRoot = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = testsDirectory.appendingPathComponent("Fixtures")

    /// A fixture of this target.
    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }
}

/// Meta's oracle files, through `TestOracles`.
enum Oracles {
    static let available = TestOracles.isAvailable
    static let skipReason = Comment(rawValue: TestOracles.skipReason)

    /// The path of an oracle test file.
    static func file(_ name: String) -> String { TestOracles.metaTestFile(name) }
}

/// A JSON file or text as Foundation objects (an outside reader, independent of Thrum's JSON reader).
func jsonObject(file path: String) throws -> [String: Any] {
    try jsonObject(data: try Data(contentsOf: URL(fileURLWithPath: path)))
}

func jsonObject(text: String) throws -> [String: Any] {
    try jsonObject(data: Data(text.utf8))
}

func jsonObject(data: Data) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

/// A number from a Foundation JSON value.
func double(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

/// Linear interpolation through sorted points, holding the end values outside them; at a time shared by
/// several points the last one counts from that time on (the test's own reading of "linear between points").
func interpolate(_ points: [(Double, Double)], at t: Double) -> Double {
    guard let first = points.first else { return 0 }
    if t < first.0 { return first.1 }
    var k = 0
    while k + 1 < points.count && points[k + 1].0 <= t { k += 1 }
    if k + 1 == points.count { return points[k].1 }
    let (t0, v0) = points[k]
    let (t1, v1) = points[k + 1]
    return t1 > t0 ? v0 + (v1 - v0) * (t - t0) / (t1 - t0) : v1
}

/// What a `.haptic` document means, read straight from its JSON by the spec: amplitude linear between
/// breakpoints and 0 outside them; frequency linear, holding its end values, 0.5 when there is none.
struct HapticMeaning {
    var amplitude: [(Double, Double)] = []
    var frequency: [(Double, Double)] = []
    /// (time, amplitude, frequency) of each emphasis.
    var emphases: [(Double, Double, Double)] = []

    init(json: [String: Any]) throws {
        let signals = try #require(json["signals"] as? [String: Any])
        let continuous = try #require(signals["continuous"] as? [String: Any])
        let envelopes = try #require(continuous["envelopes"] as? [String: Any])
        for point in try #require(envelopes["amplitude"] as? [[String: Any]]) {
            let time = try #require(double(point["time"]))
            amplitude.append((time, try #require(double(point["amplitude"]))))
            if let emphasis = point["emphasis"] as? [String: Any] {
                emphases.append((time, try #require(double(emphasis["amplitude"])), try #require(double(emphasis["frequency"]))))
            }
        }
        for point in envelopes["frequency"] as? [[String: Any]] ?? [] {
            frequency.append((try #require(double(point["time"])), try #require(double(point["frequency"]))))
        }
    }

    var duration: Double { amplitude.last?.0 ?? 0 }

    func amplitude(at t: Double) -> Double {
        guard let first = amplitude.first, let last = amplitude.last, t >= first.0, t <= last.0 else { return 0 }
        return interpolate(amplitude, at: t)
    }

    func frequency(at t: Double) -> Double { frequency.isEmpty ? 0.5 : interpolate(frequency, at: t) }
}

/// What an AHAP document means to Core Haptics, read straight from its JSON: the effective intensity and
/// sharpness of its HapticContinuous events (event value × / + the control in force: the latest started
/// curve or `Parameter` step governs) and its transients. `absoluteTimes` reads curve point times as absolute (how
/// Meta's exports are written) instead of relative to the curve's `Time` (Apple's documentation).
struct AHAPMeaning {
    struct Curve {
        var start: Double
        var points: [(Double, Double)]
    }

    /// (start, end, intensity, sharpness) of each HapticContinuous event.
    var continuous: [(Double, Double, Double, Double)] = []
    /// (time, intensity, sharpness) of each HapticTransient, sorted by time.
    var transients: [(Double, Double, Double)] = []
    var intensityCurves: [Curve] = []
    var sharpnessCurves: [Curve] = []

    init(json: [String: Any], absoluteTimes: Bool = false) throws {
        for entry in try #require(json["Pattern"] as? [[String: Any]]) {
            if let event = entry["Event"] as? [String: Any] {
                let time = try #require(double(event["Time"]))
                var values: [String: Double] = [:]
                for parameter in event["EventParameters"] as? [[String: Any]] ?? [] {
                    values[try #require(parameter["ParameterID"] as? String)] = double(parameter["ParameterValue"])
                }
                let intensity = values["HapticIntensity"] ?? 0.75
                let sharpness = values["HapticSharpness"] ?? 0.5
                switch event["EventType"] as? String {
                case "HapticContinuous":
                    let duration = min(try #require(double(event["EventDuration"])), 30)
                    continuous.append((time, time + duration, intensity, sharpness))
                case "HapticTransient":
                    transients.append((time, intensity, sharpness))
                default:
                    break
                }
            }
            if let step = entry["Parameter"] as? [String: Any] {
                // A step holds its value from its time on, like a one-point curve starting then.
                let time = try #require(double(step["Time"]))
                let value = double(step["ParameterValue"]) ?? 0
                switch step["ParameterID"] as? String {
                case "HapticIntensityControl": intensityCurves.append(Curve(start: time, points: [(time, value)]))
                case "HapticSharpnessControl": sharpnessCurves.append(Curve(start: time, points: [(time, value)]))
                default: break
                }
            }
            if let curve = entry["ParameterCurve"] as? [String: Any] {
                let start = try #require(double(curve["Time"]))
                var points: [(Double, Double)] = []
                for point in try #require(curve["ParameterCurveControlPoints"] as? [[String: Any]]) {
                    let time = try #require(double(point["Time"]))
                    points.append((absoluteTimes ? time : start + time, try #require(double(point["ParameterValue"]))))
                }
                switch curve["ParameterID"] as? String {
                case "HapticIntensityControl": intensityCurves.append(Curve(start: start, points: points))
                case "HapticSharpnessControl": sharpnessCurves.append(Curve(start: start, points: points))
                default: break
                }
            }
        }
        transients.sort { $0.0 < $1.0 }
    }

    /// The control in force at `t`: the latest started curve's value, or `defaultValue` before any.
    static func control(_ curves: [Curve], at t: Double, defaultValue: Double) -> Double {
        guard let curve = curves.filter({ $0.start <= t }).max(by: { $0.start < $1.start }), !curve.points.isEmpty
        else { return defaultValue }
        return interpolate(curve.points, at: t)
    }

    func intensityControl(at t: Double) -> Double { Self.control(intensityCurves, at: t, defaultValue: 1) }

    /// Σ event intensity × intensity control over the continuous events sounding at `t`.
    func intensity(at t: Double) -> Double {
        continuous.filter { $0.0 <= t && t < $0.1 }.reduce(0) { $0 + $1.2 * intensityControl(at: t) }
    }

    /// Event sharpness + sharpness control of the first continuous event sounding at `t` (nil when none).
    func sharpness(at t: Double) -> Double? {
        guard let event = continuous.first(where: { $0.0 <= t && t < $0.1 }) else { return nil }
        return min(max(event.3 + Self.control(sharpnessCurves, at: t, defaultValue: 0), 0), 1)
    }

    /// The end of the last continuous event.
    var end: Double { continuous.map(\.1).max() ?? 0 }
}

/// The times 0, 1 ms, 2 ms … up to `end` (seconds), each 1 ns late: a jump at an exact time (a step, the
/// edge of an event) is then compared on the same side in both documents, although a time rebuilt as curve
/// `Time` + relative point time may differ from the original in its last bit.
func millisecondGrid(to end: Double) -> [Double] {
    (0...Int((end * 1000).rounded(.up))).map { Double($0) / 1000 + 1e-9 }
}
