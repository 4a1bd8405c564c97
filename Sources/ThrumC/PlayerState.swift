// The player's state read back (thrum.h, "Player state"): what thrum_player_set_loop, _set_rate and
// _set_muted last set, so that bindings keep no copies of their own.
import ThrumServices

@_cdecl("thrum_player_loop")
public func thrum_player_loop(
    _ player: OpaquePointer?, _ loopEnd: UnsafeMutablePointer<Double>?, _ passes: UnsafeMutablePointer<Int32>?
) -> Int32 {
    guard let player else { return -1 }
    let live = object(player, as: LivePlayer.self)
    loopEnd?.pointee = live.loopEnd
    passes?.pointee = Int32(clamping: live.loopPasses)
    return live.isLooping ? 1 : 0
}

@_cdecl("thrum_player_rate")
public func thrum_player_rate(_ player: OpaquePointer?) -> Double {
    guard let player else { return -1 }
    return object(player, as: LivePlayer.self).rate
}

@_cdecl("thrum_player_muted")
public func thrum_player_muted(_ player: OpaquePointer?) -> Int32 {
    guard let player else { return -1 }
    return object(player, as: LivePlayer.self).isMuted ? 1 : 0
}
