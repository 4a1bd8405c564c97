import FoundationStandIns
import FoundationEssentials
internal import RenderCore
internal import Synchronization

// What the render thread reports back (ended and refused instances), taken on the housekeeping thread.
extension DeviceHub {
    /// Takes the render thread's feedback, frees the slots of ended instances and calls their players
    /// (`instanceEnded`), then lets each engine run its finished handlers and auto-shutdown. Runs on the
    /// housekeeping thread (live) or after each offline render, outside every lock while handlers run.
    /// - Returns: milliseconds until the earliest auto-shutdown is due, or −1 when nothing is due without
    ///   a signal.
    @discardableResult
    func service() -> Int32 {
        var ended: [(player: HapticPatternPlayer, frame: UInt64, isLast: Bool, refused: Bool)] = []
        let engines = state.withLock { state -> [CHHapticEngine] in
            guard let run = state.run else { return [] }
            while let feedback = run.link.feedback.pop() {
                let (instance, frame, refused): (InstanceID, UInt64, Bool)
                switch feedback {
                case .ended(let id, let endFrame): (instance, frame, refused) = (id, endFrame, false)
                case .startFailed(let id): (instance, frame, refused) = (id, run.link.statistics.currentFrame, true)
                }
                guard let use = state.slots[instance.slot], use.instance == instance else { continue }
                state.slots[instance.slot] = nil
                run.onsets?.instanceEnded(instance.generation)
                guard let player = use.player else { continue }  // let go of (app or stopped engine)
                let isLast = !state.slots.contains { $0?.player === player }
                ended.append((player, frame, isLast, refused))
            }
            return state.engines.compactMap(\.engine)
        }
        for end in ended {
            let error = end.refused ? CHHapticError(.operationNotPermitted, "the render thread refused the start") : nil
            end.player.instanceEnded(frame: end.frame, isLast: end.isLast, error: error)
        }
        var wait: Int32 = -1
        for engine in engines {
            let due = engine.serviceIdle()
            if due >= 0 { wait = wait < 0 ? due : min(wait, due) }
        }
        return wait
    }
}
