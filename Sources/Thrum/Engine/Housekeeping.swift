internal import ALSAOutput
import FoundationEssentials
import FoundationStandIns
internal import RenderCore
internal import Synchronization

// The control side's answer to the render thread: ended instances free their slots (and release their
// patterns, here, never on the render thread; `DeviceHub.service`), completion and finished handlers run,
// auto-shutdown applies (each engine's, here). Live, a housekeeping thread per run sleeps until the render
// thread signals an end (or the idle deadline of auto-shutdown comes): an idle engine never wakes it.
// Offline, `renderOffline` calls it.

extension CHHapticEngine {
    /// After the hub took the render thread's feedback: calls the finished handlers once no instance of
    /// this engine plays, and applies auto-shutdown. Handlers run here, outside the engine lock.
    /// - Returns: milliseconds until auto-shutdown is due, or −1 when nothing is due without a signal.
    func serviceIdle() -> Int32 {
        var finished = Handed([FinishedHandler]())
        var idle = false
        var wait: Int32 = -1
        state.withLock { state in
            guard state.run != nil else { return }
            if hub.hasInstances(of: self) {
                state.idleSince = nil
                return
            }
            if state.idleSince == nil { state.idleSince = .now }
            if !state.finishedHandlers.isEmpty {
                finished = Handed(state.finishedHandlers)
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
        var stopRequested = false
        for handler in finished.value where handler(nil) == .stopEngine { stopRequested = true }
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
    /// when the run ends) or until auto-shutdown is due; it holds the hub only while servicing.
    func startHousekeeping(hub: DeviceHub) {
        housekeeping.store(true, ordering: .releasing)
        Threads.detach { [weak hub, self] in
            var wait: Int32 = -1
            while true {
                _ = link.wake.wait(timeoutMilliseconds: wait)
                wakeUps.add(1, ordering: .relaxed)
                guard housekeeping.load(ordering: .acquiring), let hub else { return }
                wait = hub.service()
            }
        }
    }
}
