import FoundationStandIns
import Synchronization
import Thrum

/// One event onset of a ``LiveEngine``'s player, as the doors report it as it happens (libthrum's
/// `thrum_onset`, Python's `on_onset`).
package struct LiveOnset: Sendable {
    /// The player's number on its engine, from 1 in the order the engine made them (``LivePlayer/id``).
    package var player: Int
    /// The player's label (``LivePlayer/label``), or nil.
    package var label: String?
    /// The name of the pattern the player plays.
    package var pattern: String?
    /// The event's index among its pattern's events, in file order from 0, and its AHAP type.
    package var event: Int
    package var type: String
    /// The stream frame it was rendered on, and that frame's engine time (seconds).
    package var frame: UInt64
    package var engineTime: Double
    /// The estimated CLOCK_MONOTONIC time (seconds) the frame left the DAC; nil when unknown.
    package var dacTime: Double?
    /// The event's time in its pattern (seconds), the instance (each start plays a new one) and the loop
    /// passes completed before it.
    package var patternTime: Double
    package var instance: Int
    package var loop: Int
}

/// The onsets of one ``LiveEngine``: numbers its players from 1, keeps their labels, and passes each onset to
/// the onset log and to the handler the caller set, on the engine's onset thread (never the render thread).
/// - Important: Thread safety: any thread (a mutex guards the players and the handler).
package final class LiveOnsets: Sendable {
    private struct Player {
        var number: Int
        var pattern: String
        var label: String?
    }
    private struct State {
        /// By the process-wide player number (`ThrumOnset.playerID`).
        var players: [Int: Player] = [:]
        var count = 0
        var handler: (@Sendable (LiveOnset) -> Void)?
    }
    private let state = Locked(State())
    let log: OnsetLog?

    init(log: OnsetLog?) { self.log = log }

    /// Numbers the player whose process-wide number is `playerID` (nil: a player not reported): the next
    /// number on this engine, from 1.
    func register(playerID: Int?, pattern: String) -> Int {
        state.withLock { state in
            state.count += 1
            if let playerID { state.players[playerID] = Player(number: state.count, pattern: pattern) }
            return state.count
        }
    }

    /// Labels the player numbered `number` on this engine (nil: no label), for the onsets from now on.
    func label(_ number: Int, _ label: String?) {
        state.withLock { state in
            guard let key = state.players.first(where: { $0.value.number == number })?.key else { return }
            state.players[key]?.label = label
        }
    }

    /// Sets (nil: removes) the handler each onset is passed to from now on.
    func setHandler(_ handler: (@Sendable (LiveOnset) -> Void)?) { state.withLock { $0.handler = handler } }

    /// The engine's `onsetHandler`: logs `onset` under the player's number and label, then calls the handler.
    func deliver(_ onset: ThrumOnset) {
        let (player, handler) = state.withLock { ($0.players[onset.playerID], $0.handler) }
        var numbered = onset
        numbered.playerID = player?.number ?? 0
        log?.record(numbered, pattern: player?.pattern, label: player?.label)
        handler?(
            LiveOnset(
                player: numbered.playerID, label: player?.label, pattern: player?.pattern, event: onset.eventIndex,
                type: onset.eventType.rawValue, frame: onset.streamFrame, engineTime: onset.engineTime, dacTime: onset.dacTime,
                patternTime: onset.patternTime, instance: Int(onset.instance), loop: onset.loopPass))
    }
}
