// Soak runs: long looped playback, checked for drift, memory growth and xruns.
import Foundation
import Glibc
import Thrum

/// One hour (or `hours`) of a looped pattern rendered offline at 1000 Hz: the onset of every loop pass
/// must be at exactly round(k × loopEnd × rate) (or one frame later: a burst starts at phase 0), and
/// resident memory must stay flat.
func soakOffline(hours: Double) throws -> Int32 {
    let rate = 1000.0
    let loopEnd = 0.7371  // 737.1 frames per pass: rounding is exercised on every pass
    var options = CHHapticEngine.Options()
    options.output = .offline
    options.sampleRate = rate
    options.channelMap = ChannelMap(sources: [.haptic])
    let engine = try CHHapticEngine(options: options)
    try engine.start()
    let pattern = try CHHapticPattern(
        events: [CHHapticEvent(eventType: .hapticTransient, parameters: [parameter(.hapticIntensity, 1)], relativeTime: 0)],
        parameters: [])
    let player = try engine.makeAdvancedPlayer(with: pattern)
    player.loopEnabled = true
    player.loopEnd = loopEnd
    try player.start(atTime: 0)
    let total = Int(hours * 3600 * rate)
    let block = 1000
    var buffer = [Float](repeating: 0, count: block)
    var frame = 0
    var pass = 0
    var worstDrift = 0
    var silentRun = 1_000_000
    let rssStart = procStatusKB("VmRSS") ?? 0
    var rssAfterWarmUp = rssStart
    let started = nowNanos()
    while frame < total {
        try buffer.withUnsafeMutableBufferPointer { try engine.renderOffline(frameCount: block, into: $0.baseAddress!) }
        for (offset, sample) in buffer.enumerated() {
            if sample == 0 {
                silentRun += 1
                continue
            }
            if silentRun > 100 {  // a new pass's burst (bursts last 20 frames, passes 737)
                let expected = Int((Double(pass) * loopEnd * rate).rounded())
                worstDrift = max(worstDrift, abs(frame + offset - expected) > 1 ? abs(frame + offset - expected) : 0)
                pass += 1
            }
            silentRun = 0
        }
        frame += block
        if frame == 60_000 { rssAfterWarmUp = procStatusKB("VmRSS") ?? 0 }
    }
    let rssEnd = procStatusKB("VmRSS") ?? 0
    let expectedPasses = Int((Double(total) / (loopEnd * rate)).rounded(.up))
    let command = "thrum-bench soak-offline --hours \(fmt(hours, 2))"
    emit(Row(figure: "Soak: \(fmt(hours, 2)) h of looped playback offline at 1 kHz, passes checked", value: "\(pass) of \(expectedPasses)", target: "all", command: command))
    emit(Row(figure: "Soak: worst loop-onset drift", value: "\(worstDrift) frames", target: "0 frames", command: command))
    emit(Row(figure: "Soak: resident memory after 1 min / at the end of the hour", value: "\(rssAfterWarmUp / 1024) MB / \(rssEnd / 1024) MB", target: "flat", command: command))
    note("soak-offline: rendered in \(fmt(seconds(since: started), 1)) s of wall time")
    return pass == expectedPasses && worstDrift == 0 && rssEnd - rssAfterWarmUp < 2048 ? 0 : 1
}

/// `minutes` of a looped pattern live through ALSA `pulse` at period 256, with the other core busy.
func soakLive(minutes: Double) throws -> Int32 {
    guard pulseAvailable() else { throw BenchFailure("no PulseAudio null sink (run Tools/benchmark.sh or Tools/dev/pulse-null-sink.sh start)") }
    let load = try CPULoad()
    defer { load.stop() }
    var options = liveOptions(periodFrames: 256, periodCount: 4)
    options.channelMap = .speakers
    let engine = try CHHapticEngine(options: options)
    try engine.start()
    let player = try engine.makeAdvancedPlayer(with: tapPattern())
    player.loopEnabled = true
    player.loopEnd = 0.5
    try player.start(atTime: CHHapticTimeImmediate)
    let end = minutes * 60
    while engine.currentTime < end {
        guard engine.isRunning else { throw BenchFailure("the engine stopped: \(engine.lastDeviceError ?? "?")") }
        sleep(1)
    }
    let xruns = engine.xrunCount
    engine.stop()
    emit(Row(figure: "Soak: \(fmt(minutes, 0)) min of looped playback live on `pulse`, period 256 / buffer 1024, other core busy", value: "\(xruns) xruns", target: "0", command: "thrum-bench soak-live --minutes \(fmt(minutes, 0))"))
    return xruns == 0 ? 0 : 1
}
