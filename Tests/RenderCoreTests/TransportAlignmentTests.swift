import Foundation
import Testing
import ThrumTestSupport
import ThrumModel

@testable import RenderCore

@Suite("Transport: audio/haptic alignment and block independence")
struct TransportAlignmentTests {
    static let sr = 8000.0

    static func alignedPattern() throws -> CompiledPattern {
        let file = sineFile(seconds: 0.02, hz: 500)
        return try compile(
            PatternData(events: [
                event(.hapticTransient, 0.02, [(.hapticIntensity, 0.8)]), EventData(type: .audioCustom, time: 0.02),
                event(.hapticTransient, 0.0731, [(.hapticIntensity, 0.8)]), EventData(type: .audioCustom, time: 0.0731),
            ]), rate: Self.sr, buffers: [1: file, 3: file])
    }

    static func allOperations(_ r: Renderer, _ p: CompiledPattern) {
        r.startPlayer(0, pattern: p, atFrame: 17, loopEnd: 0.1)
        r.setPlaybackRate(0, rate: 1.37, atFrame: 2111)
        r.seekPlayer(0, toOffset: 0.0531, atFrame: 3003)
        r.pausePlayer(0, atFrame: 4321)
        r.resumePlayer(0, atFrame: 5000)
        r.setPlaybackRate(0, rate: 0.61, atFrame: 6007)
        r.setLoop(0, loopEnd: 0.09, atFrame: 7001)
        r.seekPlayer(0, toOffset: 0.25, atFrame: 8500)
        r.pausePlayer(0, atFrame: 9000)
        r.setPlaybackRate(0, rate: 2.3, atFrame: 9100)
        r.resumePlayer(0, atFrame: 9555)
        r.setParameter(0, .audioVolume, value: 0.5, atFrame: 9600)
    }

    @Test("an AudioCustom event and a transient at the same time stay aligned through loop, seek, pause, rate")
    func audioHapticAlignment() throws {
        let p = try Self.alignedPattern()
        let (buses, r) = render(rate: Self.sr, frames: 12_000) { r in
            r.enableOnsetLog(capacity: 256)
            Self.allOperations(r, p)
        }
        let haptic = onsetFrames(r, kind: .transient)
        let audio = onsetFrames(r, kind: .audioCustom)
        #expect(haptic.count > 20)
        #expect(haptic == audio)
        for f in haptic {
            #expect(buses.haptic[f + 1] != 0 && buses.left[f + 2] != 0, "onset \(f)")
        }
    }

    static func busy(_ blockSize: @escaping (inout SplitMix64) -> Int, seed: UInt64 = 1) throws -> Buses {
        let p = try OnsetAndBlockTests.busyPattern()
        let q = try Self.alignedPattern()
        return render(rate: Self.sr, frames: 12_000, blockSize: blockSize, seed: seed) { r in
            r.startPlayer(1, pattern: p, atFrame: 5, loopEnd: 0.37)
            r.pausePlayer(1, atFrame: 1777)
            r.seekPlayer(1, toOffset: 0.21, atFrame: 1900)
            r.resumePlayer(1, atFrame: 2500)
            r.setPlaybackRate(1, rate: 0.73, atFrame: 3100)
            r.pausePlayer(1, atFrame: 4100)
            r.resumePlayer(1, atFrame: 4444)
            r.setLoop(1, loopEnd: nil, atFrame: 7000)
            r.setParameter(1, .hapticSharpness, value: 0.4, atFrame: 4200)
            Self.allOperations(r, q)
        }.0
    }

    @Test("block sizes 1, 7, 64, 512 are bit-identical to one block with every transport operation", arguments: [1, 7, 64, 512])
    func blockIndependence(size: Int) throws {
        let whole = try Self.busy { _ in 12_000 }
        #expect(whole.haptic.contains { $0 != 0 } && whole.left.contains { $0 != 0 })
        #expect(try Self.busy { _ in size }.bitsEqual(whole))
    }

    @Test("random block sizes are bit-identical to one block with every transport operation", arguments: [UInt64(3), 4, 5])
    func randomBlocks(seed: UInt64) throws {
        let whole = try Self.busy { _ in 12_000 }
        #expect(try Self.busy({ rng in Int(rng.next() % 400) + 1 }, seed: seed).bitsEqual(whole))
    }
}
