import Foundation
import Glibc
import Synchronization
import Thrum

// MARK: - Time

/// Monotonic clock in nanoseconds (CLOCK_MONOTONIC; no allocation).
@inline(__always)
func nowNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

func seconds(since start: UInt64) -> Double { Double(nowNanos() - start) / 1e9 }

func fmt(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }

/// Percentile (0…100) of unsorted samples, nearest-rank.
func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

func median(_ values: [Double]) -> Double { percentile(values, 50) }

// MARK: - Report lines

/// A table row, printed as a markdown line that `all` collects from each sub-process.
struct Row {
    var figure: String
    var value: String
    var target: String
    var command: String

    var line: String { "| \(figure) | \(value) | \(target) | \(command) |" }
}

func emit(_ row: Row) {
    print(row.line)
    fflush(nil)
}

/// A note (printed below the table by `all`).
func note(_ text: String) {
    print("note: \(text)")
    fflush(nil)
}

/// Progress for the person watching (stderr, not collected).
func progress(_ text: String) {
    FileHandle.standardError.write(Data("thrum-bench: \(text)\n".utf8))
}

struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

// MARK: - Processes

struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
    var seconds: Double
}

/// Finds `name` on PATH (or returns it if it contains a slash).
func executablePath(_ name: String) -> String? {
    if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for dir in path.split(separator: ":") {
        let candidate = "\(dir)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

/// Runs a program to completion; output goes through temporary files (no pipe deadlock). `seconds` is
/// the wall time from launch to exit.
func run(_ name: String, _ arguments: [String]) throws -> ProcessResult {
    guard let path = executablePath(name) else { throw BenchFailure("'\(name)' is not installed (not on PATH)") }
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("thrum-bench-proc-\(getpid())-\(nowNanos())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let outURL = dir.appendingPathComponent("out")
    let errURL = dir.appendingPathComponent("err")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    let start = nowNanos()
    try process.run()
    process.waitUntilExit()
    let elapsed = seconds(since: start)
    try out.close()
    try err.close()
    return ProcessResult(
        status: process.terminationStatus,
        stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
        stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "", seconds: elapsed)
}

/// A background `yes > /dev/null` keeping one core busy; stopped by its own pid.
final class CPULoad {
    private let process = Process()

    init() throws {
        guard let yes = executablePath("yes") else { throw BenchFailure("'yes' is not on PATH") }
        process.executableURL = URL(fileURLWithPath: yes)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }

    deinit { stop() }
}

// MARK: - Machine

/// A field of /proc/self/status in kB (VmHWM, VmRSS, …).
func procStatusKB(_ field: String) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "")
    }
    return nil
}

/// Whether the PulseAudio server (Tools/dev/pulse-null-sink.sh) answers, so ALSA's `pulse` device works.
func pulseAvailable() -> Bool {
    guard ProcessInfo.processInfo.environment["PULSE_SERVER"] != nil else { return false }
    guard let result = try? run("pactl", ["info"]) else { return false }
    return result.status == 0 && result.stdout.contains("null")
}

// MARK: - Patterns

func parameter(_ id: CHHapticEvent.ParameterID, _ value: Float) -> CHHapticEventParameter {
    CHHapticEventParameter(parameterID: id, value: value)
}

func hapticContinuous(at time: Double, duration: Double, intensity: Float, sharpness: Float) -> CHHapticEvent {
    CHHapticEvent(
        eventType: .hapticContinuous,
        parameters: [parameter(.hapticIntensity, intensity), parameter(.hapticSharpness, sharpness)],
        relativeTime: time, duration: duration)
}

func audioTone(at time: Double, duration: Double, volume: Float, pitch: Float, pan: Float) -> CHHapticEvent {
    CHHapticEvent(
        eventType: .audioContinuous,
        parameters: [
            parameter(.audioVolume, volume), parameter(.audioPitch, pitch), parameter(.audioPan, pan),
            parameter(.audioBrightness, 0.7),
        ],
        relativeTime: time, duration: duration)
}

/// A HapticTransient every `interval` seconds from 0 to `length` (a retriggered transient voice).
func transientTrain(length: Double, interval: Double, intensity: Float, sharpness: Float) -> [CHHapticEvent] {
    stride(from: 0.0, to: length, by: interval).map {
        CHHapticEvent(
            eventType: .hapticTransient,
            parameters: [parameter(.hapticIntensity, intensity), parameter(.hapticSharpness, sharpness)],
            relativeTime: $0)
    }
}

/// The pattern of voice `index` in the voice mix: one sounding voice each, in rotation a continuous
/// haptic, an audio tone and a train of transients retriggered every 20 ms (the transient length).
func voicePattern(index: Int, length: Double) throws -> CHHapticPattern {
    let spread = Float(index % 7) / 7
    let events: [CHHapticEvent]
    switch index % 3 {
    case 0: events = [hapticContinuous(at: 0, duration: length, intensity: 0.6, sharpness: spread)]
    case 1: events = [audioTone(at: 0, duration: length, volume: 0.3, pitch: spread - 0.5, pan: spread * 2 - 1)]
    default: events = transientTrain(length: length, interval: 0.02, intensity: 0.7, sharpness: spread)
    }
    return try CHHapticPattern(events: events, parameters: [])
}

/// A scratch folder removed by `cleanup()`.
struct TempDir {
    let url: URL
    init(_ label: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("thrum-bench-\(label)-\(getpid())")
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    func cleanup() { try? FileManager.default.removeItem(at: url) }
}

/// Keeps a value alive where the optimiser can see it escape (so an array is really heap-allocated).
final class Sink: @unchecked Sendable {
    var value: Any?
}
