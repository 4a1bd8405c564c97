import AHAPCodec
import AudioResources
@preconcurrency import Dispatch
import FoundationEssentials
import FoundationStandIns
import Synchronization
import Glibc
import HapticFormats
import Thrum
import ThrumServices

/// `thrum play --onset-log` and `--start-at` (docs/timing.md).
let timingOptions: [OptionSpec] = [
    .value(
        .onsetLog, placeholder: "FILE.jsonl", values: .files(["jsonl"]),
        help: "write one JSON line per event onset: pattern time, stream frame, estimated DAC time (CLOCK_MONOTONIC)"),
    .value(
        .startAt, placeholder: "T",
        help: "start the patterns when their first frame leaves the DAC at CLOCK_MONOTONIC time T (seconds)"),
]

let playCommand = Subcommand(
    spec: CommandSpec(
        name: "play",
        summary: "Play a pattern on an ALSA device (haptics and audio on one clock).",
        positionalUsage: "PATTERN[@ACTUATOR]...", minPositionals: 1, maxPositionals: nil, positionalValues: .pattern,
        options: [
            .value(.device, short: "d", placeholder: "NAME", values: .device, help: "ALSA playback device (default: default); see 'thrum devices'"),
            .value(.period, placeholder: "FRAMES", help: "frames per period (default 256)"),
            .value(.periods, placeholder: "N", help: "periods in the device buffer (default 4)"),
            .value(.priority, placeholder: "N", help: "SCHED_FIFO priority of the render thread, 1–99 (default 70); 0: normal scheduling"),
            .flag(.watch, short: "w", help: "replay the file whenever it is saved; keep the last good version on errors"),
            .flag(.verbose, short: "v", help: "say what the device runs: format, channels, rate, period, access, latency"),
        ] + TransportArguments.options + timingOptions + EngineArguments.options + PatternLimitArguments.options,
        details: """
            PATTERN is an AHAP file, the name of a bundled pattern (see 'thrum list'), - for standard input, or a
            sound file (WAV, FLAC, …), played as it is; --haptics-from-audio adds haptics derived from the audio live.
            Several patterns play together from the first frame; @ACTUATOR puts one on an actuator of the channel
            map (see below).
            Default channels: L+H,R+H (hear audio and haptics on speakers). An actuator on the right channel
            of a stereo card: --channels M,H. An actuator alone on a mono output: --channels H.
            \(EngineArguments.channelHelp)
            The device's own format, channels, access and rate are used (a rate it lacks falls back to the
            nearest one it has unless --sample-rate asks for it; extra device channels are silent).
            The pattern starts on the stream's first frame (with --start-at T, on the frame that leaves the DAC
            at CLOCK_MONOTONIC time T); --duration counts pattern time. --onset-log FILE.jsonl writes one JSON
            line per event onset: pattern time, stream frame, estimated DAC time (see docs/timing.md).
            On a terminal a status line shows position, loop, rate and xruns (of the first pattern; the keys act
            on every pattern); keys: space pause/resume,
            ←/→ seek ∓1 s, +/- rate ×/÷ 1.25, l loop on/off, m mute haptics, q quit.
            With --watch (one pattern), each save is checked and replayed on the running engine (a broken edit prints its
            problems and the last good version keeps playing); playback runs until q or Ctrl-C.
            Ctrl-C, SIGTERM and SIGHUP stop playback cleanly (exit 130). Started in the background
            ('thrum play … &'), it leaves the terminal alone: no keys, no status line.
            Exit status: 0 ok, 64 usage, 65 bad pattern or audio file, 66 pattern missing, 69 no playback device.
            """),
    run: { arguments, console in
        let limits = try PatternLimitArguments.limits(arguments)
        if arguments.flag(.watch) && arguments.positionals.count > 1 {
            throw UsageError(message: "--watch replays one AHAP file when it is saved; give one pattern")
        }
        if arguments.flag(.watch) && arguments.positionals[0] == "-" {
            throw UsageError(message: "--watch needs a pattern file to watch, not standard input")
        }
        if arguments.flag(.watch) && Sounds.isSound(arguments.positionals[0]) {
            throw UsageError(message: "--watch replays an AHAP file when it is saved; '\(arguments.positionals[0])' is a sound")
        }
        let patterns = try patterns(arguments, limits: limits)
        let path = patterns.map(\.name).joined(separator: ", ")
        var output = OutputSettings()
        output.engine = try EngineArguments.settings(arguments)
        let transport = try TransportArguments.transport(arguments)
        let timing = try StartTiming(
            onsetLog: arguments.value(.onsetLog), startAt: arguments.double(.startAt, in: StartTiming.startRange))
        output.device = arguments.value(.device) ?? "default"
        output.period = try arguments.int(.period, in: OutputSettings.periodFrameCounts)
        output.periods = try arguments.int(.periods, in: OutputSettings.periodCounts)
        output.priority = try arguments.int(.priority, in: OutputSettings.priorities)

        let interrupt = InterruptFlag(watchdog: "thrum play")
        let playing = try Playback(patterns, transport: transport, output: output, timing: timing)
        let device = output.device
        if let note = playing.rateNote { console.error("thrum play: note: \(note)") }
        if let warning = playing.warning { console.error("thrum play: warning: \(warning)") }
        if let note = playing.silentChannelsNote { console.error("thrum play: note: \(note)") }
        let engines = playing.engines
        let engine = engines[0]
        if let setup = engine.deviceStreamSetup, arguments.flag(.verbose) || console.errIsTerminal {
            console.error("thrum play: '\(device)': \(setup)")
        }
        engine.releaseOutput()
        let started = ContinuousClock.now
        var session = PlaySession(engines: engines, players: playing.players, console: console)
        if arguments.flag(.watch) {
            guard let watcher = FileWatcher(path: path) else {
                throw ServiceError(.software, "cannot watch \(path) for changes (inotify unavailable)")
            }
            session.watch = PatternWatch(watcher: watcher, path: path, transport: transport, limits: limits)
        }
        let outcome = session.run(until: transport.duration.map { playing.startTime + $0 }, interrupt: interrupt)
        let figures = playing.figures()
        for other in engines.dropFirst() { other.stop() }  // the first one drains and closes the device
        func finishLog() throws {
            if let warning = timing.lostOnsetsWarning(figures.lostOnsets) { console.error("thrum play: warning: \(warning)") }
            try timing.writeLog(lost: figures.lostOnsets)
        }
        switch outcome {
        case .interrupted:
            // Within the watchdog's second: the buffer's end, or half a second of a device that stopped.
            if engine.stopDrainingOutput(within: 0.5) {
                console.error("thrum play: interrupted; device '\(device)' drained and closed")
            } else {
                console.error(
                    "thrum play: interrupted; device '\(device)' stopped playing (is its sound server still "
                        + "running?); closed")
            }
            try finishLog()
            return .interrupted
        case .deviceFailed:
            try finishLog()
            throw ServiceError(
                .unavailable,
                "ALSA device '\(device)' failed while playing: \(engine.lastDeviceError ?? "it stopped")")
        case .finished, .quit:
            break
        }
        engine.stopDrainingOutput()
        try finishLog()
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let xruns = figures.xruns
        let losses = OfflineRender.Outcome(frames: 0, droppedEvents: figures.droppedEvents, zeroedSamples: figures.zeroedSamples)
            .losses(voices: playing.options.maxVoices)
        console.print(
            "played \(path) on '\(device)': \(String(cFormat: "%.3f", seconds)) s, \(xruns) xrun\(xruns == 1 ? "" : "s")"
                + losses)
        let spins = figures.spins
        if spins > 0 {
            console.error(
                "thrum play: note: ALSA device '\(device)' kept waking the playback thread with nothing to do "
                    + "(\(spins) time\(spins == 1 ? "" : "s")); Thrum paced itself by the clock instead of spinning "
                    + "(an ALSA plugin bug; the audio is unaffected)")
        }
        return .ok
    })

/// `thrum play --watch`: reloads the pattern when its file is saved.
final class PatternWatch {
    let watcher: FileWatcher
    let path: String
    let transport: Transport
    let limits: PatternLimits
    /// The contents last read, so a save that changes nothing does not restart playback.
    private var lastContents: Data?

    init(watcher: FileWatcher, path: String, transport: Transport, limits: PatternLimits) {
        self.watcher = watcher
        self.path = path
        self.transport = transport
        self.limits = limits
        lastContents = try? PatternInput.read(path, limits: limits)
    }

    /// A started player for the new version of the file, or nil (no change, or a broken edit — whose
    /// problems are printed while the last good version keeps playing).
    func reloaded(engine: CHHapticEngine, console: Console) -> (any CHHapticAdvancedPatternPlayer)? {
        guard watcher.changed() else { return nil }
        let contents: Data
        do {
            contents = try PatternInput.read(path, limits: limits)
        } catch {
            console.writeErr("\r\u{1B}[K")
            console.error("thrum play: \(error.message(path)); still playing the last good version")
            return nil
        }
        guard contents != lastContents else { return nil }
        lastContents = contents
        let result = PatternFiles.read(data: contents, file: path)
        guard let data = result.pattern, !result.hasErrors else {
            console.writeErr("\r\u{1B}[K")
            for diagnostic in result.diagnostics where diagnostic.severity == .error { console.error(diagnostic.formatted) }
            console.error("thrum play: \(path) has errors; still playing the last good version")
            return nil
        }
        do {
            if let problem = limits.problems(in: data).first { throw ServiceError(.dataError, problem) }
            let folder = PatternInput.folder(of: path)
            let player = try engine.makeAdvancedPlayer(with: CHHapticPattern(data: data, sourceFolder: folder))
            try transport.apply(to: player)
            try player.start(atTime: CHHapticTimeImmediate)
            console.writeErr("\r\u{1B}[K")
            console.error("thrum play: reloaded \(path)")
            return player
        } catch let failure as ServiceError {
            console.error("thrum play: \(path): \(failure.message); still playing the last good version")
            return nil
        } catch {
            console.error("thrum play: \(path): \(error); still playing the last good version")
            return nil
        }
    }
}
