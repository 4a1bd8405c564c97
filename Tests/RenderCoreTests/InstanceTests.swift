import Testing
import ThrumModel
import ThrumTestSupport

@testable import RenderCore

/// Instances, not slots: every call names slot + generation; an instance that ends takes everything
/// queued for it along; the next instance in the slot inherits nothing (issue 12). 8 kHz, 5 ms fades
/// (40 frames).
@Suite("Renderer: instances")
struct InstanceTests {
    /// A 1 s HapticContinuous at intensity 0.8 (peak ≈ 0.64, under the limiter's knee).
    static func tone() throws -> CompiledPattern {
        try compile(PatternData(events: [event(.hapticContinuous, 0, duration: 1, [(.hapticIntensity, 0.8)])]))
    }

    /// Renders `frames` frames of the haptic bus in one block.
    static func step(_ r: Renderer, _ frames: Int) -> [Float] {
        var l = [Float](repeating: 0, count: frames)
        var rr = l
        var h = l
        l.withUnsafeMutableBufferPointer { lb in
            rr.withUnsafeMutableBufferPointer { rb in
                h.withUnsafeMutableBufferPointer { hb in
                    r.render(frameCount: frames, into: lb.baseAddress!, rb.baseAddress!, hb.baseAddress!)
                }
            }
        }
        return h
    }

    static func renderer() -> Renderer {
        Renderer(configuration: RendererConfiguration(sampleRate: 8000, maxPlayers: 2, maxBlockFrames: 8000))
    }

    let a = InstanceID(slot: 0, generation: 1)
    let b = InstanceID(slot: 0, generation: 2)

    @Test("a parameter change queued for an instance that ends never reaches the next one")
    func pendingParameterDiesWithItsInstance() throws {
        let p = try Self.tone()
        let r = Self.renderer()
        r.startPlayer(a, pattern: p, atFrame: 0)
        #expect(r.setParameter(a, .hapticIntensity, value: 0, atFrame: 4000))
        r.stopPlayer(a, atFrame: 800)
        _ = Self.step(r, 1000)
        #expect(r.nextNotification()?.instance == a)
        #expect(r.startPlayer(b, pattern: p, atFrame: 0))
        let h = Self.step(r, 4000)  // frames 1000 ..< 5000
        #expect(peak(h, 3100..<4000) > 0.5, "B was silenced at frame 4000 by A's change")
    }

    @Test("a transport command queued for an instance that ends never reaches the next one")
    func pendingCommandDiesWithItsInstance() throws {
        let p = try Self.tone()
        let r = Self.renderer()
        r.startPlayer(a, pattern: p, atFrame: 0)
        #expect(r.pausePlayer(a, atFrame: 4000))
        r.stopPlayer(a, atFrame: 800)
        _ = Self.step(r, 1000)
        r.startPlayer(b, pattern: p, atFrame: 0)
        _ = Self.step(r, 4000)
        #expect(r.phase(of: 0) == .playing)
    }

    @Test("calls naming an instance that is not current are dropped and say so")
    func staleCallsAreDropped() throws {
        let p = try Self.tone()
        let r = Self.renderer()
        #expect(!r.setParameter(a, .hapticIntensity, value: 0, atFrame: 0), "idle slot")
        r.startPlayer(b, pattern: p, atFrame: 0)
        #expect(!r.setParameter(a, .hapticIntensity, value: 0, atFrame: 0))
        #expect(!r.seekPlayer(a, toOffset: 0.5, atFrame: 0))
        #expect(!r.pausePlayer(a, atFrame: 0))
        #expect(!r.setPlaybackRateNow(a, rate: 2))
        r.stopPlayer(a, atFrame: 0)
        r.setMuted(a, .all)
        let h = Self.step(r, 2000)
        #expect(r.phase(of: 0) == .playing)
        #expect(peak(h, 1000..<2000) > 0.5)
        #expect(!r.startPlayer(a, pattern: p, atFrame: 0), "the slot is busy")
    }

    @Test("a new instance inherits no mute")
    func muteBelongsToTheInstance() throws {
        let p = try Self.tone()
        let r = Self.renderer()
        r.startPlayer(a, pattern: p, atFrame: 0)
        r.setMuted(a, .all)
        #expect(peak(Self.step(r, 800), 0..<800) == 0)
        r.stopPlayer(a, atFrame: 0)
        _ = Self.step(r, 200)
        #expect(r.phase(of: 0) == .idle)
        r.startPlayer(b, pattern: p, atFrame: 0)
        #expect(peak(Self.step(r, 800), 100..<800) > 0.5)
        let c = InstanceID(slot: 0, generation: 3)
        r.stopPlayer(b, atFrame: 0)
        _ = Self.step(r, 200)
        r.startPlayer(c, pattern: p, atFrame: 0, muted: .all)
        #expect(peak(Self.step(r, 800), 0..<800) == 0)
    }

    @Test("retired call counts: calls minus entries still queued, published at the end of each block")
    func retiredCounts() throws {
        let p = try Self.tone()
        let r = Self.renderer()
        r.startPlayer(a, pattern: p, atFrame: 0)
        for k in 0..<5 { r.setParameter(a, .hapticIntensity, value: 0.5, atFrame: UInt64(1000 * (k + 1))) }
        r.setParameter(b, .hapticIntensity, value: 0.5, atFrame: 0)  // dropped at once
        r.seekPlayer(a, toOffset: 0.1, atFrame: 2500)
        r.setPlaybackRate(a, rate: -1, atFrame: 0)  // refused at once
        _ = Self.step(r, 0)
        #expect(r.statistics.retiredParameterCalls == 1)
        #expect(r.statistics.retiredCommandCalls == 1)
        _ = Self.step(r, 3000)  // changes at 1000 and 2000 and the seek are done
        #expect(r.statistics.retiredParameterCalls == 3)
        #expect(r.statistics.retiredCommandCalls == 2)
        r.stopPlayer(a, atFrame: 0)
        _ = Self.step(r, 100)  // the instance ends: its two remaining changes go with it
        #expect(r.statistics.retiredParameterCalls == 6)
    }

    @Test("start with an offset: as a seek before the start")
    func startOffset() throws {
        let pattern = try compile(PatternData(events: [event(.hapticTransient, 0), event(.hapticTransient, 0.3)]))
        let r = Self.renderer()
        r.startPlayer(a, pattern: pattern, atFrame: 100, offset: 0.2)
        let h = Self.step(r, 2000)
        // The transient at 0.3 s plays 0.1 s after the start: frame 100 + 800.
        #expect(firstSound(h) == 901 || firstSound(h) == 900)
    }

    @Test("render-side types hold no references")
    func bitwiseCopyable() {
        // Compile-time: these only compile while the types are BitwiseCopyable.
        func check<T: BitwiseCopyable>(_: T.Type) {}
        check(PlayerInstance.self)
        check(Voice.self)
        check(PendingParameter.self)
        check(TransportCommand.self)
        check(PlayerNotification.self)
        check(PatternView.self)
    }
}
