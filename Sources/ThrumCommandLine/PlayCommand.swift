import AudioResources
import ALSAOutput
import AHAPCodec
@preconcurrency import Dispatch
import Glibc
import FoundationEssentials
import FoundationStandIns
import HapticFormats
import RenderCore
import Synchronization
import Thrum
import ThrumServices

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
        ] + TransportArguments.options + PlayTiming.options + EngineArguments.options + PatternLimits.options,
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
        let limits = try PatternLimits(arguments)
        if arguments.flag(.watch) && arguments.positionals.count > 1 {
            throw UsageError(message: "--watch replays one AHAP file when it is saved; give one pattern")
        }
        if arguments.flag(.watch) && arguments.positionals[0] == "-" {
            throw UsageError(message: "--watch needs a pattern file to watch, not standard input")
        }
        if arguments.flag(.watch) && EngineArguments.isSound(arguments.positionals[0]) {
            throw UsageError(message: "--watch replays an AHAP file when it is saved; '\(arguments.positionals[0])' is a sound")
        }
        let patterns = try EngineArguments.patterns(arguments, limits: limits)
        let path = patterns.map(\.path).joined(separator: ", ")
        var options = try EngineArguments.engineOptions(arguments, patternPaths: patterns.map(\.path), defaultChannels: .speakers)
        let transport = try TransportArguments(arguments)
        let timing = try PlayTiming(arguments)
        timing.install(in: &options)
        let device = arguments.value(.device) ?? "default"
        options.output = .device(device)
        if let period = try arguments.int(.period, in: CHHapticEngine.Options.periodFrameCounts) { options.periodFrames = period }
        if let periods = try arguments.int(.periods, in: CHHapticEngine.Options.periodCounts) { options.periodCount = periods }
        if let priority = try arguments.int(.priority, in: 0...99) { options.realtimePriority = priority == 0 ? nil : Int32(priority) }

        // One device open when it works: the engines start on the device as asked. Only a refused start runs
        // the device check, which finds the nearest rate the device has when no rate was asked for, or turns
        // the refusal into one line naming the fix, and then starts again.
        let interrupt = InterruptFlag(watchdog: "thrum play")
        let playing: PlayStart
        do {
            playing = try PlayStart(options: options, patterns: patterns, transport: transport, timing: timing, console: console)
        } catch is PlayStart.Refused {
            try PlayDevice.check(device, options: &options, rateGiven: arguments.value(.sampleRate) != nil, console: console)
            do {
                playing = try PlayStart(options: options, patterns: patterns, transport: transport, timing: timing, console: console)
            } catch let refused as PlayStart.Refused {
                throw ServiceError(.unavailable, refused.message)
            }
        }
        let engines = playing.engines
        let players = playing.players
        let engine = engines[0]
        let startTime = playing.startTime
        if let setup = engine.deviceStreamSetup {
            PlayDevice.noteSilentChannels(setup, device: device, map: options.channelMap, console: console)
            if arguments.flag(.verbose) || console.errIsTerminal { console.error(PlayDevice.describe(setup, device: device)) }
        }
        engine.releaseOutput()
        let started = ContinuousClock.now
        var session = PlaySession(engines: engines, players: players, console: console)
        if arguments.flag(.watch) {
            guard let watcher = FileWatcher(path: path) else {
                throw ServiceError(.software, "cannot watch \(path) for changes (inotify unavailable)")
            }
            session.watch = PatternWatch(watcher: watcher, path: path, transport: transport, limits: limits)
        }
        let outcome = session.run(until: transport.duration.map { startTime + $0 }, interrupt: interrupt)
        let lostOnsets = engine.lostOnsetCount
        let xruns = engine.xrunCount
        let dropped = engine.voiceOverflowCount
        let zeroed = engine.nonFiniteSampleCount
        let spins = engine.deviceSpinCount
        for other in engines.dropFirst() { other.stop() }  // the first one drains and closes the device
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
            try timing.finish(lost: lostOnsets, console: console)
            return .interrupted
        case .deviceFailed:
            try timing.finish(lost: lostOnsets, console: console)
            throw ServiceError(
                .unavailable,
                "ALSA device '\(device)' failed while playing: \(engine.lastDeviceError ?? "it stopped")")
        case .finished, .quit:
            break
        }
        engine.stopDrainingOutput()
        try timing.finish(lost: lostOnsets, console: console)
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let losses = OfflineRender.Outcome(frames: 0, droppedEvents: dropped, zeroedSamples: zeroed)
            .losses(voices: options.maxVoices)
        console.print(
            "played \(path) on '\(device)': \(String(cFormat: "%.3f", seconds)) s, \(xruns) xrun\(xruns == 1 ? "" : "s")"
                + losses)
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
    let transport: TransportArguments
    let limits: PatternLimits
    /// The contents last read, so a save that changes nothing does not restart playback.
    private var lastContents: Data?

    init(watcher: FileWatcher, path: String, transport: TransportArguments, limits: PatternLimits) {
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
