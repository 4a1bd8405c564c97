import CThrumABI
import FoundationEssentials
import ThrumServices

// The live engine and its players (include/thrum.h).

@_cdecl("thrum_engine_open")
public func thrum_engine_open(_ options: UnsafePointer<thrum_device_options>?, _ error: ErrorOut) -> OpaquePointer? {
    reporting(error, fallback: { _ in nil }) {
        let (output, onsetLog) = try deviceRequest(options)
        return handle(try LiveEngine(output, onsetLog: onsetLog))
    }
}

@_cdecl("thrum_engine_time")
public func thrum_engine_time(_ engine: OpaquePointer?) -> Double {
    engine.map { object($0, as: LiveEngine.self).currentTime } ?? -1
}

@_cdecl("thrum_engine_sample_rate")
public func thrum_engine_sample_rate(_ engine: OpaquePointer?) -> Double {
    engine.map { object($0, as: LiveEngine.self).sampleRate } ?? -1
}

@_cdecl("thrum_engine_channels")
public func thrum_engine_channels(_ engine: OpaquePointer?) -> Int32 {
    engine.map { Int32(object($0, as: LiveEngine.self).channelCount) } ?? -1
}

@_cdecl("thrum_engine_xruns")
public func thrum_engine_xruns(_ engine: OpaquePointer?) -> UInt64 {
    engine.map { object($0, as: LiveEngine.self).xruns } ?? 0
}

@_cdecl("thrum_engine_output_time")
public func thrum_engine_output_time(_ engine: OpaquePointer?, _ engineTime: Double) -> Double {
    engine.flatMap { object($0, as: LiveEngine.self).outputTime(forEngineTime: engineTime) } ?? -1
}

@_cdecl("thrum_engine_latency")
public func thrum_engine_latency(_ engine: OpaquePointer?) -> Double {
    engine.flatMap { object($0, as: LiveEngine.self).outputLatency } ?? -1
}

@_cdecl("thrum_devices")
public func thrum_devices(_ devices: ErrorOut, _ error: ErrorOut) -> Int32 {
    clear(devices)
    return status(error) {
        // One line each: name, 1 for the default device (else 0), description; tabs and line breaks in a
        // description become spaces so that the fields stay apart.
        let lines = PlaybackDevices.list().map { device in
            let description = String(device.description.map { $0 == "\t" || $0.isNewline ? " " : $0 })
            return "\(device.name)\t\(device.isDefault ? 1 : 0)\t\(description)"
        }
        store(lines, into: devices)
    }
}

@_cdecl("thrum_monotonic_now")
public func thrum_monotonic_now() -> Double { StartTiming.monotonicNow() }

@_cdecl("thrum_engine_finish")
public func thrum_engine_finish(_ engine: OpaquePointer?, _ error: ErrorOut) -> Int32 {
    status(error) {
        guard let engine else { throw nullHandle("engine") }
        try object(engine, as: LiveEngine.self).close()
    }
}

@_cdecl("thrum_engine_close")
public func thrum_engine_close(_ engine: OpaquePointer?) {
    guard let engine else { return }
    // The header's contract: close never fails; thrum_engine_finish first reports an onset log's failure.
    try? object(engine, as: LiveEngine.self).close()
    release(engine, as: LiveEngine.self)
}

@_cdecl("thrum_player_new")
public func thrum_player_new(
    _ engine: OpaquePointer?, _ pattern: OpaquePointer?, _ actuator: UnsafePointer<CChar>?, _ error: ErrorOut
) -> OpaquePointer? {
    reporting(error, fallback: { _ in nil }) {
        guard let engine else { throw nullHandle("engine") }
        guard let pattern else { throw nullHandle("pattern") }
        let live = object(engine, as: LiveEngine.self)
        return handle(try live.player(object(pattern, as: PatternHandle.self).pattern, actuator: actuator.map(string)))
    }
}

/// Runs `body` on the player behind `player`, for a call that returns a status.
private func withPlayer(_ player: OpaquePointer?, _ error: ErrorOut, _ body: (LivePlayer) throws -> Void) -> Int32 {
    status(error) {
        guard let player else { throw nullHandle("player") }
        try body(object(player))
    }
}

@_cdecl("thrum_player_start")
public func thrum_player_start(_ player: OpaquePointer?, _ at: Double, _ error: ErrorOut) -> Int32 {
    withPlayer(player, error) { try $0.start(at: at) }
}

@_cdecl("thrum_player_start_late")
public func thrum_player_start_late(_ player: OpaquePointer?, _ at: Double, _ error: ErrorOut) -> Int32 {
    withPlayer(player, error) { try $0.start(at: at, late: true) }
}

@_cdecl("thrum_player_start_at_monotonic")
public func thrum_player_start_at_monotonic(_ player: OpaquePointer?, _ monotonicTime: Double, _ error: ErrorOut) -> Int32 {
    withPlayer(player, error) { try $0.start(atMonotonicTime: monotonicTime) }
}

@_cdecl("thrum_player_stop")
public func thrum_player_stop(_ player: OpaquePointer?, _ at: Double, _ error: ErrorOut) -> Int32 {
    withPlayer(player, error) { try $0.stop(at: at) }
}

@_cdecl("thrum_player_pause")
public func thrum_player_pause(_ player: OpaquePointer?, _ at: Double, _ error: ErrorOut) -> Int32 {
    withPlayer(player, error) { try $0.pause(at: at) }
}

@_cdecl("thrum_player_resume")
public func thrum_player_resume(_ player: OpaquePointer?, _ at: Double, _ error: ErrorOut) -> Int32 {
    withPlayer(player, error) { try $0.resume(at: at) }
}

@_cdecl("thrum_player_seek")
public func thrum_player_seek(_ player: OpaquePointer?, _ offset: Double, _ error: ErrorOut) -> Int32 {
    withPlayer(player, error) { try $0.seek(to: offset) }
}

@_cdecl("thrum_player_set_loop")
public func thrum_player_set_loop(
    _ player: OpaquePointer?, _ enabled: Int32, _ loopEnd: Double, _ passes: Int32, _ error: ErrorOut
) -> Int32 {
    withPlayer(player, error) { try $0.setLoop(enabled != 0, end: loopEnd, passes: Int(passes)) }
}

@_cdecl("thrum_player_set_rate")
public func thrum_player_set_rate(_ player: OpaquePointer?, _ rate: Double, _ error: ErrorOut) -> Int32 {
    withPlayer(player, error) { try $0.setRate(rate) }
}

@_cdecl("thrum_player_set_muted")
public func thrum_player_set_muted(_ player: OpaquePointer?, _ muted: Int32) {
    guard let player else { return }
    object(player, as: LivePlayer.self).isMuted = muted != 0
}

@_cdecl("thrum_player_position")
public func thrum_player_position(_ player: OpaquePointer?) -> Double {
    guard let player else { return -1 }
    return object(player, as: LivePlayer.self).position ?? -1
}

@_cdecl("thrum_player_send_parameter")
public func thrum_player_send_parameter(
    _ player: OpaquePointer?, _ parameter: UnsafePointer<CChar>?, _ value: Float, _ at: Double, _ error: ErrorOut
) -> Int32 {
    withPlayer(player, error) { player in
        guard let parameter else { throw nullHandle("parameter") }
        try player.send(string(parameter), value: value, at: at)
    }
}

@_cdecl("thrum_player_schedule_curve")
public func thrum_player_schedule_curve(
    _ player: OpaquePointer?, _ parameter: UnsafePointer<CChar>?, _ times: UnsafePointer<Double>?,
    _ values: UnsafePointer<Float>?, _ count: Int, _ at: Double, _ error: ErrorOut
) -> Int32 {
    withPlayer(player, error) { player in
        guard let parameter else { throw nullHandle("parameter") }
        guard count > 0, let times, let values else {
            throw ServiceError.usage("a parameter curve needs at least one point")
        }
        let points = (0..<count).map { (time: times[$0], value: values[$0]) }
        try player.scheduleCurve(string(parameter), points: points, at: at)
    }
}

/// `void (*)(void *context, int status, const char *message)`.
public typealias CompletionFunction = @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?) -> Void

/// The caller's context pointer, handed back on another thread as the header documents.
private struct Context: @unchecked Sendable { let pointer: UnsafeMutableRawPointer? }

@_cdecl("thrum_player_set_completion")
public func thrum_player_set_completion(
    _ player: OpaquePointer?, _ function: CompletionFunction?, _ context: UnsafeMutableRawPointer?
) {
    guard let player else { return }
    guard let function else {
        object(player, as: LivePlayer.self).onCompletion(nil)
        return
    }
    let context = Context(pointer: context)
    object(player, as: LivePlayer.self).onCompletion { failure in
        guard let failure else { return function(context.pointer, 0, nil) }
        failure.message.withCString { function(context.pointer, failure.status.rawValue, $0) }
    }
}

@_cdecl("thrum_player_free")
public func thrum_player_free(_ player: OpaquePointer?) {
    guard let player else { return }
    object(player, as: LivePlayer.self).closeCompletions()
    release(player, as: LivePlayer.self)
}
