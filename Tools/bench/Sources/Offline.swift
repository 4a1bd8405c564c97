import AudioResources
import CMallocCounter
import Foundation
import RenderCore
import Thrum

// MARK: - throughput

/// 600 s of haptics to a 3-channel 48 kHz float WAV, three ways in each run, one after the other: the library
/// (an offline engine into `AudioFileWriter`), the command line (`thrum render`, spawned) and
/// `sox … synth 600 sine 170` writing the same-sized file. Medians over the runs; the load average is noted.
func benchThroughput(runs: Int) throws {
    let dir = try TempDir("throughput")
    defer { dir.cleanup() }
    let rate = 48_000
    let frames = 600 * rate
    let patternFile = dir.path("throughput.ahap")
    try throughputAHAP().write(toFile: patternFile, atomically: true, encoding: .utf8)
    let thrum = thrumExecutable()
    if thrum == nil { note("throughput: no `thrum` next to thrum-bench (`swift build -c release --product thrum`): the command-line figure is skipped") }
    var libraryTimes: [Double] = []
    var cliTimes: [Double] = []
    var soxTimes: [Double] = []
    var cliPeakKB: Int?
    for iteration in 1...runs {
        progress("throughput: run \(iteration)/\(runs): the library renders 600 s to a 3-channel float WAV")
        let libraryFile = dir.path("library.wav")
        let start = nowNanos()
        var options = CHHapticEngine.Options()
        options.output = .offline
        options.sampleRate = Double(rate)
        options.channelMap = try ChannelMap(parsing: "L,R,H")
        let engine = try CHHapticEngine(options: options)
        let player = try engine.makePlayer(with: CHHapticPattern(contentsOf: URL(fileURLWithPath: patternFile)))
        try engine.start()
        try player.start(atTime: CHHapticTimeImmediate)
        let writer = try AudioFileWriter(path: libraryFile, sampleRate: rate, channelCount: 3)
        let block = 4096  // as `thrum render` (OfflineRender): the kernel takes small writes at twice the cost
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
        libraryTimes.append(seconds(since: start))
        let librarySize = fileSize(libraryFile)
        // Each file is deleted before the next tool runs, so the kernel is not still writing it back meanwhile.
        try? FileManager.default.removeItem(atPath: libraryFile)

        var cliSize = 0
        if let thrum {
            progress("throughput: run \(iteration)/\(runs): thrum render --duration 600 (L,R,H float WAV)")
            let cliFile = dir.path("cli.wav")
            let cli = try spawnMeasured(thrum, ["render", patternFile, "--duration", "600", "-o", cliFile])
            guard cli.status == 0 else { throw BenchFailure("thrum render failed (\(cli.status))") }
            cliTimes.append(cli.seconds)
            if let peak = cli.peakKB { cliPeakKB = max(cliPeakKB ?? 0, peak) }
            cliSize = fileSize(cliFile)
            try? FileManager.default.removeItem(atPath: cliFile)
        }

        progress("throughput: run \(iteration)/\(runs): sox synth 600 sine 170 to the same format")
        let soxFile = dir.path("sox.wav")
        let sox = try spawnMeasured(
            "sox", ["-n", "-r", "48000", "-c", "3", "-e", "floating-point", "-b", "32", soxFile, "synth", "600", "sine", "170"])
        guard sox.status == 0 else { throw BenchFailure("sox failed (\(sox.status))") }
        let soxSize = fileSize(soxFile)
        try? FileManager.default.removeItem(atPath: soxFile)
        soxTimes.append(sox.seconds)
        progress(
            "throughput: library \(fmt(libraryTimes.last!)) s (\(librarySize) bytes), thrum render \(cliTimes.last.map { fmt($0) } ?? "-") s (\(cliSize) bytes), sox \(fmt(sox.seconds)) s (\(soxSize) bytes)")
        for (name, size) in [("library", librarySize), ("thrum render", cliSize)] where size > 0 && abs(size - soxSize) > 4096 {
            note("throughput: file sizes differ: \(name) \(size) bytes, sox \(soxSize) bytes")
        }
    }
    let library = median(libraryTimes)
    let sox = median(soxTimes)
    let suffix = runs > 1 ? " (median of \(runs))" : ""
    let command = "`thrum-bench throughput`"
    emit(Row(figure: "Render 600 s of haptics to 3-ch float WAV through the library (offline engine → AudioFileWriter), wall time\(suffix)", value: "\(fmt(library)) s (\(fmt(600 / library, 0))× real time)", target: "—", command: command))
    if !cliTimes.isEmpty {
        let cli = median(cliTimes)
        emit(Row(figure: "Same file with `thrum render PATTERN --duration 600 -o OUT.wav` (a process), wall time\(suffix)", value: "\(fmt(cli)) s" + (cliPeakKB.map { " (peak RSS \(fmt(Double($0) / 1024, 1)) MB)" } ?? ""), target: "—", command: command))
    }
    emit(Row(figure: "Same file with `sox -n … synth 600 sine 170`, wall time\(suffix)", value: "\(fmt(sox)) s", target: "—", command: command))
    if !cliTimes.isEmpty {
        emit(Row(figure: "`thrum render` ÷ sox wall time", value: fmt(median(cliTimes) / sox), target: "≤ 0.35", command: command))
    }
    emit(Row(figure: "Library ÷ sox wall time", value: fmt(library / sox), target: "≤ 0.5", command: command))
    note("throughput: the pattern is 20 consecutive 30 s HapticContinuous events (intensity 1, sharpness 0.5); the three writers run one after the other in each run, each file deleted before the next starts; load average (1/5/15 min) at the end: \(loadAverage())")
}

/// Twenty consecutive 30 s HapticContinuous events (intensity 1, sharpness 0.5): 600 s of haptics, as AHAP.
func throughputAHAP() -> String {
    let events = (0..<20).map { index in
        #"{"Event": {"Time": \#(index * 30), "EventType": "HapticContinuous", "EventDuration": 30, "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.5}]}}"#
    }
    return #"{"Version": 1.0, "Pattern": ["# + events.joined(separator: ",\n") + "]}\n"
}

func fileSize(_ path: String) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
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
