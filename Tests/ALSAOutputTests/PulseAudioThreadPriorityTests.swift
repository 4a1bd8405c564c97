import Foundation
import Glibc
import FoundationStandIns
import Synchronization
import Testing

@testable import ALSAOutput

/// Whether this process may use SCHED_FIFO (root, or an RLIMIT_RTPRIO allowance): tried on a thread of its own.
private let realtimeAllowed: Bool = {
    let allowed = Locked(false)
    let thread = Thread {
        var parameter = sched_param()
        parameter.sched_priority = 1
        allowed.withLock { $0 = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameter) == 0 }
    }
    thread.start()
    while !thread.isFinished { usleep(1000) }
    return allowed.withLock { $0 }
}()

/// Every thread of this process: its id, its name (`comm`) and its scheduling policy.
private func processThreads() -> [(id: pid_t, name: String, policy: Int32)] {
    let ids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return ids.compactMap { text in
        guard let id = pid_t(text) else { return nil }
        let name = (try? String(contentsOfFile: "/proc/self/task/\(text)/comm", encoding: .utf8)) ?? ""
        return (id, name.trimmingCharacters(in: .whitespacesAndNewlines), sched_getscheduler(id))
    }
}

extension ALSAOutputSuites {
/// The threads ALSA's `pulse` plugin starts while the device opens carry every period to the server: they
/// must run at the render thread's priority, as they do for a program started under `chrt -f` (aplay's
/// do), and the thread that opened the device must get its own scheduling back.
@Suite(
    "ALSAOutput through PulseAudio: plugin threads", .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["THRUM_PULSE_TESTS"] == "1", "needs the PulseAudio null sink"),
    .enabled(if: realtimeAllowed, "needs permission for SCHED_FIFO"))
struct PulseAudioThreadPriorityTests {
    @Test func pluginThreadsRunAtTheRenderPriorityAndTheOpenerGetsItsOwnBack() throws {
        let before = Set(processThreads().map(\.id))
        let openerPolicy = sched_getscheduler(0)
        let playback = try ALSAPlayback(
            configuration: ALSADeviceConfiguration(
                source: .named("pulse"), sampleRate: 48_000, channels: 2, periodFrames: 256, periodCount: 4,
                realtimePriority: 70))
        defer { playback.close() }
        let started = processThreads().filter { !before.contains($0.id) }
        // libpulse's threaded mainloop, which the pulse plugin starts in snd_pcm_open.
        let mainloop = try #require(started.first { $0.name == "threaded-ml" }, "threads started: \(started)")
        #expect(mainloop.policy == SCHED_FIFO)
        var parameter = sched_param()
        #expect(sched_getparam(mainloop.id, &parameter) == 0 && parameter.sched_priority == 70)
        #expect(sched_getscheduler(0) == openerPolicy, "the opening thread's scheduling is restored")
    }
}
}
