internal import ALSAOutput
internal import Dispatch
import FoundationEssentials
import FoundationStandIns
internal import RenderCore
internal import Synchronization

/// One event onset as the engine played it (a Thrum addition; `CHHapticEngine.Options.onsetHandler`).
///
/// Times: `patternTime` is the event's place in its pattern file; `engineTime` is the engine clock
/// (`currentTime`, `start(atTime:)`) of the frame it was rendered on, exactly `streamFrame ÷ sampleRate`;
/// `dacTime` is when that frame left the DAC, on CLOCK_MONOTONIC (`ThrumClock.monotonicNow()`), estimated
/// from ALSA's status timestamps (see docs/timing.md for how, and its measured accuracy).
/// - Important: Thread safety: any thread (a value).
public struct ThrumOnset: Sendable, Hashable {
    /// The event's time in its pattern, seconds from the pattern start, as written in the file (playback
    /// rate, seek and loop passes do not change it).
    public var patternTime: TimeInterval
    /// The stream frame the onset was rendered on: frames since the engine started (0 = the stream's first).
    public var streamFrame: UInt64
    /// The engine time of `streamFrame` in seconds (`streamFrame ÷ sampleRate`).
    public var engineTime: TimeInterval
    /// The estimated CLOCK_MONOTONIC time, in seconds, at which `streamFrame` left the DAC; nil offline.
    public var dacTime: Double?
    /// The player that played it (`ThrumPlayerState.playerID`); 0 for a player that was let go of.
    public var playerID: Int
    /// The instance: each `start` of a player plays a new one, numbered from 1 on the engine's device.
    public var instance: UInt32
    /// The event's index among its pattern's events, in file order from 0.
    public var eventIndex: Int
    /// The event's type.
    public var eventType: CHHapticEvent.EventType
    /// Loop passes the instance had completed before this onset (0 on the first pass).
    public var loopPass: Int
}

/// CLOCK_MONOTONIC, the clock of `ThrumOnset.dacTime` and `thrum play --start-at` (a Thrum addition).
public enum ThrumClock {
    /// CLOCK_MONOTONIC now, in seconds (`clock_gettime`; `time.monotonic()` in Python reads the same clock).
    /// - Important: Thread safety: any thread. Real-time safe: yes.
    public static func monotonicNow() -> Double { monotonicSeconds() }
}

/// Takes the renderer's onset reports off the render side and calls `Options.onsetHandler` with each, in
/// order, on a thread of its own (live) or on the `renderOffline` caller's thread (offline).
///
/// Live, an onset is held until the DAC clock says its frame has left the DAC (its time is then
/// interpolated between readings, not extrapolated; before the first reading of a start nothing has, so
/// the first onsets wait for the stream to run); when the run ends, the rest are delivered with the
/// last estimate, except those the device never played (a stop without draining drops the buffer). A
/// device that never reports a running stream (ALSA's `null`) gets its onsets once written, with no DAC time
/// (``ALSAPlayback/framesKnownPlayed``).
/// Which player an instance belongs to is recorded at its start (`instanceStarted`) and forgotten once its
/// end is known and its onsets are taken (`instanceEnded`).
/// - Important: Thread safety: any thread; the delivery thread alone pops the ring (offline: the caller of
///   `deliverOffline`, one at a time).
final class OnsetDelivery: @unchecked Sendable {
    // @unchecked: `pending` is touched by the delivery thread only (or by `finish` after it has exited);
    // the table is behind its lock.
    private let reports: OnsetReports
    private let handler: @Sendable (ThrumOnset) -> Void
    private let sampleRate: Double
    private let playback: ALSAPlayback?
    private struct Table {
        var players: [UInt32: Int] = [:]
        var ended: [UInt32] = []
    }
    private let table = Locked(Table())
    private var pending: [ThrumOnset] = []
    private let running = Atomic<Bool>(false)
    private let exited = DispatchSemaphore(value: 0)
    private let threadID = Atomic<UInt>(0)

    init(reports: OnsetReports, handler: @escaping @Sendable (ThrumOnset) -> Void, sampleRate: Double, playback: ALSAPlayback?) {
        self.reports = reports
        self.handler = handler
        self.sampleRate = sampleRate
        self.playback = playback
    }

    /// Onsets the render side could not report because `Options.maxPendingOnsets` were waiting.
    var lostCount: Int { reports.lostCount }

    /// Records that the instance with `generation` plays for the player numbered `playerID`. Call before
    /// its start command is queued.
    func instanceStarted(_ generation: UInt32, playerID: Int) {
        table.withLock { $0.players[generation] = playerID }
    }

    /// The instance has ended: its entry goes once the onsets reported so far are taken.
    func instanceEnded(_ generation: UInt32) {
        table.withLock { $0.ended.append(generation) }
    }

    // MARK: Live

    /// Starts the delivery thread (live runs): every 2 ms it takes the new reports and delivers those whose
    /// frames have left the DAC.
    func startThread() {
        running.store(true, ordering: .releasing)
        Threads.detach { [self] in
            threadID.store(UInt(pthread_self()), ordering: .releasing)
            while running.load(ordering: .acquiring) {
                take()
                deliver(playedUntil: playback?.framesKnownPlayed ?? 0)
                Threads.sleep(seconds: 0.002)
            }
            exited.signal()
        }
    }

    /// Ends delivery after the device stopped: waits for the thread, then delivers every onset the device
    /// played (all of them after a drain; else those that were due to leave the DAC before `stopTime`,
    /// CLOCK_MONOTONIC seconds). From a handler (the delivery thread itself) it does not wait.
    func finish(drained: Bool, stopTime: Double) {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        if threadID.load(ordering: .acquiring) == UInt(pthread_self()) { return }
        exited.wait()
        take()
        guard let estimate = playback?.dacTimeEstimate else {
            deliver(playedUntil: drained ? .max : playback?.framesKnownPlayed ?? 0)
            return
        }
        let played = drained ? UInt64.max : UInt64(max(0, estimate.frame(atTime: stopTime).rounded(.down)))
        deliver(playedUntil: played)
    }

    // MARK: Offline

    /// Offline: delivers every onset reported so far, with no DAC time, on the caller's thread.
    func deliverOffline() {
        take()
        deliver(playedUntil: .max)
    }

    // MARK: Taking and delivering

    /// Pops every report into `pending`, resolving its player; then forgets the instances that had ended
    /// before (all their onsets were pushed before their end was reported, so they are taken by now).
    private func take() {
        let ended = table.withLock { table -> [UInt32] in
            defer { table.ended = [] }
            return table.ended
        }
        var players = table.withLock { $0.players }
        while let onset = reports.pop() {
            let generation = onset.instance.generation
            if players[generation] == nil { players = table.withLock { $0.players } }
            pending.append(
                ThrumOnset(
                    patternTime: onset.patternTime, streamFrame: onset.frame,
                    engineTime: Double(onset.frame) / sampleRate, dacTime: nil,
                    playerID: players[generation] ?? 0, instance: generation, eventIndex: onset.eventIndex,
                    eventType: onset.kind.eventType, loopPass: onset.loopPass))
        }
        if !ended.isEmpty { table.withLock { table in for generation in ended { table.players[generation] = nil } } }
    }

    /// Delivers the pending onsets with frames before `playedUntil`, in order, with their DAC times.
    private func deliver(playedUntil: UInt64) {
        guard !pending.isEmpty else { return }
        let estimate = playback?.dacTimeEstimate
        var delivered = 0
        for var onset in pending {
            guard onset.streamFrame < playedUntil else { break }
            onset.dacTime = estimate?.time(ofFrame: onset.streamFrame)
            handler(onset)
            delivered += 1
        }
        pending.removeFirst(delivered)
    }
}

extension VoiceKind {
    /// The Core Haptics event type that starts this kind of voice.
    var eventType: CHHapticEvent.EventType {
        switch self {
        case .transient: .hapticTransient
        case .hapticContinuous, .hapticSignal: .hapticContinuous
        case .audioContinuous: .audioContinuous
        case .audioCustom: .audioCustom
        }
    }
}
