import Testing
import ThrumServices

@testable import ThrumCommandLine

/// The render summary's peak meter: each channel's largest magnitude, whatever the block sizes.
@Suite struct OutputMeterTests {
    /// `frames` interleaved frames of `channels` channels at ±0.1 (alternating), with `planted` values put
    /// at (frame, channel): the expected peaks are the planted magnitudes by construction.
    static func signal(frames: Int, channels: Int, planted: [(frame: Int, channel: Int, value: Float)]) -> [Float] {
        var samples = (0..<(frames * channels)).map { $0 % 2 == 0 ? Float(0.1) : -0.1 }
        for p in planted { samples[p.frame * channels + p.channel] = p.value }
        return samples
    }

    static func measure(_ samples: [Float], channels: Int, blockFrames: [Int]) -> OutputMeter {
        var meter = OutputMeter(channels: channels)
        samples.withUnsafeBufferPointer { all in
            var frame = 0
            var sizes = blockFrames.makeIterator()
            while frame * channels < all.count {
                let n = min(sizes.next() ?? 1000, all.count / channels - frame)
                meter.measure(UnsafeBufferPointer(rebasing: all[(frame * channels)..<((frame + n) * channels)]))
                frame += n
            }
        }
        return meter
    }

    @Test(arguments: [[1000], [1, 47, 16, 15, 1000], [3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 1000]])
    func peaksPerChannelWhateverTheBlocks(blockFrames: [Int]) {
        // Peaks at the first frame, inside a block, and in the last, short stretch; one negative.
        let samples = Self.signal(
            frames: 1000, channels: 3, planted: [(999, 0, 0.7), (17, 1, -0.8), (0, 2, 0.25), (500, 2, -0.2)])
        let meter = Self.measure(samples, channels: 3, blockFrames: blockFrames)
        #expect(meter.peaks == [0.7, 0.8, 0.25])
        #expect(meter.frames == 1000)
    }

    @Test func silenceAndOneChannel() {
        let silent = Self.measure([Float](repeating: 0, count: 5 * 77), channels: 5, blockFrames: [10])
        #expect(silent.peaks == [0, 0, 0, 0, 0])
        #expect(silent.frames == 77)
        let mono = Self.measure(Self.signal(frames: 33, channels: 1, planted: [(32, 0, -1.5)]), channels: 1, blockFrames: [16])
        #expect(mono.peaks == [1.5])
    }
}
