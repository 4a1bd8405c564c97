import CThrumABI
import ThrumServices

// Onsets as they happen (include/thrum.h, issue 40): the engine's onset handler, player numbers and labels.

/// `void (*)(void *context, const thrum_onset *onset)`.
public typealias OnsetFunction = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<thrum_onset>?) -> Void

/// The caller's context pointer, handed back on the engine's onset thread as the header documents.
private struct OnsetContext: @unchecked Sendable { let pointer: UnsafeMutableRawPointer? }

@_cdecl("thrum_engine_set_onset_handler")
public func thrum_engine_set_onset_handler(
    _ engine: OpaquePointer?, _ function: OnsetFunction?, _ context: UnsafeMutableRawPointer?
) {
    guard let engine else { return }
    let live = object(engine, as: LiveEngine.self)
    guard let function else { return live.setOnsetHandler(nil) }
    let context = OnsetContext(pointer: context)
    live.setOnsetHandler { onset in
        withOptionalCString(onset.label) { label in
            withOptionalCString(onset.pattern) { pattern in
                onset.type.withCString { type in
                    var record = thrum_onset(
                        struct_size: MemoryLayout<thrum_onset>.stride, player: Int64(onset.player), label: label,
                        pattern: pattern, event: Int64(onset.event), type: type, frame: Int64(onset.frame),
                        engine_time: onset.engineTime, dac_time: onset.dacTime ?? .nan, pattern_time: onset.patternTime,
                        instance: Int64(onset.instance), loop: Int64(onset.loop))
                    function(context.pointer, &record)
                }
            }
        }
    }
}

/// Runs `body` with `text` as a C string, or NULL.
private func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString(body)
}

@_cdecl("thrum_player_id")
public func thrum_player_id(_ player: OpaquePointer?) -> Int64 {
    player.map { Int64(object($0, as: LivePlayer.self).id) } ?? -1
}

@_cdecl("thrum_player_set_label")
public func thrum_player_set_label(_ player: OpaquePointer?, _ label: UnsafePointer<CChar>?) {
    guard let player else { return }
    object(player, as: LivePlayer.self).setLabel(label.map(string))
}
