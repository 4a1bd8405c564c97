internal import RenderCore
internal import Synchronization

/// A player setting that applies to its instances as a latest value: `isMuted`, `playbackRate` and the
/// loop (`loopEnabled`, `loopEnd`), and the stop of an engine that leaves a shared device. Property setters cannot throw, so these never go through the command
/// ring (which can be full): each slot has one cell per setting that the control side overwrites and the
/// render thread reads once per period.
enum InstanceSetting: Int {
    /// What is muted: a `PlayerMute` raw value (the player's mute and its engine's).
    case muted
    /// The playback rate, as the bit pattern of a `Double` (> 0).
    case rate
    /// The loop end in pattern seconds as the bit pattern of a `Double` (−1 = no loop).
    case loopEnd
    /// 1 = stop now: the instance's engine stopped while other engines of its device go on (a stop that
    /// must not fail for want of room in the command ring).
    case stopped

    /// Number of settings (cells per slot).
    static let count = 4
}

/// One write read from a cell: the instance it addresses, its value and its tag.
struct SettingWrite {
    let instance: InstanceID
    let value: UInt64
    let tag: UInt64
}

/// One cell: a value and the tag of the write that set it (a sequence lock with one writer).
/// Tag: instance generation << 32 | write count << 1 | 1 while a write is under way.
struct SettingCell: ~Copyable {
    let tag = Atomic<UInt64>(0)
    let value = Atomic<UInt64>(0)
}

/// The latest setting values of every slot's instance (`InstanceSetting.count` cells per slot).
///
/// The control side writes (one writer at a time: the engine lock); the render thread reads without
/// waiting: a read that meets a write under way returns nothing and the change is taken at the next period.
/// - Important: Thread safety: `write` from one thread at a time, `read` from the render thread only.
///   Real-time safe: `read` and `write` (atomics only); `init`/`deinit` no.
final class InstanceSettings: @unchecked Sendable {
    // @unchecked: `cells` is allocated once in init and only ever accessed through its atomics.
    let slotCount: Int
    private let cells: UnsafeMutablePointer<SettingCell>

    init(slots: Int) {
        slotCount = slots
        let count = slots * InstanceSetting.count
        cells = .allocate(capacity: max(count, 1))
        for i in 0..<count { (cells + i).initialize(to: SettingCell()) }
    }

    deinit {
        cells.deinitialize(count: slotCount * InstanceSetting.count)
        cells.deallocate()
    }

    private func cell(_ slot: Int, _ setting: InstanceSetting) -> UnsafeMutablePointer<SettingCell> {
        cells + slot * InstanceSetting.count + setting.rawValue
    }

    /// Sets `setting` of `instance` to `value`. Control side, one writer at a time.
    func write(_ instance: InstanceID, _ setting: InstanceSetting, _ value: UInt64) {
        let cell = cell(instance.slot, setting)
        let count = ((cell.pointee.tag.load(ordering: .relaxed) >> 1) &+ 1) & 0x7FFF_FFFF
        let tag = UInt64(instance.generation) << 32 | count << 1
        cell.pointee.tag.store(tag | 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        cell.pointee.value.store(value, ordering: .relaxed)
        cell.pointee.tag.store(tag, ordering: .releasing)
    }

    /// The slot's latest write of `setting` when its tag differs from `seen`: the instance it was written
    /// for, the value and the write's tag (which the caller stores as seen once it has used the write).
    /// Nil when unchanged or a write is under way. Render thread only.
    @inline(__always)
    func read(_ slot: Int, _ setting: InstanceSetting, seen: UInt64) -> SettingWrite? {
        let cell = cell(slot, setting)
        let before = cell.pointee.tag.load(ordering: .acquiring)
        guard before != seen, before & 1 == 0 else { return nil }
        let value = cell.pointee.value.load(ordering: .relaxed)
        atomicMemoryFence(ordering: .acquiring)
        guard cell.pointee.tag.load(ordering: .relaxed) == before else { return nil }
        return SettingWrite(
            instance: InstanceID(slot: slot, generation: UInt32(truncatingIfNeeded: before >> 32)), value: value, tag: before)
    }
}
