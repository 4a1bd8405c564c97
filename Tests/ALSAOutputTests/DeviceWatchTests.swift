import Testing

@testable import ALSAOutput

/// The playback loop's dropout and spin logic on synthetic readings (the real cases: a frozen server in
/// the PipeWire and JACK suites, a plugin whose wake-up never clears on the simulated card).
@Suite struct DeviceWatchTests {
    /// Readings as the loop takes them, at 48 kHz with 256-frame periods and a 1024-frame buffer kept full:
    /// checked every millisecond, read whenever the device has taken another period since the last read.
    /// `heard(t)` is how far the device got by time t (frames).
    private func dropouts(seconds: Double, recoveries: (Double) -> UInt64 = { _ in 0 }, heard: (Double) -> Int) -> Int {
        var watch = DropoutWatch(rate: 48_000, bufferFrames: 1024)
        var count = 0
        var lastRead = -256
        for step in 0..<Int(seconds * 1000) {
            let time = Double(step) / 1000
            let position = heard(time)
            guard position - lastRead >= 256 else { continue }
            lastRead = position
            if watch.observe(time: time, written: UInt64(position + 1024), delay: 1024, recoveries: recoveries(time)) {
                count += 1
            }
        }
        return count
    }

    @Test func steadyStreamHasNoDropout() {
        #expect(dropouts(seconds: 10) { Int($0 * 48_000) } == 0)
    }

    @Test func granularityOfOneServerCycleIsNotADropout() {
        // The device takes 1024 frames at a time (a PipeWire quantum): position moves in steps.
        #expect(dropouts(seconds: 10) { Int($0 * 48_000) / 1024 * 1024 } == 0)
    }

    @Test(arguments: [-500.0, 500.0])
    func clockDriftIsNotADropout(ppm: Double) {
        #expect(dropouts(seconds: 120) { Int($0 * 48_000 * (1 + ppm / 1e6)) } == 0)
    }

    @Test func serverHoldingANewStreamBackIsNotADropout() {
        // PulseAudio may take nothing for up to 2 s after a stream starts.
        #expect(dropouts(seconds: 5) { $0 < 2 ? 0 : Int(($0 - 2) * 48_000) } == 0)
    }

    @Test func freezeOfAThirdOfASecondIsOneDropout() {
        #expect(dropouts(seconds: 5) { t in Int(min(t, 1) * 48_000 + max(0, t - 1.3) * 48_000) } == 1)
    }

    @Test func twoFreezesAreTwoDropouts() {
        let count = dropouts(seconds: 6) { t in
            let lost = (t > 1 ? min(t - 1, 0.1) : 0) + (t > 3 ? min(t - 3, 0.1) : 0)
            return Int((t - lost) * 48_000)
        }
        #expect(count == 2)
    }

    @Test func freezeShorterThanTheThresholdIsNotCounted() {
        // 30 ms < max(two buffers of 1024 frames = 43 ms, 20 ms).
        #expect(dropouts(seconds: 3) { t in Int((t - (t > 1 ? min(t - 1, 0.03) : 0)) * 48_000) } == 0)
    }

    @Test func delayStepOfOneBufferIsNotADropout() {
        // PulseAudio raising its latency: the delay grows by a buffer at once, nothing is lost.
        var watch = DropoutWatch(rate: 48_000, bufferFrames: 1024)
        var count = 0
        for period in 0..<400 {
            let time = Double(period) * 256 / 48_000
            let delay = period < 200 ? 1024 : 2048
            if watch.observe(time: time, written: UInt64(period * 256 + 1024), delay: delay, recoveries: 0) { count += 1 }
        }
        #expect(count == 0)
    }

    @Test func recoveryRestartsTheBaseline() {
        // An xrun the plugin reported (recoveries 0 → 1) while the position stalled: not counted again.
        let count = dropouts(seconds: 5, recoveries: { $0 >= 1.3 ? 1 : 0 }) { t in
            Int(min(t, 1) * 48_000 + max(0, t - 1.3) * 48_000)
        }
        #expect(count == 0)
    }

    @Test func spinGuardNeedsEightEmptyWakeUpsInARow() {
        var guardian = SpinGuard()
        for _ in 1..<SpinGuard.spinThreshold { #expect(guardian.emptyWakeUp() == (false, false)) }
        #expect(guardian.emptyWakeUp() == (true, true))
        #expect(guardian.emptyWakeUp() == (true, false))
        guardian.progress()
        #expect(guardian.emptyWakeUp() == (false, false))
    }
}
