import Foundation
import Testing
import ThrumTestSupport

/// When the simulated card's clock played each frame (its `.timing` file: runs of frames with the
/// CLOCK_MONOTONIC nanoseconds at which the first one and the one after the last began to play).
struct CardClock {
    var runs: [(first: Int, start: UInt64, count: Int, end: UInt64)]

    init(_ card: SimulatedCardRun) {
        let text = (try? String(contentsOfFile: "\(card.directory)/\(card.name).timing", encoding: .utf8)) ?? ""
        runs = text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ").compactMap { UInt64($0) }
            return fields.count == 4 ? (Int(fields[0]), fields[1], Int(fields[2]), fields[3]) : nil
        }
    }

    /// CLOCK_MONOTONIC seconds at which the card began to play `frame` (frames since the card was opened).
    func time(ofFrame frame: Int) -> Double? {
        guard let run = runs.first(where: { frame >= $0.first && frame < $0.first + $0.count }) else { return nil }
        let span = Double(run.end - run.start) * Double(frame - run.first) / Double(run.count)
        return (Double(run.start) + span) / 1e9
    }
}

/// CLOCK_MONOTONIC now, in seconds.
func monotonicNow() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// One line of `--onset-log`.
struct OnsetLine {
    var json: [String: Any]
    var patternTime: Double { json["pattern_time"] as? Double ?? -1 }
    var frame: Int { json["stream_frame"] as? Int ?? -1 }

    static func read(_ path: String) throws -> [OnsetLine] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            OnsetLine(json: try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:])
        }
    }
}

/// `thrum play --onset-log` and `--start-at` on the simulated card, checked against the card's own clock
/// (when it played each frame) and its capture, never against Thrum's account.
@Suite(.serialized)
struct OnsetTimingRealTimeTests {
    /// 24 taps at irregular times over 1.2 s (times × 48 kHz are not whole: rounding is exercised).
    static let times: [Double] = (0..<24).map { Double($0) * 0.05 + Double($0 % 5) * 0.00313 }

    static func writePattern(in card: SimulatedCardRun) throws -> String {
        let events = times.map {
            "{\"Event\":{\"Time\":\($0),\"EventType\":\"HapticTransient\",\"EventParameters\":[{\"ParameterID\":\"HapticIntensity\",\"ParameterValue\":0.7}]}}"
        }
        let path = card.directory + "/taps.ahap"
        try "{\"Version\":1,\"Pattern\":[\(events.joined(separator: ","))]}".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Plays on a fresh card; a run in which the card underran (a loaded machine) is repeated
    /// (repeatWhileTheMachineSpoils).
    static func play(_ profile: String, _ arguments: (SimulatedCardRun, String) -> [String]) throws
        -> (SimulatedCardRun, ThrumProcess, String)
    {
        try repeatWhileTheMachineSpoils("the card underran") {
            let card = try SimulatedCardRun(profile: profile)
            let pattern = try writePattern(in: card)
            let result = try ThrumProcess.run(
                ["play", pattern, "--device", card.deviceName] + arguments(card, pattern), card: card)
            if card.stat("underruns") == 0 || result.status != 0 { return .done((card, result, pattern)) }
            return .spoiled("\(card.stat("underruns")) underruns")
        }
    }

    /// Median and largest of |values|, in microseconds.
    static func figures(_ errors: [Double]) -> (median: Double, max: Double) {
        let sorted = errors.map { abs($0) * 1e6 }.sorted()
        return (sorted[sorted.count / 2], sorted.last ?? 0)
    }

    @Test("each onset is logged with its event, frame and a DAC time within 0.5 ms of when the card played it",
          arguments: ["sim_hda", "sim_fast"])
    func onsetLogAgainstTheCardsClock(profile: String) throws {
        let (card, played, pattern) = try Self.play(profile) { card, _ in
            ["--channels", "M,T", "--onset-log", card.directory + "/onsets.jsonl"]
        }
        #expect(played.status == 0, "\(played.errors)")
        let lines = try OnsetLine.read(card.directory + "/onsets.jsonl")
        #expect(lines.count == Self.times.count)
        let clock = CardClock(card)
        var errors: [Double] = []
        for (index, (line, time)) in zip(lines, Self.times).enumerated() {
            #expect(abs(line.patternTime - time) < 1e-12)  // the file's decimal text, read back
            #expect(line.frame == Int((time * 48_000).rounded()))
            #expect(line.json["event"] as? Int == index)
            #expect(line.json["type"] as? String == "HapticTransient")
            #expect(line.json["pattern"] as? String == pattern)
            #expect(line.json["instance"] as? Int == 1 && line.json["loop"] as? Int == 0)
            #expect(abs((line.json["engine_time"] as? Double ?? -1) - Double(line.frame) / 48_000) < 1e-12)
            let actual = try #require(clock.time(ofFrame: line.frame), "the card played frame \(line.frame)")
            guard let dacTime = line.json["dac_time"] as? Double else {
                Issue.record("onset \(index) (frame \(line.frame)) was logged without a DAC time: \(line.json["dac_time"] ?? "no key")")
                continue
            }
            errors.append(dacTime - actual)
        }
        // The trigger channel of what the card received rises exactly on the logged frames (S32_LE, channel 2).
        let capture = Samples(capture: card.capture(), format: "S32_LE", channels: 2)
        let rises = (1..<capture.frames).filter {
            capture.value(frame: $0, channel: 1) > 0 && capture.value(frame: $0 - 1, channel: 1) == 0
        }
        #expect([0] + rises == lines.map(\.frame))
        try #require(!errors.isEmpty, "no onset had a DAC time")
        let (median, largest) = Self.figures(errors)
        print("onset DAC time vs \(profile)'s clock: median \(String(format: "%.1f", median)) µs, max \(String(format: "%.1f", largest)) µs over \(errors.count) onsets")
        #expect(median < 100, "median error \(median) µs")
        #expect(largest < 500, "largest error \(largest) µs")
    }

    @Test("--start-at T: the pattern's first frame leaves the card within one period of T")
    func startAt() throws {
        var asked = 0.0
        let (card, played, _) = try Self.play("sim_hda") { card, _ in
            asked = monotonicNow() + 0.8
            return ["--channels", "M,T", "--start-at", String(format: "%.6f", asked), "--onset-log", card.directory + "/on.jsonl"]
        }
        #expect(played.status == 0, "\(played.errors)")
        let first = try #require(try OnsetLine.read(card.directory + "/on.jsonl").first)
        // From the capture, not the log: the first frame of the trigger pulse.
        let capture = Samples(capture: card.capture(), format: "S32_LE", channels: 2)
        let rise = try #require((0..<capture.frames).first { capture.value(frame: $0, channel: 1) > 0 })
        #expect(rise == first.frame)
        let landed = try #require(CardClock(card).time(ofFrame: rise))
        let period = 256.0 / 48_000
        print("--start-at: the first frame left the card \(String(format: "%.1f", (landed - asked) * 1e6)) µs after the time asked")
        #expect(abs(landed - asked) < period, "landed \(landed - asked) s from the asked time")
    }

    @Test("--start-at in the past is a usage error (64); --onset-log in a missing folder is 73, leaving no file")
    func refusals() throws {
        let card = try SimulatedCardRun(profile: "sim_hda")
        let pattern = try Self.writePattern(in: card)
        let past = try ThrumProcess.run(["play", pattern, "--device", card.deviceName, "--start-at", "1"], card: card)
        #expect(past.status == 64)
        #expect(past.errors.contains("--start-at 1.000000 is in the past"), "\(past.errors)")
        #expect(past.errors.split(separator: "\n").count == 1)
        let log = card.directory + "/missing/onsets.jsonl"
        let missing = try ThrumProcess.run(["play", pattern, "--device", card.deviceName, "--onset-log", log], card: card)
        #expect(missing.status == 73)
        #expect(missing.errors.contains("cannot create onset log '\(log)'"), "\(missing.errors)")
        #expect(!FileManager.default.fileExists(atPath: log))
        #expect(card.stat("played") <= 0, "nothing was played")
    }

    @Test("T on the card equals `thrum render --channels M,T` bit for bit")
    func triggerLiveEqualsOffline() throws {
        let (card, played, pattern) = try Self.play("sim_hda") { _, _ in ["--channels", "M,T"] }
        #expect(played.status == 0, "\(played.errors)")
        let wav = card.directory + "/render.wav"
        let rendered = try ThrumProcess.run(["render", pattern, "--channels", "M,T", "--format", "pcm32", "-o", wav])
        #expect(rendered.status == 0, "\(rendered.errors)")
        let offline = try Samples(wav: wav)
        let live = Samples(capture: card.capture(), format: "S32_LE", channels: 2)
        #expect(offline.frames > 0 && live.frames >= offline.frames)
        #expect(Array(live.values.prefix(offline.values.count)) == offline.values)
        #expect(offline.value(frame: 0, channel: 1) == Int64(Int32.max))  // 1.0: full scale
    }
}
