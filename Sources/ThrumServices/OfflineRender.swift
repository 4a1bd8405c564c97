import Thrum

/// Patterns playing together on an offline device from frame 0, each on its locality: the samples `render`
/// writes and `plot` draws, made by the same render core `play` drives. Not thread-safe (one caller).
package struct OfflineRender {
    package let device: GCDeviceHaptics
    /// One engine per pattern, for its locality.
    package let engines: [CHHapticEngine]
    package let players: [any CHHapticAdvancedPatternPlayer]

    /// Starts `patterns` at once on an offline device with `options` (its output is set to offline).
    /// - Throws: ``ServiceError``: 64 a locality the map lacks or a transport the pattern cannot take; the
    ///   engine's refusals named after the pattern.
    package init(_ patterns: [PatternToPlay], options: CHHapticEngine.Options, transport: Transport?) throws(ServiceError) {
        var options = options
        options.output = .offline
        do {
            device = try GCDeviceHaptics(options: options)
        } catch {
            throw .engine(error, pattern: patterns.first?.name ?? "")
        }
        engines = try PatternTarget.engines(on: device, for: patterns.map(\.target))
        var players: [any CHHapticAdvancedPatternPlayer] = []
        for (engine, loaded) in zip(engines, patterns) {
            do {
                let player = try engine.makeAdvancedPlayer(with: loaded.pattern)
                try transport?.apply(to: player)
                try engine.start()
                players.append(player)
            } catch {
                throw .engine(error, pattern: loaded.name)
            }
        }
        for (player, loaded) in zip(players, patterns) {
            do {
                try player.start(atTime: CHHapticTimeImmediate)
            } catch {
                throw .engine(error, pattern: loaded.name)
            }
        }
        self.players = players
    }

    /// The engine frame at which the last pattern ended (release tails included); nil while one plays.
    package var endFrame: UInt64? {
        let ends = players.map { ($0 as? ThrumPlayerState)?.endFrame }
        return ends.contains(nil) ? nil : ends.compactMap { $0 }.max()
    }

    /// What a render made and lost.
    package struct Outcome: Sendable {
        /// Frames rendered.
        package var frames: Int
        /// Events that found no free voice and did not play.
        package var droppedEvents: Int
        /// Non-finite samples the renderer's last guard replaced by 0 (never, for a valid pattern).
        package var zeroedSamples: Int

        package init(frames: Int, droppedEvents: Int, zeroedSamples: Int) {
            self.frames = frames
            self.droppedEvents = droppedEvents
            self.zeroedSamples = zeroedSamples
        }

        /// "; 3 events dropped …" for a summary line, or "" when nothing was lost.
        package func losses(voices: Int) -> String {
            var text = ""
            if droppedEvents > 0 {
                text += "; \(droppedEvents) event\(droppedEvents == 1 ? "" : "s") dropped: more than \(voices) sounding at once (raise the pool with --voices N)"
            }
            if zeroedSamples > 0 { text += "; \(zeroedSamples) non-finite samples replaced by silence" }
            return text
        }
    }

    /// Frames per block: the writer hands each block to write(2) whole, and the kernel takes writes under
    /// ~32 KB at about twice the system time per byte (dd of 345 MB here: 12 KB writes 0.15–0.18 s, 32 KB
    /// and up 0.06–0.09 s); the output does not depend on the block size.
    package static let blockFrames = 4096

    /// Renders block by block until every pattern has ended (its release tails included), or exactly
    /// `limit` frames, at most `maxFrames`; hands each block, interleaved, to `consume`.
    package func run(limit: Int?, maxFrames: Int = .max, _ consume: (UnsafeBufferPointer<Float>) throws -> Void) throws -> Outcome {
        let channels = device.options.channelMap.channelCount
        let block = Self.blockFrames
        var buffer = [Float](repeating: 0, count: block * channels)
        var rendered = 0
        while true {
            let count = min(block, (limit ?? .max) - rendered, maxFrames - rendered)
            if count <= 0 { break }
            let step = try buffer.withUnsafeMutableBufferPointer {
                try self.step(into: $0.baseAddress!, frameCount: count, rendered: rendered, limit: limit)
            }
            try buffer.withUnsafeBufferPointer { try consume(UnsafeBufferPointer(rebasing: $0[0..<(step.frames * channels)])) }
            rendered += step.frames
            if step.ended { break }
        }
        return finish(frames: rendered)
    }

    /// Renders the next `frameCount` frames into `buffer` (interleaved) after `rendered` frames, and says how
    /// many of them belong to the render: all of them with a `limit`, else those before the last pattern's end.
    /// - Returns: the frames that count, and whether the render is over (every pattern ended; never with a limit).
    package func step(
        into buffer: UnsafeMutablePointer<Float>, frameCount: Int, rendered: Int, limit: Int?
    ) throws -> (frames: Int, ended: Bool) {
        try engines[0].renderOffline(frameCount: frameCount, into: buffer)  // renders the device: every engine's players
        guard limit == nil, let end = endFrame else { return (frameCount, false) }
        return (max(0, min(frameCount, Int(end) - rendered)), true)
    }

    /// Stops the engines after `frames` frames and says what the render lost.
    package func finish(frames: Int) -> Outcome {
        let engine = engines[0]
        let outcome = Outcome(
            frames: frames, droppedEvents: engine.voiceOverflowCount, zeroedSamples: engine.nonFiniteSampleCount)
        for engine in engines { engine.stop() }
        return outcome
    }
}
