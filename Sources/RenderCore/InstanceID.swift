/// One instance of a player in a `Renderer`: the slot it occupies and which start of that slot it is.
///
/// Every command names the instance it is for. The control side picks a new generation for each start;
/// the renderer applies a command only to the instance with the same slot and generation, so a command
/// for an instance that has ended is dropped and never reaches the next instance in its slot.
/// - Important: Thread safety: any thread (a value). Real-time safe: yes.
package struct InstanceID: Sendable, Hashable, BitwiseCopyable {
    /// Player slot, 0 ..< `RendererConfiguration.maxPlayers`.
    package var slot: Int
    /// Which start of the slot; chosen by the caller of `startPlayer`, different from the slot's previous one.
    package var generation: UInt32

    /// The instance `generation` in `slot`.
    package init(slot: Int, generation: UInt32) {
        self.slot = slot
        self.generation = generation
    }
}
