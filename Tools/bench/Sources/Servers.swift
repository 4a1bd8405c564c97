import Foundation
import Glibc

// MARK: - CPU per second of audio on a sound server (PipeWire)

/// User + system CPU seconds of the children reaped so far (`RUSAGE_CHILDREN`).
func childrenCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
        + Double(usage.ru_stime.tv_usec) / 1e6
}

/// Runs a program to completion and returns its result with the CPU seconds it used.
func runMeasuringCPU(_ name: String, _ arguments: [String]) throws -> (result: ProcessResult, cpu: Double) {
    let before = childrenCPUSeconds()
    let result = try run(name, arguments)
    return (result, childrenCPUSeconds() - before)
}

/// Whether the private PipeWire of Tools/pipewire-null-sink.sh is up (ALSA device `pipewire` reachable).
func pipeWireAvailable() -> Bool {
    ProcessInfo.processInfo.environment["THRUM_PIPEWIRE_TESTS"] == "1"
}

/// `thrum play` and `aplay` playing the same 10 s through ALSA's `pipewire` device at 256 × 4: CPU time
/// (user + system, whole process) per second of audio.
func benchServerCPU() throws {
    let command = "`thrum-bench server-cpu`"
    let figure = "CPU per second of audio through ALSA `pipewire` (PipeWire 0.3.65 null sink), period 256 × 4: Thrum vs aplay"
    guard pipeWireAvailable() else {
        emit(Row(figure: figure, value: "skipped: no private PipeWire (Tools/pipewire-null-sink.sh)", target: "≤ 3× aplay", command: command))
        return
    }
    guard let thrum = thrumExecutable() else {
        throw BenchFailure("`thrum` not found next to thrum-bench; build it (swift build -c release --product thrum)")
    }
    let seconds = 10
    let dir = try TempDir("server-cpu")
    defer { dir.cleanup() }
    let wav = dir.path("pattern.wav")
    let common = ["textured-drag", "--duration", "\(seconds)", "--channels", "L+H,R+H"]
    let rendered = try run(thrum, ["render"] + common + ["-o", wav])
    guard rendered.status == 0 else { throw BenchFailure("thrum render failed: \(rendered.stderr)") }

    progress("server-cpu: aplay")
    let aplay = try runMeasuringCPU("aplay", ["-q", "-D", "pipewire", "--period-size=256", "--buffer-size=1024", wav])
    guard aplay.result.status == 0 else { throw BenchFailure("aplay failed: \(aplay.result.stderr)") }
    progress("server-cpu: thrum play")
    let play = try runMeasuringCPU(thrum, ["play"] + common + ["--device", "pipewire", "--period", "256", "--periods", "4"])
    guard play.result.status == 0 else { throw BenchFailure("thrum play failed: \(play.result.stderr)") }

    let thrumPerSecond = play.cpu / Double(seconds)
    let aplayPerSecond = aplay.cpu / Double(seconds)
    let ratio = aplayPerSecond > 0 ? " (\(fmt(thrumPerSecond / aplayPerSecond, 1))×)" : ""
    emit(
        Row(
            figure: figure,
            value: "\(fmt(thrumPerSecond * 1000, 1)) ms vs \(fmt(aplayPerSecond * 1000, 1)) ms\(ratio)",
            target: "≤ 3× aplay", command: command))
    note("server-cpu: user + system CPU of the whole process (getrusage of the reaped child) over a \(seconds) s pattern, `thrum play` including start-up and its housekeeping thread; aplay plays the same samples rendered by `thrum render`")
}
