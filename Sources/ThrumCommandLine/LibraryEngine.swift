import ALSAOutput
import FoundationEssentials
import FoundationStandIns
import RenderCore
import Thrum
import ThrumServices

extension LibraryCalls {
    /// CLOCK_MONOTONIC now, in seconds: the clock of `Player.start(atMonotonicTime:)` and of the onset log's
    /// `dac_time`. Thread-safe.
    package static func monotonicNow() -> Double { ThrumClock.monotonicNow() }

    /// A live engine on an ALSA device, set up from `thrum play`'s device options, with one engine per
    /// actuator locality on one device clock (as `thrum play PATTERN@NAME …`). Thread-safe: any method
    /// from any thread.
    package final class LiveEngine: @unchecked Sendable {
        let device: GCDeviceHaptics
        /// The ALSA device name.
        package let deviceName: String
        private let lock = Lock()
        private var engines: [GCHapticsLocality: CHHapticEngine] = [:]
        private var closed = false
        /// `--onset-log FILE.jsonl`: every onset played, written when the engine closes.
        private let onsetLog: OnsetLog?

        /// The options of `thrum play` that set up the device and the engine.
        static let optionNames: Set<String> = [
            "device", "period", "periods", "sample-rate", "channels", "layout", "voices", "profile", "resources",
            "allow-any-path", "max-audio-bytes", "max-audio-seconds", "max-audio-memory", "haptics-from-audio", "preset",
            "onset-log",
        ]

        /// Opens the device as `thrum play OPTIONS` does (a rate it lacks falls back to its nearest rate
        /// unless `--sample-rate` asks for one) and starts the engine of every actuator. With
        /// `--onset-log FILE.jsonl` every onset is logged as `thrum play --onset-log` logs it (see ``close()``).
        /// - Throws: a ``Failure``: 64 a bad option, 65 a bad profile, 69 the device refuses or is missing,
        ///   73 the onset log cannot be created.
        package init(options: [String]) throws {
            // alsa-lib prints its own errors to stderr; the failure carries them in one line instead (as the CLI).
            if ProcessInfo.processInfo.environment["THRUM_ALSA_DEBUG"] == nil {
                ALSADevices.setLibraryDiagnostics(enabled: false)
            }
            let arguments = try parseOptions(options, of: playCommand, allowed: Self.optionNames)
            var engineOptions = try EngineArguments.engineOptions(arguments, patternPaths: [], defaultChannels: .speakers)
            let log = try arguments.value(.onsetLog).map { try OnsetLog(path: $0) }
            onsetLog = log
            if let log { engineOptions.onsetHandler = { log.record($0) } }
            // Bundled patterns find their audio as they do with `thrum play NAME`.
            if let audio = BundledResources.audio, !engineOptions.resourceRoots.contains(audio) {
                engineOptions.resourceRoots.append(audio)
            }
            deviceName = arguments.value(.device) ?? "default"
            engineOptions.output = .device(deviceName)
            if let period = try arguments.int(.period, in: 16...8192) { engineOptions.periodFrames = period }
            if let periods = try arguments.int(.periods, in: 2...64) { engineOptions.periodCount = periods }
            let silent = Console(out: { _ in }, err: { _ in })
            _ = try PlayDevice.check(
                deviceName, options: &engineOptions, rateGiven: arguments.value(.sampleRate) != nil, console: silent)
            do {
                device = try GCDeviceHaptics(options: engineOptions)
            } catch {
                throw failure(error)
            }
            _ = try engine(for: .all)
        }

        /// The sample rate the device runs at, in Hz.
        package var sampleRate: Double { device.options.sampleRate }
        /// Output channels per frame.
        package var channelCount: Int { device.options.channelMap.channelCount }
        /// Underruns the device has reported since the engine opened (audio lost to a late render thread).
        package var xruns: UInt64 { (try? engine(for: .all).xrunCount) ?? 0 }
        /// Seconds on the engine clock (frames played ÷ rate); the time base of every `at` below.
        package var currentTime: Double { (try? engine(for: .all).currentTime) ?? 0 }

        /// The started engine of `locality`, made on first use.
        private func engine(for locality: GCHapticsLocality) throws -> CHHapticEngine {
            try lock.withLock {
                if closed { throw Failure(status: ExitCode.usage.rawValue, message: "the engine is closed") }
                if let engine = engines[locality] { return engine }
                let target = PatternTarget(pattern: "", locality: locality)
                let engine = try ActuatorArguments.engines(on: device, for: [target])[0]
                do {
                    try engine.start()
                } catch let error as CHHapticError {
                    throw ServiceError(.unavailable, error.message)
                }
                engines[locality] = engine
                return engine
            }
        }

        /// A player of `pattern` on the actuators of `actuator` (a name of the channel map or a group:
        /// `leftHandle`, `handles`, …; nil: every actuator).
        package func player(_ pattern: Pattern, actuator: String?) throws -> Player {
            var locality = pattern.argument.target.locality ?? .all
            if let actuator {
                guard let name = ActuatorNames.canonical(actuator) else {
                    throw UsageError(message: "'\(actuator)' is not an actuator name (letters, digits, _ and -)")
                }
                locality = GCHapticsLocality(name)
            }
            do {
                let engine = try engine(for: locality)
                let player = try engine.makeAdvancedPlayer(with: pattern.argument.pattern)
                if let onsetLog, let id = (player as? ThrumPlayerState)?.playerID {
                    onsetLog.name(playerID: id, pattern: pattern.name, fallback: false)
                }
                return Player(player, engine: engine, name: pattern.name)
            } catch {
                throw failure(error, patternPath: pattern.name)
            }
        }

        /// The estimated CLOCK_MONOTONIC time (seconds) at which engine time `time` leaves the DAC; nil until
        /// the device has played its first period, and once closed.
        package func outputTime(forEngineTime time: Double) -> Double? {
            (try? engine(for: .all))?.outputTime(forEngineTime: time)
        }

        /// Stops every player, closes the device after it has played what it was given, then writes the
        /// onset log (every onset the device played; `{"lost_onsets":N}` last when some could not be
        /// logged). Only the first call does anything.
        /// - Throws: a ``Failure`` (74) when the onset log cannot be written (nothing is left then).
        package func close() throws {
            let all = lock.withLock {
                guard !closed else { return [CHHapticEngine]() }
                closed = true
                defer { engines = [:] }
                return Array(engines.values)
            }
            guard !all.isEmpty else { return }
            // Every engine on the device shares one run and its onset reports: each reads the same count.
            let lost = all.map(\.lostOnsetCount).max() ?? 0
            for engine in all { engine.stopDrainingOutput() }
            do {
                try onsetLog?.commit(lost: lost)
            } catch {
                throw failure(error)
            }
        }
    }

    /// An advanced pattern player (Core Haptics' `CHHapticAdvancedPatternPlayer`) with one-line failures.
    /// Thread-safe: any method from any thread.
    package final class Player: @unchecked Sendable {
        let player: any CHHapticAdvancedPatternPlayer
        /// The engine the player plays on (its clock).
        let engine: CHHapticEngine
        let name: String

        init(_ player: any CHHapticAdvancedPatternPlayer, engine: CHHapticEngine, name: String) {
            self.player = player
            self.engine = engine
            self.name = name
        }

        private func perform(_ action: () throws -> Void) throws {
            do {
                try action()
            } catch {
                throw failure(error, patternPath: name)
            }
        }

        /// Starts a new instance at engine time `time` (0: now).
        package func start(at time: Double) throws { try perform { try player.start(atTime: time) } }
        /// Starts a new instance on the frame that leaves the DAC at CLOCK_MONOTONIC time `monotonicTime`
        /// (seconds), as `thrum play --start-at` does. Blocks until the device's DAC clock has settled (at
        /// most 5 s).
        /// - Throws: a ``Failure``: 64 when the time has passed or is nearer than the device's buffer can
        ///   reach (the message names the earliest time), 69 when the device reports no timing.
        package func start(atMonotonicTime monotonicTime: Double) throws {
            guard monotonicTime.isFinite else {
                throw UsageError(message: "the start time takes a CLOCK_MONOTONIC time in seconds, not \(monotonicTime)")
            }
            try start(at: try PlayTiming.engineTime(leavingDACAt: monotonicTime, on: engine, named: "the start time"))
        }
        /// Stops at engine time `time` (0: now), with a 5 ms fade.
        package func stop(at time: Double) throws { try perform { try player.stop(atTime: time) } }
        package func pause(at time: Double) throws { try perform { try player.pause(atTime: time) } }
        package func resume(at time: Double) throws { try perform { try player.resume(atTime: time) } }
        /// Moves to `offset` seconds into the pattern.
        package func seek(to offset: Double) throws { try perform { try player.seek(toOffset: offset) } }

        /// Loops at `end` pattern seconds (0: the pattern's end), `passes` passes in all (0: forever; from the
        /// next start), or plays once when `enabled` is false.
        package func setLoop(_ enabled: Bool, end: Double, passes: Int) throws {
            guard end >= 0, end.isFinite, passes >= 0 else {
                throw UsageError(message: "a loop needs an end ≥ 0 s and passes ≥ 0, not \(end) s and \(passes)")
            }
            player.loopEnabled = enabled
            player.loopEnd = end
            (player as? ThrumPlayerState)?.loopPassLimit = passes
        }

        /// Playback rate, 0.01…100 as `--rate` takes it (2 = twice as fast; pitch unchanged).
        package func setRate(_ rate: Double) throws {
            guard rate.isFinite, (0.01...100).contains(rate) else {
                throw UsageError(message: "the rate takes a number from 0.01 to 100, not '\(rate)'")
            }
            player.playbackRate = Float(rate)
        }

        package var isLooping: Bool { player.loopEnabled }
        package var rate: Double { Double(player.playbackRate) }
        package var isMuted: Bool {
            get { player.isMuted }
            set { player.isMuted = newValue }
        }

        /// Sets a dynamic parameter (`HapticIntensityControl`, …; AHAP names) to `value` at engine time `time`.
        package func send(_ parameter: String, value: Float, at time: Double) throws {
            let id = try parameterID(parameter)
            try perform {
                try player.sendParameters([CHHapticDynamicParameter(parameterID: id, value: value, relativeTime: 0)], atTime: time)
            }
        }

        /// Plays a curve of `parameter` through `points` (seconds from its start, value) from engine time `time`.
        package func scheduleCurve(_ parameter: String, points: [(time: Double, value: Float)], at time: Double) throws {
            let id = try parameterID(parameter)
            let curve = CHHapticParameterCurve(
                parameterID: id, controlPoints: points.map { .init(relativeTime: $0.time, value: $0.value) },
                relativeTime: 0)
            try perform { try player.scheduleParameterCurve(curve, atTime: time) }
        }

        /// Calls `handler` once when playback ends (nil) or fails (the one-line message), on an internal
        /// thread, never the render thread; replaces the previous handler.
        package func onCompletion(_ handler: (@Sendable (String?) -> Void)?) {
            let name = name
            player.completionHandler = handler.map { handler in
                { error in handler(error.map { failure($0, patternPath: name).message }) }
            }
        }

        /// Pattern seconds into the first playing instance; nil when nothing plays.
        package var position: Double? { (player as? ThrumPlayerState)?.position?.seconds }

        private func parameterID(_ name: String) throws -> CHHapticDynamicParameter.ID {
            let known = CHHapticDynamicParameter.ID.allKnown
            guard let id = known.first(where: { $0.rawValue == name }) else {
                let guess = Suggestions.closest(to: name, in: known.map(\.rawValue))
                throw UsageError(
                    message: "unknown dynamic parameter '\(name)'" + (guess.map { "; did you mean '\($0)'?" } ?? ""))
            }
            return id
        }
    }
}
