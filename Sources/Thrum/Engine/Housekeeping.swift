internal import ALSAOutput
import Foundation
internal import RenderCore
internal import Synchronization

// The control side's answer to the render thread: ended instances free their slots (and release their
// patterns, here, never on the render thread), completion and finished handlers run, auto-shutdown
// applies. Live, a housekeeping thread sleeps until the render thread signals an end (or the idle
// deadline of auto-shutdown comes): an idle engine never wakes it. Offline, `renderOffline` calls it.

extension CHHapticEngine {
    /// Takes the render thread's feedback, frees the slots of ended instances, calls completion and
    /// finished handlers, and applies auto-shutdown. Runs on the housekeeping thread (live) or after each
    /// offline render; handlers run here, outside the engine lock.
    /// - Returns: milliseconds until auto-shutdown is due (the longest wait before servicing again), or −1
    ///   when nothing is due without a signal.
    @discardableResult
    func service() -> Int32 {
        var ended: [(player: HapticPatternPlayer, frame: UInt64, isLast: Bool)] = []
        var finished: [FinishedHandler] = []
        var idle = false
        var wait: Int32 = -1
        state.withLock { state in
            guard let run = state.run else { return }
            while let feedback = run.link.feedback.pop() {
                let (instance, frame): (InstanceID, UInt64)
                switch feedback {
                case .ended(let id, let endFrame): (instance, frame) = (id, endFrame)
                case .startFailed(let id): (instance, frame) = (id, run.link.statistics.currentFrame)
                }
                guard let use = state.slots[instance.slot], use.instance == instance else { continue }
                state.slots[instance.slot] = nil
                guard let player = use.player else { continue }  // the app let go of it
                let isLast = !state.slots.contains { $0?.player === player }
                ended.append((player, frame, isLast))
            }
            let active = state.slots.contains { $0 != nil }
            if active {
                state.idleSince = nil
                return
            }
            if state.idleSince == nil { state.idleSince = .now }
            if !state.finishedHandlers.isEmpty {
                finished = state.finishedHandlers
                state.finishedHandlers = []
            }
            guard state.isAutoShutdownEnabled, let since = state.idleSince else { return }
            let left = Duration.seconds(options.idleTimeout) - (ContinuousClock.now - since)
            if left <= .zero {
                idle = true
            } else {
                let (seconds, attoseconds) = left.components
                wait = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            }
        }
        for end in ended { end.player.instanceEnded(frame: end.frame, isLast: end.isLast) }
        var stopRequested = false
        for handler in finished where handler(nil) == .stopEngine { stopRequested = true }
        if stopRequested {
            stopEngine(reason: .notifyWhenFinished)
        } else if idle {
            stopEngine(reason: .idleTimeout)
        }
        return wait
    }
}

extension EngineRun {
    /// Starts the control-side thread that services the render thread's feedback while the run lasts. It
    /// sleeps on `link.wake` (signalled when an instance ends, when the idle deadline may have changed and
    /// when the run ends) or until auto-shutdown is due; it holds the engine only while servicing.
    func startHousekeeping(engine: CHHapticEngine) {
        housekeeping.store(true, ordering: .releasing)
        Thread.detachNewThread { [weak engine, self] in
            var wait: Int32 = -1
            while true {
                _ = link.wake.wait(timeoutMilliseconds: wait)
                wakeUps.add(1, ordering: .relaxed)
                guard housekeeping.load(ordering: .acquiring), let engine else { return }
                wait = engine.service()
            }
        }
    }
}
