import AudioResources
import CMallocCounter
import Foundation
import RenderCore
import Thrum

// MARK: - throughput

/// Renders 600 s of haptics to a 3-channel float WAV through an offline engine and times it against
/// `sox … synth 600 sine 170` writing the same-sized file, in the same run.
func benchThroughput(runs: Int) throws {
    let dir = try TempDir("throughput")
    defer { dir.cleanup() }
    let rate = 48_000
    let frames = 600 * rate
    var thrumTimes: [Double] = []
    var soxTimes: [Double] = []
    for iteration in 1...runs {
        progress("throughput: run \(iteration)/\(runs): Thrum renders 600 s to a 3-channel float WAV")
        let thrumFile = dir.path("thrum.wav")
        let start = nowNanos()
        var options = CHHapticEngine.Options()
        options.output = .offline
        options.sampleRate = Double(rate)
        options.channelMap = try ChannelMap(parsing: "L,R,H")
        let engine = try CHHapticEngine(options: options)
        let player = try engine.makePlayer(with: throughputPattern())
        try engine.start()
        try player.start(atTime: CHHapticTimeImmediate)
        let writer = try AudioFileWriter(path: thrumFile, sampleRate: rate, channelCount: 3)
        let block = 1024
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: block * 3)
        defer { buffer.deallocate() }
        var done = 0
        while done < frames {
            let count = min(block, frames - done)
            try engine.renderOffline(frameCount: count, into: buffer)
            try writer.write(UnsafeBufferPointer(start: buffer, count: count * 3))
            done += count
        }
        try writer.close()
        engine.stop()
        let thrumSeconds = seconds(since: start)
        thrumTimes.append(thrumSeconds)
        let thrumSize = (try? FileManager.default.attributesOfItem(atPath: thrumFile)[.size] as? Int) ?? 0
        // Delete before sox runs so the kernel is not still writing our file back during sox's run.
        try? FileManager.default.removeItem(atPath: thrumFile)

        progress("throughput: run \(iteration)/\(runs): sox synth 600 sine 170 to the same format")
        let soxFile = dir.path("sox.wav")
        let sox = try run(
            "sox", ["-n", "-r", "48000", "-c", "3", "-e", "floating-point", "-b", "32", soxFile, "synth", "600", "sine", "170"])
        guard sox.status == 0 else { throw BenchFailure("sox failed (\(sox.status)): \(sox.stderr)") }
        let soxSize = (try? FileManager.default.attributesOfItem(atPath: soxFile)[.size] as? Int) ?? 0
        try? FileManager.default.removeItem(atPath: soxFile)
        soxTimes.append(sox.seconds)
        progress(
            "throughput: Thrum \(fmt(thrumSeconds)) s (\(thrumSize) bytes), sox \(fmt(sox.seconds)) s (\(soxSize) bytes)")
        if abs(thrumSize - soxSize) > 4096 {
            note("throughput: file sizes differ: Thrum \(thrumSize) bytes, sox \(soxSize) bytes")
        }
    }
    let thrum = median(thrumTimes)
    let sox = median(soxTimes)
    let suffix = runs > 1 ? " (median of \(runs))" : ""
    let command = "`thrum-bench throughput`"
    emit(Row(figure: "Render 600 s of haptics to 3-ch float WAV, Thrum wall time\(suffix)", value: "\(fmt(thrum)) s (\(fmt(600 / thrum, 0))× real time)", target: "—", command: command))
    emit(Row(figure: "Same file with `sox -n … synth 600 sine 170`, wall time\(suffix)", value: "\(fmt(sox)) s", target: "—", command: command))
    emit(Row(figure: "Thrum ÷ sox wall time", value: fmt(thrum / sox), target: "≤ 0.5", command: command))
}

// MARK: - voices

/// An offline engine at 48 kHz with `count` players started at once, one sounding voice each.
func voiceEngine(
    count: Int, periodFrames: Int, hapticsFromAudio: Bool = false
) throws -> (CHHapticEngine, [any CHHapticPatternPlayer]) {
    var options = CHHapticEngine.Options()
    options.hapticsFromAudio = hapticsFromAudio ? .general : nil
    options.output = .offline
    options.sampleRate = 48_000
    options.periodFrames = periodFrames
    options.channelMap = .speakers  // the live default: L+H,R+H
    options.maxPlayers = max(count, 1)
    options.maxVoices = max(2 * count, 64)  // head-room: a retriggered transient may overlap its successor
    let engine = try CHHapticEngine(options: options)
    let players = try (0..<count).map { try engine.makePlayer(with: voicePattern(index: $0, length: 30)) }
    try engine.start()
    for player in players { try player.start(atTime: CHHapticTimeImmediate) }
    return (engine, players)
}

struct PeriodCost {
    var meanMicros: Double
    var p99Micros: Double
    var maxMicros: Double
    var overflow: Int
}

func measurePeriods(voices: Int, periodFrames: Int = 256, warmup: Int = 50, periods: Int = 2000) throws -> PeriodCost {
    let (engine, players) = try voiceEngine(count: voices, periodFrames: periodFrames)
    let channels = engine.options.channelMap.channelCount
    let buffer = UnsafeMutablePointer<Float>.allocate(capacity: periodFrames * channels)
    defer { buffer.deallocate() }
    for _ in 0..<warmup { try engine.renderOffline(frameCount: periodFrames, into: buffer, deliverCallbacks: false) }
    var costs = [Double](repeating: 0, count: periods)
    for i in 0..<periods {
        let start = nowNanos()
        try engine.renderOffline(frameCount: periodFrames, into: buffer, deliverCallbacks: false)
        costs[i] = Double(nowNanos() - start) / 1000
    }
    let overflow = engine.voiceOverflowCount
    engine.stop()
    withExtendedLifetime(players) {}
    return PeriodCost(
        meanMicros: costs.reduce(0, +) / Double(periods), p99Micros: percentile(costs, 99),
        maxMicros: costs.max() ?? 0, overflow: overflow)
}

func benchVoices() throws {
    let periodFrames = 256
    let periodMicros = Double(periodFrames) / 48_000 * 1e6
    let command = "`thrum-bench voices`"
    var cost64: PeriodCost?
    for voices in [1, 16, 64] {
        progress("voices: \(voices) voice\(voices == 1 ? "" : "s"), 50 warm-up + 2000 periods of 256 frames")
        let cost = try measurePeriods(voices: voices)
        if voices == 64 { cost64 = cost }
        let target = voices == 64 ? "≤ 5 % of the period" : "—"
        emit(
            Row(
                figure: "Render cost per 256-frame period, \(voices) voice\(voices == 1 ? "" : "s") (mean / p99)",
                value: "\(fmt(cost.meanMicros, 1)) / \(fmt(cost.p99Micros, 1)) µs = \(fmt(cost.meanMicros / periodMicros * 100)) / \(fmt(cost.p99Micros / periodMicros * 100)) % of 5.33 ms",
                target: target, command: command))
        if cost.overflow > 0 { note("voices: \(voices) voices: \(cost.overflow) events found no free voice") }
        progress("voices: max \(fmt(cost.maxMicros, 1)) µs")
    }
    if let cost64 {
        let perSecond = cost64.meanMicros * (48_000 / Double(periodFrames)) / 1000
        emit(Row(figure: "Render cost per rendered second, 64 voices", value: "\(fmt(perSecond)) ms", target: "—", command: command))
    }
    note("voices: mix per voice in rotation: a 30 s HapticContinuous, a 30 s AudioContinuous tone, a HapticTransient retriggered every 20 ms; all players started at once on an offline engine (L+H,R+H), `renderOffline(frameCount: 256, into:, deliverCallbacks: false)` timed per call after 50 warm-up periods")
}

// MARK: - alloc

/// Counts an [Int] allocation inside a counted window: proves malloc really is interposed.
func allocationSanity() -> Int {
    let sink = Sink()
    let count = 1000 + CommandLine.arguments.count
    // Twice: the first pass also counts the runtime's one-time metadata set-up; report the second.
    for _ in 0..<2 {
        thrum_malloc_counter_reset()
        thrum_malloc_counter_begin()
        let array = [Int](repeating: 7, count: count)
        sink.value = array
        sink.value = nil
        thrum_malloc_counter_end()
    }
    return thrum_malloc_counter_allocations()
}

func benchSanity() -> Int32 {
    guard thrum_malloc_counter_available() == 1 else {
        print("malloc counter not compiled in (sanitizer build)")
        return 1
    }
    let counted = allocationSanity()
    print("sanity: [Int](repeating:count:) in a counted window: \(counted) allocation(s), \(thrum_malloc_counter_frees()) free(s)")
    let retains = referenceCountingSanity()
    print("sanity: an object copied into an array, counted by flag and by thread id: at least \(retains) retain(s)")
    return counted > 0 && retains > 0 ? 0 : 1
}

func benchAlloc() throws -> Int32 {
    let command = "`thrum-bench alloc`"
    guard thrum_malloc_counter_available() == 1 else {
        emit(Row(figure: "Heap allocations in 2000 periods, 64 voices", value: "not measured (sanitizer build)", target: "0", command: command))
        return 1
    }
    let sanity = allocationSanity()
    guard sanity > 0 else {
        emit(Row(figure: "Heap allocations in 2000 periods, 64 voices", value: "not measured: malloc interposition failed (sanity count 0)", target: "0", command: command))
        return 1
    }
    progress("alloc: 64 voices and haptics from audio, 50 warm-up periods, then 2000 counted periods")
    let periodFrames = 256
    let (engine, players) = try voiceEngine(count: 64, periodFrames: periodFrames, hapticsFromAudio: true)
    let buffer = UnsafeMutablePointer<Float>.allocate(capacity: periodFrames * engine.options.channelMap.channelCount)
    defer { buffer.deallocate() }
    for _ in 0..<50 { try engine.renderOffline(frameCount: periodFrames, into: buffer, deliverCallbacks: false) }
    thrum_malloc_counter_reset()
    thrum_malloc_counter_begin()
    for _ in 0..<2000 { try engine.renderOffline(frameCount: periodFrames, into: buffer, deliverCallbacks: false) }
    thrum_malloc_counter_end()
    let allocations = thrum_malloc_counter_allocations()
    let frees = thrum_malloc_counter_frees()
    engine.stop()
    withExtendedLifetime(players) {}
    print("allocations: \(allocations)")
    print("frees: \(frees)")
    emit(
        Row(
            figure: "Heap allocations / frees on the rendering thread, 2000 periods × 256 frames, 64 voices and haptics from audio (offline)",
            value: "\(allocations) / \(frees)", target: "0", command: command))
    let device = try deviceThreadAllocations(counted: 500)
    print("device thread allocations: \(device.allocations)")
    print("device thread frees: \(device.frees)")
    emit(
        Row(
            figure: "Heap allocations / frees on the ALSA playback thread, \(device.periods) periods × 64 frames (4 access types, S24_3LE, a silent extra channel, simulated card)",
            value: "\(device.allocations) / \(device.frees)", target: "0", command: command))
    note("alloc: malloc/free/calloc/realloc/memalign interposed in thrum-bench (CMallocCounter); the sanity check counted \(sanity) allocation(s) for one [Int](repeating:count:) in a counted window; on the ALSA playback thread the count covers the loop, conversion, ALSA calls and waits")
    return allocations == 0 && frees == 0 && device.allocations == 0 && device.frees == 0 ? 0 : 1
}
