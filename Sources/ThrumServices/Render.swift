import FoundationEssentials
import Thrum
import ThrumModel

/// An offline render of patterns played together from frame 0, with a transport and engine settings: the
/// samples `thrum play` sends to the device, read block by block (libthrum's renderer), whole
/// (``samples()``: Python, the studio) or into a file (``RenderFile``: `thrum render`). Not thread-safe:
/// one caller at a time.
package final class Render {
    /// The longest render made without a duration, in seconds: a pattern (with its loops and rate) that
    /// would last longer needs one, so a tiny file cannot make gigabytes.
    package static let maxSecondsWithoutDuration = 600.0

    let offline: OfflineRender
    /// The engine options the patterns play with (offline).
    package let options: CHHapticEngine.Options
    /// Exactly this many frames (the transport's duration), or nil: until every pattern has ended.
    package let limit: Int?
    /// The frames the render is expected to last (for a file writer and a progress bar).
    package let expectedFrames: Int
    /// Interleaved channels per frame (the channel map's).
    package var channelCount: Int { options.channelMap.channelCount }
    /// Frames per second.
    package var sampleRate: Double { options.sampleRate }
    private var rendered = 0
    private var ended = false
    private var outcome: OfflineRender.Outcome?

    /// Checks the request and starts `patterns` (default channels `L,R,H`).
    /// - Throws: ``ServiceError``: 64 a bad setting or transport (`loop` needs a `duration`); 65 a render
    ///   over ``maxSecondsWithoutDuration`` without a duration, a bad profile or audio file; 66 a missing one.
    package init(_ patterns: [PatternToPlay], transport: Transport = Transport(), engine: EngineSettings = EngineSettings())
        throws(ServiceError)
    {
        try Self.check(transport)
        let name = patterns.map(\.name).joined(separator: ", ")
        let options = try engine.engineOptions(patternPaths: patterns.map(\.name), defaultChannels: .separate)
        self.options = options
        limit = transport.duration.map { Int(($0 * options.sampleRate).rounded()) }
        let passes = Double(max(transport.passes, 1))
        let longest = patterns.map(\.duration).max() ?? 0
        let expectedSeconds = transport.duration ?? longest * passes / transport.rate
        if transport.duration == nil && expectedSeconds > Self.maxSecondsWithoutDuration {
            throw ServiceError(
                .dataError,
                "\(name): the render would last \(PatternValidator.formatted(expectedSeconds)) s, more than the "
                    + "\(Int(Self.maxSecondsWithoutDuration)) s rendered without --duration (pass --duration S to render that long)")
        }
        expectedFrames = Int(expectedSeconds * options.sampleRate)
        offline = try OfflineRender(patterns, options: options, transport: transport)
    }

    /// Refuses a transport a render cannot take: looping forever without a duration.
    /// - Throws: 64.
    package static func check(_ transport: Transport) throws(ServiceError) {
        if transport.loopForever && transport.duration == nil { throw .usage("--loop renders forever; add --duration S") }
    }

    /// Renders the next frames into `buffer` (room for `maxFrames` frames, interleaved).
    /// - Returns: the frames written; fewer than `maxFrames` only at the end, 0 once it is over.
    package func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(ServiceError) -> Int {
        var written = 0
        while written < maxFrames && !ended {
            let count = min(OfflineRender.blockFrames, maxFrames - written, (limit ?? .max) - rendered)
            if count <= 0 {
                end()
                break
            }
            let step: (frames: Int, ended: Bool)
            do {
                step = try offline.step(into: buffer + written * channelCount, frameCount: count, rendered: rendered, limit: limit)
            } catch {
                throw .engine(error, pattern: "")
            }
            written += step.frames
            rendered += step.frames
            if step.ended { end() }
        }
        return written
    }

    /// Renders the rest without keeping it. - Returns: the frames it had.
    package func skipToEnd() throws(ServiceError) -> Int {
        var scratch = [Float](repeating: 0, count: OfflineRender.blockFrames * channelCount)
        var total = 0
        while true {
            let count = try scratch.withUnsafeMutableBufferPointer { (buffer) throws(ServiceError) in
                try read(into: buffer.baseAddress!, maxFrames: OfflineRender.blockFrames)
            }
            if count == 0 { return total }
            total += count
        }
    }

    /// Renders the rest block by block, handing each block (interleaved) to `consume`.
    /// - Returns: what the render made and lost.
    package func run(_ consume: (UnsafeBufferPointer<Float>) throws -> Void) throws -> OfflineRender.Outcome {
        var buffer = [Float](repeating: 0, count: OfflineRender.blockFrames * channelCount)
        while true {
            let count = try buffer.withUnsafeMutableBufferPointer { (block) throws(ServiceError) in
                try read(into: block.baseAddress!, maxFrames: OfflineRender.blockFrames)
            }
            if count == 0 { break }
            try buffer.withUnsafeBufferPointer { try consume(UnsafeBufferPointer(rebasing: $0[0..<(count * channelCount)])) }
        }
        return finish()
    }

    /// The whole render in memory.
    package func samples() throws(ServiceError) -> RenderedSamples {
        var samples: [Float] = []
        samples.reserveCapacity(expectedFrames * channelCount)
        do {
            _ = try run { samples.append(contentsOf: $0) }
        } catch {
            throw .engine(error, pattern: "")
        }
        return RenderedSamples(
            samples: samples, channelCount: channelCount, sampleRate: Int(sampleRate), expectedFrames: expectedFrames)
    }

    /// Stops the engines and says what the render made and lost; only the first call stops them.
    package func finish() -> OfflineRender.Outcome {
        end()
        return outcome!
    }

    private func end() {
        guard outcome == nil else { return }
        ended = true
        outcome = offline.finish(frames: rendered)
    }

    deinit { end() }
}

/// A render held in memory: the samples `thrum render --format float` writes. A value; thread-safe.
package struct RenderedSamples: Sendable {
    /// Interleaved 32-bit float frames of `channelCount` samples, full scale ±1.
    package var samples: [Float]
    /// Channels per frame (≥ 1), in the order of the channel map.
    package var channelCount: Int
    /// Frames per second (Hz).
    package var sampleRate: Int
    /// The frames announced to a file writer (decides when a WAV becomes RF64).
    package var expectedFrames: Int

    /// Frames rendered.
    package var frames: Int { samples.count / channelCount }

    package init(samples: [Float], channelCount: Int, sampleRate: Int, expectedFrames: Int) {
        self.samples = samples
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        self.expectedFrames = expectedFrames
    }
}
