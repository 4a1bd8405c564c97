import ALSAOutput
import AudioResources
import Foundation
import Glibc
import RenderCore
import Synchronization
import Thrum

// MARK: - Helpers

func liveOptions(periodFrames: Int = 256, periodCount: Int = 4) -> CHHapticEngine.Options {
    var options = CHHapticEngine.Options()
    options.output = .device("pulse")
    options.sampleRate = 48_000
    options.periodFrames = periodFrames
    options.periodCount = periodCount
    options.channelMap = .speakers  // 2 channels, as the null sink
    return options
}

func engineFrame(_ engine: CHHapticEngine) -> Int { Int((engine.currentTime * engine.options.sampleRate).rounded()) }

/// A short pattern for start-up timing: a transient at 0 and a 0.2 s continuous haptic.
func tapPattern() throws -> CHHapticPattern {
    try CHHapticPattern(
        events: [
            CHHapticEvent(
                eventType: .hapticTransient,
                parameters: [parameter(.hapticIntensity, 1), parameter(.hapticSharpness, 0.5)], relativeTime: 0),
            hapticContinuous(at: 0, duration: 0.2, intensity: 0.8, sharpness: 0.5),
        ], parameters: [])
}

/// Plays `pattern` on a live engine until all of it has been heard; returns the engine's xruns.
func playLive(_ pattern: CHHapticPattern, length: Double, options: CHHapticEngine.Options) throws -> (xruns: UInt64, period: Int, buffer: Int) {
    let engine = try CHHapticEngine(options: options)
    let player = try engine.makePlayer(with: pattern)
    try engine.start()
    try player.start(atTime: CHHapticTimeImmediate)
    let period = engine.periodFrames
    let buffer = engine.bufferFrames
    let end = length + Double(buffer) / options.sampleRate + 0.05
    let deadline = nowNanos() + UInt64((length + 5) * 1e9)
    while engine.currentTime < end {
        guard engine.isRunning else { throw BenchFailure("the engine stopped: \(engine.lastDeviceError ?? "?")") }
        guard nowNanos() < deadline else { throw BenchFailure("playback did not finish in time") }
        usleep(5_000)
    }
    let xruns = engine.xrunCount
    engine.stopDrainingOutput()
    return (xruns, period, buffer)
}

/// Records `null.monitor` with parec and notes the wall time of the first non-zero byte after `arm()`.
final class MonitorTap: @unchecked Sendable {
    private let process = Process()
    private let pipe = Pipe()
    private let armed = Atomic<Bool>(false)
    private let firstSound = Atomic<UInt64>(0)
    private let bytes = Atomic<Int>(0)

    init() throws {
        guard let parec = executablePath("parec") else { throw BenchFailure("parec is not installed") }
        process.executableURL = URL(fileURLWithPath: parec)
        process.arguments = [
            "-d", "null.monitor", "--raw", "--format=float32le", "--rate=48000", "--channels=2", "--latency-msec=2",
        ]
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let fd = pipe.fileHandleForReading.fileDescriptor
        Thread.detachNewThread { [self] in readLoop(fd) }
        let deadline = nowNanos() + 3_000_000_000
        while bytes.load(ordering: .relaxed) == 0 && nowNanos() < deadline { usleep(1000) }
        guard bytes.load(ordering: .relaxed) > 0 else { throw BenchFailure("parec delivered nothing from null.monitor") }
        usleep(200_000)
    }

    private func readLoop(_ fd: Int32) {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 4096)
        defer { buffer.deallocate() }
        while true {
            let n = read(fd, buffer, 4096)
            if n <= 0 { break }
            bytes.add(n, ordering: .relaxed)
            guard armed.load(ordering: .acquiring), firstSound.load(ordering: .relaxed) == 0 else { continue }
            for i in 0..<n where buffer[i] != 0 {
                firstSound.store(nowNanos(), ordering: .releasing)
                break
            }
        }
    }

    /// Starts looking for sound (after the monitor has been silent).
    func arm() {
        firstSound.store(0, ordering: .relaxed)
        armed.store(true, ordering: .releasing)
    }

    /// Waits up to `timeout` seconds for sound; returns its wall time.
    func waitForSound(timeout: Double) -> UInt64? {
        let deadline = nowNanos() + UInt64(timeout * 1e9)
        while nowNanos() < deadline {
            let t = firstSound.load(ordering: .acquiring)
            if t != 0 {
                armed.store(false, ordering: .relaxed)
                return t
            }
            usleep(200)
        }
        armed.store(false, ordering: .relaxed)
        return nil
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}

// MARK: - latency

func benchLatency(runs: Int) throws {
    let command = "`thrum-bench latency`"
    guard pulseAvailable() else {
        emit(Row(figure: "Start to first frame (live, ALSA `pulse`)", value: "skipped: no PulseAudio null sink", target: "≤ 50 ms", command: command))
        note("latency: start the null sink first: eval \"$(Tools/pulse-null-sink.sh start)\"")
        return
    }
    let tap = try MonitorTap()
    defer { tap.stop() }
    var startCall: [Double] = []
    var toRendered: [Double] = []
    var toMonitor: [Double] = []
    var period = 0
    var bufferFrames = 0
    for i in 1...runs {
        progress("latency: in-process run \(i)/\(runs)")
        let engine = try CHHapticEngine(options: liveOptions())
        let player = try engine.makePlayer(with: tapPattern())
        usleep(300_000)  // the monitor is silent again
        tap.arm()
        let t0 = nowNanos()
        try engine.start()
        let t1 = nowNanos()
        try player.start(atTime: CHHapticTimeImmediate)
        let queuedAt = engineFrame(engine)
        period = engine.periodFrames
        bufferFrames = engine.bufferFrames
        // The period rendered after the start command was queued holds the player's first frame; the
        // render thread writes it to ALSA as soon as it is rendered.
        let deadline = t0 + 3_000_000_000
        while engineFrame(engine) < queuedAt + period && nowNanos() < deadline { usleep(50) }
        let t2 = nowNanos()
        let heard = tap.waitForSound(timeout: 3)
        startCall.append(Double(t1 - t0) / 1e6)
        toRendered.append(Double(t2 - t0) / 1e6)
        if let heard { toMonitor.append(Double(heard - t0) / 1e6) }
        engine.stop()
    }
    let n = "median of \(runs), max"
    emit(Row(figure: "`engine.start()` call, live on `pulse` (period \(period), buffer \(bufferFrames))", value: "\(fmt(median(startCall), 1)) ms (\(n) \(fmt(startCall.max() ?? 0, 1)))", target: "—", command: command))
    emit(Row(figure: "`engine.start()` + `player.start(atTime: 0)` → player's first period rendered and written", value: "\(fmt(median(toRendered), 1)) ms (\(n) \(fmt(toRendered.max() ?? 0, 1)))", target: "≤ 50 ms", command: command))
    if toMonitor.isEmpty {
        note("latency: no sound reached null.monitor in the in-process runs")
    } else {
        emit(Row(figure: "Same, to first non-zero sample at `null.monitor` (adds device buffer + PulseAudio)", value: "\(fmt(median(toMonitor), 1)) ms (median of \(toMonitor.count), max \(fmt(toMonitor.max() ?? 0, 1)))", target: "—", command: command))
    }

    progress("latency: start-up breakdown through ALSAOutput (with and without mlockall)")
    try benchStartupBreakdown(runs: runs, command: command)

    guard let thrum = thrumExecutable() else {
        note("latency: `thrum` not found next to thrum-bench; build it (swift build -c release --product thrum) for the process figure")
        return
    }
    var processTimes: [Double] = []
    for i in 1...runs {
        progress("latency: `thrum play tap --device pulse` run \(i)/\(runs)")
        usleep(300_000)
        tap.arm()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: thrum)
        process.arguments = ["play", "tap", "--device", "pulse"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let t0 = nowNanos()
        try process.run()
        let heard = tap.waitForSound(timeout: 5)
        process.waitUntilExit()
        if let heard { processTimes.append(Double(heard - t0) / 1e6) }
    }
    if processTimes.isEmpty {
        note("latency: `thrum play` produced no sound at null.monitor")
    } else {
        emit(Row(figure: "`thrum play tap --device pulse` launch → first non-zero sample at `null.monitor`", value: "\(fmt(median(processTimes), 1)) ms (median of \(processTimes.count), max \(fmt(processTimes.max() ?? 0, 1)))", target: "≤ 50 ms", command: command))
    }
    note("latency: \"rendered and written\" = wall time from calling engine.start() until the engine clock has advanced one period past the frame at which player.start(atTime: 0) was queued (that period holds the player's first frame; the render thread writes it to ALSA right after rendering it). The null.monitor figures are measured with `parec --latency-msec=2` on the sink's monitor and include the 4-period device buffer and PulseAudio's own latency")
}

// MARK: - rss

func benchRSS() throws {
    let command = "`thrum-bench rss`"
    let live = pulseAvailable()
    let pattern = try livePattern(length: 5)
    let before = Double(procStatusKB("VmHWM") ?? 0) / 1024
    if live {
        progress("rss: playing a 5 s pattern live through pulse")
        _ = try playLive(pattern, length: 5, options: liveOptions())
    } else {
        progress("rss: no pulse server; rendering a 5 s pattern offline")
        var options = CHHapticEngine.Options()
        options.output = .offline
        let engine = try CHHapticEngine(options: options)
        let player = try engine.makePlayer(with: pattern)
        try engine.start()
        try player.start(atTime: CHHapticTimeImmediate)
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 256 * 2)
        defer { buffer.deallocate() }
        for _ in 0..<(5 * 48_000 / 256 + 1) { try engine.renderOffline(frameCount: 256, into: buffer) }
        engine.stop()
    }
    let hwm = Double(procStatusKB("VmHWM") ?? 0) / 1024
    let locked = Double(procStatusKB("VmLck") ?? 0) / 1024
    emit(Row(figure: "Peak RSS (VmHWM) of thrum-bench playing a 5 s pattern \(live ? "live through `pulse`" : "offline (no pulse server)")", value: "\(fmt(hwm, 1)) MB (before the engine: \(fmt(before, 1)) MB; locked by mlockall: \(fmt(locked, 1)) MB)", target: "—", command: command))
    try benchPlayRSS(command: command)
}

/// Peak RSS (wait4's ru_maxrss) of `thrum play heartbeat --device null` against `aplay -D null` playing the
/// same pattern rendered to a WAV, and of `thrum --help` (the Swift runtime and Foundation, loaded by any command).
func benchPlayRSS(command: String) throws {
    guard let thrum = thrumExecutable() else {
        emit(Row(figure: "Peak RSS of `thrum play` vs aplay on ALSA `null`", value: "skipped: no `thrum` next to thrum-bench", target: "—", command: command))
        return
    }
    let dir = try TempDir("rss")
    defer { dir.cleanup() }
    let wav = dir.path("heartbeat.wav")
    let rendered = try spawnMeasured(thrum, ["render", "heartbeat", "--channels", "L+H,R+H", "-o", wav])
    guard rendered.status == 0 else { throw BenchFailure("thrum render heartbeat failed (\(rendered.status))") }
    progress("rss: thrum play heartbeat --device null, aplay -D null on its render, thrum --help (5 runs each)")
    var play: [Double] = []
    var aplay: [Double] = []
    var help: [Double] = []
    for _ in 0..<5 {
        let p = try spawnMeasured(thrum, ["play", "heartbeat", "--device", "null"])
        let a = try spawnMeasured("aplay", ["-q", "-D", "null", wav])
        let h = try spawnMeasured(thrum, ["--help"])
        guard p.status == 0, a.status == 0, h.status == 0 else {
            throw BenchFailure("exit statuses: thrum play \(p.status), aplay \(a.status), thrum --help \(h.status)")
        }
        guard let pk = p.peakKB, let ak = a.peakKB, let hk = h.peakKB else {
            emit(Row(figure: "Peak RSS of `thrum play` vs aplay on ALSA `null`", value: "skipped: /usr/bin/time (Debian package `time`) is not installed", target: "—", command: command))
            return
        }
        play.append(Double(pk) / 1024)
        aplay.append(Double(ak) / 1024)
        help.append(Double(hk) / 1024)
    }
    emit(Row(figure: "Peak RSS of `thrum play heartbeat --device null` vs `aplay -D null` on the same pattern rendered (median of 5)", value: "\(fmt(median(play), 1)) MB vs \(fmt(median(aplay), 1)) MB (`thrum --help`: \(fmt(median(help), 1)) MB)", target: "—", command: command))
    note("rss: peak RSS of each process by GNU time (`/usr/bin/time -f %M`); `thrum --help` loads the same libraries (Swift runtime, Foundation, ICU, libsndfile, ALSA) and plays nothing, so play − help is what playing adds")
}

// MARK: - xruns

func benchXruns(loads: [Bool]) throws {
    let command = "`thrum-bench xruns`"
    guard pulseAvailable() else {
        emit(Row(figure: "Period/xrun matrix vs aplay", value: "skipped: no PulseAudio null sink", target: "Thrum ≤ aplay", command: command))
        return
    }
    let length = 10.0
    let pattern = try livePattern(length: length)
    let dir = try TempDir("xruns")
    defer { dir.cleanup() }
    let wav = dir.path("pattern.wav")
    // The same pattern rendered by Thrum (offline, same channel map) for aplay.
    do {
        var options = liveOptions()
        options.output = .offline
        let engine = try CHHapticEngine(options: options)
        let player = try engine.makePlayer(with: pattern)
        try engine.start()
        try player.start(atTime: CHHapticTimeImmediate)
        let writer = try AudioFileWriter(path: wav, sampleRate: 48_000, channelCount: 2)
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 1024 * 2)
        defer { buffer.deallocate() }
        var done = 0
        let frames = Int(length * 48_000)
        while done < frames {
            let count = min(1024, frames - done)
            try engine.renderOffline(frameCount: count, into: buffer)
            try writer.write(UnsafeBufferPointer(start: buffer, count: count * 2))
            done += count
        }
        try writer.close()
        engine.stop()
    }
    for loaded in loads {
        for period in [64, 128, 256] {
            let load = loaded ? try CPULoad() : nil
            defer { load?.stop() }
            let label = loaded ? "other core busy" : "idle"
            progress("xruns: period \(period), \(label): Thrum")
            let thrumResult: String
            var actual = ""
            do {
                let result = try playLive(pattern, length: length, options: liveOptions(periodFrames: period))
                thrumResult = "\(result.xruns)"
                if result.period != period || result.buffer != 4 * period {
                    actual = " (device gave period \(result.period), buffer \(result.buffer))"
                }
            } catch {
                thrumResult = "failed: \(error)"
            }
            progress("xruns: period \(period), \(label): aplay")
            let aplay = try run("aplay", ["-D", "pulse", "--period-size=\(period)", "--buffer-size=\(4 * period)", wav])
            let underruns = aplay.stderr.components(separatedBy: "\n").filter { $0.contains("underrun") }.count
            let aplayResult = aplay.status == 0 ? "\(underruns)" : "exit \(aplay.status): \(underruns)"
            load?.stop()
            emit(
                Row(
                    figure: "Xruns in 10 s on `pulse`, period \(period) / buffer \(4 * period), \(label): Thrum / aplay\(actual)",
                    value: "\(thrumResult) / \(aplayResult)", target: "Thrum ≤ aplay", command: command))
        }
    }
    note("xruns: Thrum counts recovered xruns (engine.xrunCount); aplay's are the \"underrun!!!\" lines it prints; aplay plays a WAV of the same pattern rendered by Thrum; \"other core busy\" = `yes > /dev/null` running alongside")
}

// MARK: - Start-up breakdown (ALSAOutput directly)

/// A silent render source.
final class SilentSource: ALSARenderSource {
    func render(into buffer: UnsafeMutablePointer<Float>, frameCount: Int, channelCount: Int) {
        buffer.update(repeating: 0, count: frameCount * channelCount)
    }
}

/// Opens `pulse` with ALSAOutput and starts a silent source: (open ms, start ms, first period written ms).
func alsaStartup(lockMemory: Bool) throws -> (open: Double, start: Double, firstWrite: Double) {
    let configuration = ALSADeviceConfiguration(
        source: .named("pulse"), sampleRate: 48_000, channels: 2, periodFrames: 256, periodCount: 4,
        requireExactRate: true, realtimePriority: 70, lockMemory: lockMemory)
    let t0 = nowNanos()
    let playback = try ALSAPlayback(configuration: configuration)
    let t1 = nowNanos()
    try playback.start(source: SilentSource())
    let t2 = nowNanos()
    let deadline = t0 + 3_000_000_000
    while playback.framesWritten == 0 && nowNanos() < deadline { usleep(50) }
    let t3 = nowNanos()
    playback.stop()
    playback.close()
    return (Double(t1 - t0) / 1e6, Double(t2 - t1) / 1e6, Double(t3 - t0) / 1e6)
}

func benchStartupBreakdown(runs: Int, command: String) throws {
    for lock in [true, false] {
        var opens: [Double] = []
        var starts: [Double] = []
        var firsts: [Double] = []
        for _ in 0..<runs {
            let r = try alsaStartup(lockMemory: lock)
            opens.append(r.open)
            starts.append(r.start)
            firsts.append(r.firstWrite)
            usleep(100_000)
        }
        emit(
            Row(
                figure: "ALSAOutput on `pulse`, \(lock ? "with `mlockall(MCL_CURRENT)` (`Options.lockMemory = true`; off by default)" : "without `mlockall`"): open / start / open → first period written",
                value: "\(fmt(median(opens), 1)) / \(fmt(median(starts), 1)) / \(fmt(median(firsts), 1)) ms (medians of \(runs))",
                target: "—", command: command))
    }
}
