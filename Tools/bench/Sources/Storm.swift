import AudioResources
import CMallocCounter
import Foundation
import Glibc
import Thrum

// MARK: - storm

/// What the storm did, by kind, and what came back.
struct StormTally {
    var actions: [String: Int] = [:]
    var refusals: [String: Int] = [:]

    mutating func run(_ kind: String, _ action: () throws -> Void) {
        actions[kind, default: 0] += 1
        do { try action() } catch let error as CHHapticError {
            refusals["\(kind): \(error.code)", default: 0] += 1
        } catch {
            refusals["\(kind): \(error)", default: 0] += 1
        }
    }

    var summary: String {
        actions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }
}

/// The kernel thread id of the engine's render thread (named `thrum-alsa`), from /proc/self/task.
func renderThreadID() -> pid_t? {
    guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return nil }
    for task in tasks {
        let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
        if name.trimmingCharacters(in: .whitespacesAndNewlines) == "thrum-alsa" { return pid_t(task) }
    }
    return nil
}

/// A 50 ms stereo 440 Hz WAV for the AudioCustom events.
func writeClick(to path: String) throws {
    let frames = 2400
    var samples = [Float](repeating: 0, count: frames * 2)
    for i in 0..<frames {
        let s = Float(sin(2 * Double.pi * 440 * Double(i) / 48_000)) * 0.5
        samples[2 * i] = s
        samples[2 * i + 1] = -s
    }
    let writer = try AudioFileWriter(path: path, sampleRate: 48_000, channelCount: 2)
    try writer.write(samples)
    try writer.close()
}

/// The storm's patterns: everything at once (every event kind, a pattern curve and step), a short tap,
/// and a dense pattern made to loop (seams every 0.1 s).
func stormPatterns(resource: CHHapticAudioResourceID) throws -> [CHHapticPattern] {
    let everything = try CHHapticPattern(
        events: [
            CHHapticEvent(
                eventType: .hapticTransient,
                parameters: [parameter(.hapticIntensity, 1), parameter(.hapticSharpness, 0.7)], relativeTime: 0),
            hapticContinuous(at: 0, duration: 0.3, intensity: 0.8, sharpness: 0.4),
            audioTone(at: 0.1, duration: 0.15, volume: 0.4, pitch: 0.2, pan: -0.3),
            // The stereo file transposed (varispeed), low-passed, panned, with t(x) ramps (issue 14's paths).
            CHHapticEvent(
                audioResourceID: resource,
                parameters: [
                    parameter(.audioVolume, 0.6), parameter(.audioPitch, 0.3), parameter(.audioBrightness, 0.4),
                    parameter(.audioPan, -0.4), parameter(.attackTime, 0.2), parameter(.releaseTime, 0.3),
                ], relativeTime: 0.05),
        ],
        parameters: [CHHapticDynamicParameter(parameterID: .hapticSharpnessControl, value: 0.2, relativeTime: 0.1)])
    let tap = try CHHapticPattern(
        events: [
            CHHapticEvent(
                eventType: .hapticTransient,
                parameters: [parameter(.hapticIntensity, 0.7), parameter(.hapticSharpness, 0.3)], relativeTime: 0)
        ], parameters: [])
    let dense = try CHHapticPattern(
        events: transientTrain(length: 0.1, interval: 0.02, intensity: 0.6, sharpness: 0.5)
            + [hapticContinuous(at: 0, duration: 0.1, intensity: 0.5, sharpness: 0.6)],
        parameterCurves: [
            CHHapticParameterCurve(
                parameterID: .hapticIntensityControl,
                controlPoints: [.init(relativeTime: 0, value: 1), .init(relativeTime: 0.08, value: 0.3)], relativeTime: 0)
        ])
    return [everything, tap, dense]
}

/// Drives `players` with random commands for `seconds` of wall time; returns how many it issued. With
/// `pan`, parameter changes also move the player between actuators (`ThrumHapticPanX`).
func storm(
    engine: CHHapticEngine, players: [any CHHapticAdvancedPatternPlayer], seconds: Double, seed: UInt64,
    pan: Bool = false, tally: inout StormTally
) {
    var random = SplitMixRandom(seed: seed)
    let deadline = nowNanos() + UInt64(seconds * 1e9)
    while nowNanos() < deadline {
        let player = players[Int(random.next() % UInt64(players.count))]
        let soon = engine.currentTime + random.unit() * 0.05
        switch random.next() % 14 {
        case 0, 1: tally.run("start") { try player.start(atTime: random.unit() < 0.5 ? CHHapticTimeImmediate : soon) }
        case 2: tally.run("stop") { try player.stop(atTime: random.unit() < 0.5 ? CHHapticTimeImmediate : soon) }
        case 3: tally.run("cancel") { try player.cancel() }
        case 4: tally.run("pause") { try player.pause(atTime: CHHapticTimeImmediate) }
        case 5: tally.run("resume") { try player.resume(atTime: CHHapticTimeImmediate) }
        case 6: tally.run("seek") { try player.seek(toOffset: random.unit() * 0.4) }
        case 7: tally.run("rate") { player.playbackRate = Float(0.5 + random.unit() * 1.5) }
        case 8:
            tally.run("loop") {
                player.loopEnabled = random.unit() < 0.7
                player.loopEnd = random.unit() < 0.5 ? 0 : 0.05 + random.unit() * 0.1
            }
        case 9: tally.run("mute") { player.isMuted.toggle() }
        case 10:
            tally.run("parameters") {
                try player.sendParameters(
                    [
                        CHHapticDynamicParameter(
                            parameterID: .hapticIntensityControl, value: Float(random.unit()), relativeTime: 0),
                        CHHapticDynamicParameter(
                            parameterID: .audioPanControl, value: Float(random.unit() * 2 - 1), relativeTime: 0.01),
                        // Time and pitch controls act on voices already playing (issue 14).
                        CHHapticDynamicParameter(
                            parameterID: .hapticReleaseTimeControl, value: Float(random.unit() - 0.5), relativeTime: 0),
                        CHHapticDynamicParameter(
                            parameterID: .audioAttackTimeControl, value: Float(random.unit() - 0.5), relativeTime: 0),
                        CHHapticDynamicParameter(
                            parameterID: .audioPitchControl, value: Float(random.unit() - 0.5), relativeTime: 0.005),
                    ]
                        + (pan
                            ? [
                                CHHapticDynamicParameter(
                                    parameterID: .thrumHapticPanX, value: Float(random.unit() * 2 - 1), relativeTime: 0)
                            ] : []), atTime: random.unit() < 0.5 ? CHHapticTimeImmediate : soon)
            }
        case 11:
            tally.run("curve") {
                let points = (0..<4).map {
                    CHHapticParameterCurve.ControlPoint(relativeTime: Double($0) * 0.02, value: Float(random.unit()))
                }
                try player.scheduleParameterCurve(
                    CHHapticParameterCurve(parameterID: .hapticSharpnessControl, controlPoints: points, relativeTime: 0),
                    atTime: CHHapticTimeImmediate)
            }
        case 12: tally.run("engine mute") { engine.isMutedForAudio.toggle() }
        default: tally.run("position") { _ = (player as? ThrumPlayerState)?.position }
        }
        usleep(UInt32(50 + random.next() % 200))
    }
}

/// A seeded generator (SplitMix64), so every storm replays the same command sequence.
struct SplitMixRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

/// Counts, on the engine's live render thread, heap allocations, frees, retains, releases and bridge-object
/// calls while a scripted command storm runs from this thread: starts, stops, cancels, pauses, resumes,
/// seeks, rate and loop changes, mutes, parameter changes and curves, with loop seams, pattern ends and
/// completion handlers on the way. The device is ALSA's `null` plugin (no pacing: the render thread renders
/// as fast as it can, so a few seconds of wall time are minutes of engine time). Counting starts right after
/// `engine.start()`: no warm-up on the render thread. Exit status 1 unless every count is 0.
/// With `dualSense`, the device has the DualSense layout (two actuators, one bus each) and the players are
/// spread over three engines of one `GCDeviceHaptics` (left handle, right handle, both handles), panned.
func benchStorm(seconds: Double, dualSense: Bool = false) throws -> Int32 {
    let command = dualSense ? "`thrum-bench storm --layout dualsense`" : "`thrum-bench storm`"
    let figure = "Render thread during a command storm: allocations / frees / retains / releases / bridge retains+releases"
    guard thrum_malloc_counter_available() == 1 else {
        emit(Row(figure: figure, value: "not measured (sanitizer build)", target: "0 / 0 / 0 / 0 / 0", command: command))
        return 1
    }
    guard referenceCountingSanity() > 0 else {
        emit(Row(figure: figure, value: "not measured: swift_retain interposition failed (sanity count 0)", target: "0", command: command))
        return 1
    }
    let dir = try TempDir("storm")
    defer { dir.cleanup() }
    try writeClick(to: dir.path("click.wav"))
    var options = CHHapticEngine.Options()
    options.output = .alsaConfiguration(text: "pcm.thrumstorm { type null }", pcmName: "thrumstorm")
    options.sampleRate = 48_000
    options.periodFrames = 256
    options.realtimePriority = nil  // an unpaced device: never let it starve the machine
    options.maxPlayers = 12
    // Onsets are reported (and counted off the render thread), and a trigger channel carries their pulses.
    let onsets = CompletionCounter()
    options.onsetHandler = { _ in onsets.add() }
    options.channelMap = ChannelMap(sources: [.leftHaptic, .rightHaptic, .trigger])
    let engines: [CHHapticEngine]
    if dualSense {
        options.channelMap = ChannelMap(
            sources: [.left, .right, .haptic, .haptic, .trigger], channelActuators: [nil, nil, "leftHandle", "rightHandle"])
        let device = try GCDeviceHaptics(options: options)
        engines = [GCHapticsLocality.leftHandle, .rightHandle, .handles].compactMap { device.createEngine(withLocality: $0) }
    } else {
        engines = [try CHHapticEngine(options: options)]
    }
    let engine = engines[0]
    let patterns = try engines.map { engine in
        try stormPatterns(resource: engine.registerAudioResource(URL(fileURLWithPath: dir.path("click.wav"))))
    }
    let players = try (0..<8).map { index in
        try engines[index % engines.count].makeAdvancedPlayer(with: patterns[index % engines.count][index % 3])
    }
    let completions = CompletionCounter()
    for player in players { player.completionHandler = { _ in completions.add() } }
    for engine in engines { try engine.start() }
    // The render thread names itself when it begins: wait for that (start may return first).
    var found = renderThreadID()
    let deadline = nowNanos() + 5_000_000_000
    while found == nil && nowNanos() < deadline {
        usleep(1000)
        found = renderThreadID()
    }
    guard let tid = found else { throw BenchFailure("no thread named thrum-alsa within 5 s of engine.start()") }

    progress("storm: \(fmt(seconds, 1)) s counted on the render thread (tid \(tid))")
    var tally = StormTally()
    let framesBefore = engine.currentTime
    let completionsBefore = completions.count
    thrum_malloc_counter_reset()
    thrum_malloc_counter_watch_thread(tid)
    storm(engine: engine, players: players, seconds: seconds, seed: 1, pan: dualSense, tally: &tally)
    thrum_malloc_counter_watch_thread(0)
    let counts = [
        thrum_malloc_counter_allocations(), thrum_malloc_counter_frees(), thrum_malloc_counter_retains(),
        thrum_malloc_counter_releases(), thrum_malloc_counter_bridge_calls(),
    ]
    let engineSeconds = engine.currentTime - framesBefore
    let ended = completions.count - completionsBefore
    let lostOnsets = engine.lostOnsetCount
    for engine in engines { engine.stop() }
    withExtendedLifetime(players) {}

    print("allocations: \(counts[0])")
    print("frees: \(counts[1])")
    print("retains: \(counts[2])")
    print("releases: \(counts[3])")
    print("bridge: \(counts[4])")
    print("periods: \(Int(engineSeconds * 48_000 / 256))")
    print("completions: \(ended)")
    print("onsets: \(onsets.count)")
    print("lost onsets: \(lostOnsets)")
    let value = counts.map(String.init).joined(separator: " / ")
    emit(Row(figure: figure, value: value, target: "0 / 0 / 0 / 0 / 0", command: command))
    let refused = tally.refusals.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    note(
        (dualSense ? "DualSense layout, 3 engines of one device, panned; " : "")
            + "storm: \(fmt(seconds, 1)) s of commands (\(tally.summary)) while the render thread rendered \(fmt(engineSeconds, 1)) s of engine time (\(Int(engineSeconds * 48_000 / 256)) periods of 256 frames) on ALSA `null`; \(ended) completion handlers ran; refused: \(refused.isEmpty ? "none" : refused); \(onsets.count) onsets reported to a handler (\(lostOnsets) lost), a trigger channel rendered. Counted by interposing malloc/free/… and swift_retain/swift_release/their _n, bridge-object and nonatomic forms in thrum-bench (CMallocCounter), on the render thread only (by kernel thread id)"
    )
    return counts.allSatisfy { $0 == 0 } ? 0 : 1
}

/// Completion handlers run on the housekeeping thread (onset handlers on the onset thread).
final class CompletionCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}

/// Counts the retains of an object copied into an array, in a counted window on this thread, and by
/// watching this thread's id: proves both ways of counting work. Returns the smaller of the two counts.
func referenceCountingSanity() -> Int {
    let sink = Sink()
    let object = Sink()
    thrum_malloc_counter_reset()
    thrum_malloc_counter_begin()
    sink.value = [object, object, object]
    sink.value = nil
    thrum_malloc_counter_end()
    let byFlag = thrum_malloc_counter_retains()
    thrum_malloc_counter_reset()
    thrum_malloc_counter_watch_thread(thrum_malloc_counter_thread_id())
    sink.value = [object, object, object]
    sink.value = nil
    thrum_malloc_counter_watch_thread(0)
    let byThread = thrum_malloc_counter_retains()
    return min(byFlag, byThread)
}
