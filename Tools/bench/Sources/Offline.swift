import AudioResources
import CMallocCounter
import Foundation
import RenderCore
import Thrum

// MARK: - library render

/// `thrum-bench library-render PATTERN OUT.wav`: renders 600 s of PATTERN to a 3-channel (L,R,H) 48 kHz float
/// WAV through the library (an offline engine into `AudioFileWriter`, 4096-frame blocks as `thrum render`
/// writes them), so Tools/benchmark.sh can time the library as a process beside `thrum render` and sox.
/// Prints `json: {"seconds": S}`, the render's own wall time without process start.
func benchLibraryRender(pattern: String, output: String) throws {
    let rate = 48_000
    let frames = 600 * rate
    let start = nowNanos()
    var options = CHHapticEngine.Options()
    options.output = .offline
    options.sampleRate = Double(rate)
    options.channelMap = try ChannelMap(parsing: "L,R,H")
    let engine = try CHHapticEngine(options: options)
    let player = try engine.makePlayer(with: CHHapticPattern(contentsOf: URL(fileURLWithPath: pattern)))
    try engine.start()
    try player.start(atTime: CHHapticTimeImmediate)
    let writer = try AudioFileWriter(path: output, sampleRate: rate, channelCount: 3)
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
    print(#"json: {"seconds": \#(fmt(seconds(since: start), 4))}"#)
}

// MARK: - voices

/// An offline engine at 48 kHz with `count` players started at once, one sounding voice each.
func voiceEngine(
    count: Int, periodFrames: Int, hapticsFromAudio: Bool = false, channelMap: ChannelMap = .speakers
) throws -> (CHHapticEngine, [any CHHapticPatternPlayer]) {
    var options = CHHapticEngine.Options()
    options.hapticsFromAudio = hapticsFromAudio ? .general : nil
    options.output = .offline
    options.sampleRate = 48_000
    options.periodFrames = periodFrames
    options.channelMap = channelMap  // default: the live default, L+H,R+H
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

func measurePeriods(
    voices: Int, channelMap: ChannelMap = .speakers, periodFrames: Int = 256, warmup: Int = 50, periods: Int = 2000
) throws -> PeriodCost {
    let (engine, players) = try voiceEngine(count: voices, periodFrames: periodFrames, channelMap: channelMap)
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
