import ALSAOutput
import FoundationStandIns
import RenderCore
import Thrum

/// The ALSA device a live engine plays on, and how: the device's name, its period and buffer, the render
/// thread's priority, and the engine settings (default channels `L+H,R+H`: audio and haptics heard on
/// speakers). Each field is `thrum play`'s option of the same name. A value; thread-safe.
package struct OutputSettings: Sendable {
    /// ALSA playback device (`--device`).
    package var device = "default"
    /// Frames per period (`--period`); nil: 256.
    package var period: Int?
    /// Periods in the device buffer (`--periods`); nil: 4.
    package var periods: Int?
    /// SCHED_FIFO priority of the render thread (`--priority`, 0: normal scheduling); nil: 70.
    package var priority: Int?
    package var engine = EngineSettings()

    package static let periodFrameCounts = CHHapticEngine.Options.periodFrameCounts
    package static let periodCounts = CHHapticEngine.Options.periodCounts
    package static let priorities = 0...99

    package init() {}

    /// The engine options for playing the patterns at `patternPaths` on the device.
    /// - Throws: as ``EngineSettings/engineOptions(patternPaths:defaultChannels:)``, and 64 for a period,
    ///   period count or priority out of range.
    package func engineOptions(patternPaths: [String]) throws(ServiceError) -> CHHapticEngine.Options {
        var options = try engine.engineOptions(patternPaths: patternPaths, defaultChannels: .speakers)
        options.output = .device(device)
        if let period = try Checked.whole(period, "period", in: Self.periodFrameCounts) { options.periodFrames = period }
        if let periods = try Checked.whole(periods, "periods", in: Self.periodCounts) { options.periodCount = periods }
        if let priority = try Checked.whole(priority, "priority", in: Self.priorities) {
            options.realtimePriority = priority == 0 ? nil : Int32(priority)
        }
        return options
    }
}

/// Patterns playing live on a device from one start, as `thrum play` plays them: the engines on the device
/// (held until the players are queued, so every pattern starts on the stream's first frame, or running with
/// a start time) and the players started together. One device open when it works; only a refused start runs
/// the device check (``DeviceCheck``), which finds the nearest rate the device has when no rate was asked
/// for, or turns the refusal into one line naming the fix, and then starts again.
/// - Important: One caller (the command's thread); the engines' own threads run the device.
package final class Playback {
    package let output: OutputSettings
    /// The engine options the patterns play with (the rate may be the device's nearest).
    package let options: CHHapticEngine.Options
    package let haptics: GCDeviceHaptics
    /// One engine per pattern; the first one's clock and device figures stand for all.
    package let engines: [CHHapticEngine]
    /// One player per pattern.
    package let players: [any CHHapticAdvancedPatternPlayer]
    /// The engine time the players started at (`CHHapticTimeImmediate`, or the frame of the start time).
    package let startTime: TimeInterval
    package let timing: StartTiming
    /// What the device check changed (a rate the device lacks), or nil.
    package let rateNote: String?
    /// What the engine warns about at start (a render thread without real-time priority, …), or nil.
    package let warning: String?
    /// The device's channels the map leaves silent, or nil.
    package let silentChannelsNote: String?

    /// The device refused the stream when the engine started (ALSA's message): nothing is left open.
    private struct Refused: Error {
        let message: String
    }

    /// Builds everything for `patterns` on `output` and starts it.
    /// - Throws: ``ServiceError``: 64 a bad setting, transport or start time; 65/66 a profile or audio file;
    ///   69 the device refuses or is missing; 73 the onset log cannot be created.
    package init(_ patterns: [PatternToPlay], transport: Transport, output: OutputSettings, timing: StartTiming)
        throws(ServiceError)
    {
        self.output = output
        self.timing = timing
        var options = try output.engineOptions(patternPaths: patterns.map(\.name))
        timing.install(in: &options)
        let started: (GCDeviceHaptics, [CHHapticEngine], [any CHHapticAdvancedPatternPlayer], TimeInterval, String?)
        var rateNote: String?
        do {
            started = try Self.start(options: options, patterns: patterns, transport: transport, timing: timing)
        } catch {
            guard error is Refused else { throw error as? ServiceError ?? .engine(error, pattern: "") }
            rateNote = try DeviceCheck.check(output.device, options: &options, rateGiven: output.engine.sampleRate != nil)
            do {
                started = try Self.start(options: options, patterns: patterns, transport: transport, timing: timing)
            } catch let refused as Refused {
                throw ServiceError(.unavailable, refused.message)
            } catch {
                throw error as? ServiceError ?? .engine(error, pattern: "")
            }
        }
        (haptics, engines, players, startTime, warning) = started
        self.options = options
        self.rateNote = rateNote
        silentChannelsNote = engines[0].deviceStreamSetup.flatMap {
            DeviceCheck.silentChannelsNote($0, device: output.device, map: options.channelMap)
        }
    }

    /// Builds the engines and players and starts them.
    /// - Throws: `Refused` when the device refuses the stream; `ServiceError` for the patterns, the
    ///   actuators and the start time.
    private static func start(
        options: CHHapticEngine.Options, patterns: [PatternToPlay], transport: Transport, timing: StartTiming
    ) throws -> (GCDeviceHaptics, [CHHapticEngine], [any CHHapticAdvancedPatternPlayer], TimeInterval, String?) {
        let names = patterns.map(\.name).joined(separator: ", ")
        let haptics: GCDeviceHaptics
        do {
            haptics = try GCDeviceHaptics(options: options)
        } catch {
            throw ServiceError.engine(error, pattern: names)
        }
        let engines = try PatternTarget.engines(on: haptics, for: patterns.map(\.target))
        var players: [any CHHapticAdvancedPatternPlayer] = []
        for (engine, loaded) in zip(engines, patterns) {
            do {
                let player = try engine.makeAdvancedPlayer(with: loaded.pattern)
                try transport.apply(to: player)
                players.append(player)
            } catch {
                throw ServiceError.engine(error, pattern: loaded.name)
            }
        }
        timing.name(players, patterns: patterns.map(\.name))
        do {
            try timing.start(engines)
        } catch let error as CHHapticError {
            for engine in engines { engine.stop() }
            throw Refused(message: error.message)
        }
        let startTime: TimeInterval
        do {
            startTime = try timing.startTime(engines[0])
        } catch {
            for engine in engines { engine.stop() }
            throw error
        }
        for (player, loaded) in zip(players, patterns) {
            do {
                try player.start(atTime: startTime)
                // The duration is pattern time: the stop lands on the exact frame a render of that duration ends on.
                if let duration = transport.duration { try player.stop(atTime: startTime + duration) }
            } catch {
                for engine in engines { engine.stop() }
                throw ServiceError.engine(error, pattern: loaded.name)
            }
        }
        return (haptics, engines, players, startTime, engines[0].startWarning)
    }

    /// What the run cost, read before the engines stop.
    package struct Figures: Sendable {
        package var lostOnsets: Int
        package var xruns: UInt64
        package var droppedEvents: Int
        package var zeroedSamples: Int
        /// Wake-ups with nothing to do that the device caused (an ALSA plugin bug; Thrum paced itself instead).
        package var spins: UInt64
    }

    package func figures() -> Figures {
        let engine = engines[0]
        return Figures(
            lostOnsets: engine.lostOnsetCount, xruns: engine.xrunCount, droppedEvents: engine.voiceOverflowCount,
            zeroedSamples: engine.nonFiniteSampleCount, spins: engine.deviceSpinCount)
    }
}
