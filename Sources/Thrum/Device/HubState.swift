internal import RenderCore

/// One pattern instance occupying a renderer slot. Holds the compiled pattern until the render thread
/// reports the instance's end (the render thread has only an unmanaged reference and a view of its
/// storage), so the pattern is released here, on the control side, never on the render thread.
/// The player is held weakly: players hold their engine, so a strong one would keep an engine whose app
/// let go of it (and its render thread) alive for as long as an instance plays, forever for a loop. An
/// engine that stops while others of its device go on lets go of its instances' players (nil) at once.
struct SlotUse {
    weak var player: HapticPatternPlayer?
    let pattern: CompiledPattern
    let instance: InstanceID
    /// The engine that started the instance.
    let engine: ObjectIdentifier
}

/// An engine of the hub, held weakly (engines hold their hub).
struct EngineReference {
    weak var engine: CHHapticEngine?
    let id: ObjectIdentifier
}

/// The hub's control-side state, behind its lock.
struct HubState {
    var run: EngineRun?
    var slots: [SlotUse?]
    /// The generation of the last instance started (each start takes the next).
    var nextGeneration: UInt32 = 0
    /// Parameter and transport calls queued in this run (see `DeviceHub.send`).
    var sentParameterCalls = 0
    var sentCommandCalls = 0
    /// The engines running on `run`, and what each one mutes (`isMutedForHaptics`, `isMutedForAudio`).
    var engines: [EngineReference] = []
    var mutes: [ObjectIdentifier: PlayerMute] = [:]

    init(maxPlayers: Int) {
        slots = Array(repeating: nil, count: maxPlayers)
    }
}
