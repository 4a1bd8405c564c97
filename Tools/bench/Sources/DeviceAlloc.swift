import ALSAOutput
import CMallocCounter
import Foundation
import Glibc
import Synchronization

// MARK: - Allocations on the ALSA playback thread

/// A ramp source that switches the allocation counter on for its thread (the ALSA playback thread) after
/// `warmUp` periods and off again `counted` periods later, so the loop, the format conversion, the ALSA
/// calls and the waits in between are all counted.
private final class CountingSource: ALSARenderSource {
    /// Set once the counted periods are over.
    final class Done: Sendable {
        let flag = Atomic<Bool>(false)
    }

    let warmUp: Int
    let counted: Int
    let done = Done()
    private var calls = 0

    init(warmUp: Int, counted: Int) {
        self.warmUp = warmUp
        self.counted = counted
    }

    func render(into buffer: UnsafeMutablePointer<Float>, frameCount: Int, channelCount: Int) {
        calls += 1
        if calls == warmUp { thrum_malloc_counter_begin() }
        for i in 0..<(frameCount * channelCount) { buffer[i] = Float((calls * 7 + i) % 64 - 32) / 64 }
        if calls == warmUp + counted {
            thrum_malloc_counter_end()
            done.flag.store(true, ordering: .releasing)
        }
    }
}

/// The simulated card's plugin: `THRUM_SIMCARD_PLUGIN`, else built with Tools/dev/simcard/build.sh.
private func simulatedCardPlugin(repository: URL) throws -> String {
    if let path = ProcessInfo.processInfo.environment["THRUM_SIMCARD_PLUGIN"], !path.isEmpty { return path }
    let built = try run("bash", [repository.appendingPathComponent("Tools/dev/simcard/build.sh").path])
    guard built.status == 0, let path = built.stdout.split(separator: "\n").last.map(String.init) else {
        throw BenchFailure("Tools/dev/simcard/build.sh failed: \(built.stderr)")
    }
    setenv("THRUM_SIMCARD_PLUGIN", path, 1)
    return path
}

/// Heap allocations and frees on the playback thread over `counted` periods, for each access type, on a
/// simulated S24_3LE card with more channels than the source (so conversion and silent channels run),
/// paced by the card's clock (so the waits run too). Returns the totals.
func deviceThreadAllocations(counted: Int) throws -> (allocations: Int, frees: Int, periods: Int) {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    let plugin = try simulatedCardPlugin(repository: repository)
    let text = """
        pcm_type.simcard { lib "\(plugin)" }
        pcm.card {
            type simcard
            formats [ S24_3LE ]
            channels 4
            access [ RW_INTERLEAVED MMAP_INTERLEAVED RW_NONINTERLEAVED MMAP_NONINTERLEAVED ]
        }
        """
    var allocations = 0
    var frees = 0
    for access in ALSAAccess.allCases {
        progress("alloc: ALSA playback thread, \(access), \(counted) periods")
        let playback = try ALSAPlayback(
            configuration: ALSADeviceConfiguration(
                source: .configuration(text: text, pcmName: "card"), sampleRate: 48_000, channels: 3, periodFrames: 64,
                periodCount: 4, preferredAccess: access, realtimePriority: 70, lockMemory: false))
        let source = CountingSource(warmUp: 50, counted: counted)
        let done = source.done
        thrum_malloc_counter_reset()
        try playback.start(source: source)
        let deadline = nowNanos() + 30_000_000_000
        while !done.flag.load(ordering: .acquiring) && nowNanos() < deadline && playback.state == .running { usleep(10_000) }
        playback.stop()
        playback.close()
        guard done.flag.load(ordering: .acquiring) else {
            throw BenchFailure("the playback thread did not finish its counted periods (\(access))")
        }
        allocations += thrum_malloc_counter_allocations()
        frees += thrum_malloc_counter_frees()
    }
    return (allocations, frees, counted * ALSAAccess.allCases.count)
}
