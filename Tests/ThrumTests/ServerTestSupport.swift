import AudioResources
import Foundation
import Testing
import ThrumTestSupport

/// Helpers for the sound-server suites (PipeWire, JACK): child processes measured with `wait4`, renders
/// by `thrum render`, and capture-versus-render comparison.

/// The `thrum` executable built beside the test bundle.
let thrumTool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("thrum").path

/// A child process started with `posix_spawn`, so its exit status and CPU time come from `wait4`.
/// Signals are reset to their defaults and unblocked in the child (the test runner blocks some).
final class ChildProcess {
    let pid: pid_t
    let stderrPath: String
    let stdoutPath: String

    /// Exit code (or 128 + signal) and user + system CPU seconds, once the child has ended.
    private(set) var result: (status: Int32, cpuSeconds: Double)?

    /// Starts `arguments[0]` (an absolute path) with the current environment plus `environment`.
    /// Standard input is /dev/null; standard output and error go to temporary files (``outputText``,
    /// ``errorText``).
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        let stem = NSTemporaryDirectory() + "thrum-child-\(UUID().uuidString)"
        stderrPath = stem + ".err"
        stdoutPath = stem + ".out"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGPIPE, SIGHUP] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child = pid_t()
        let err = posix_spawn(&child, arguments[0], &actions, &attributes, argv, envp)
        guard err == 0 else { throw POSIXError(POSIXErrorCode(rawValue: err) ?? .EIO) }
        pid = child
    }

    deinit {
        if result == nil {
            kill(pid, SIGKILL)
            _ = wait(timeout: 5)
        }
        unlink(stderrPath)
        unlink(stdoutPath)
    }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) { kill(pid, signal) }

    /// Waits up to `timeout` seconds for the child to end; returns its result, or nil if it still runs.
    @discardableResult
    func wait(timeout: Double) -> (status: Int32, cpuSeconds: Double)? {
        if let result { return result }
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            var status: Int32 = 0
            var usage = rusage()
            let ended = wait4(pid, &status, WNOHANG, &usage)
            if ended == pid {
                let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
                let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
                    + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
                result = (code, cpu)
                return result
            }
            usleep(5_000)
        } while Date() < deadline
        return nil
    }

    /// What the child wrote on standard output so far.
    var outputText: String {
        String(decoding: FileManager.default.contents(atPath: stdoutPath) ?? Data(), as: UTF8.self)
    }

    /// The xrun count of `thrum play`'s summary line ("played …: 3.2 s, 2 xruns"), if it printed one.
    var reportedXruns: Int? {
        guard let line = outputText.split(separator: "\n").last(where: { $0.hasPrefix("played ") }),
            let words = line.split(separator: ",").last?.split(separator: " "), words.count == 2
        else { return nil }
        return Int(words[0])
    }

    /// What the child wrote on standard error so far.
    var errorText: String {
        String(decoding: FileManager.default.contents(atPath: stderrPath) ?? Data(), as: UTF8.self)
    }
}

/// Renders `pattern` with `thrum render` (float32, 48 kHz, the channel map `thrum play` uses by default)
/// and returns the interleaved samples.
func thrumRender(_ pattern: String, extraArguments: [String] = []) throws -> [Float] {
    let wav = NSTemporaryDirectory() + "thrum-render-\(UUID().uuidString).wav"
    defer { unlink(wav) }
    let child = try ChildProcess(
        [thrumTool, "render", pattern, "--channels", "L+H,R+H", "-o", wav] + extraArguments)
    let result = try #require(child.wait(timeout: 60), "thrum render did not finish")
    try #require(result.status == 0, "thrum render failed: \(child.errorText)")
    return try loadSamples(wav)
}

/// Checks that `captured` (interleaved stereo) contains `expected` bit for bit from `skip` samples in:
/// a server may connect the capture a little late, so the two are aligned on the first 64 samples of
/// sound after `skip` (patterns repeat themselves, so every place those samples occur is tried), and
/// everything from `skip` to the end of `expected` must match at one of them.
/// - Returns: nil when it does, else what differs.
func captureMismatch(_ captured: [Float], _ expected: [Float], skip: Int) -> String? {
    guard let anchor = expected[skip...].firstIndex(where: { $0 != 0 }) else { return "the render has no sound after the lead" }
    let probe = Array(expected[anchor..<min(expected.count, anchor + 64)])
    let reference = expected[skip...]
    /// The capture at `shift` (captured index = expected index + shift), as long as the reference or shorter.
    func window(_ shift: Int) -> ArraySlice<Float> {
        captured[max(0, shift + skip)..<min(captured.count, max(0, shift + expected.count))]
    }
    let shifts = captured.indices.dropLast(probe.count).filter {
        captured[$0].bitPattern == probe[0].bitPattern && Array(captured[$0..<($0 + probe.count)]) == probe
    }.map { $0 - anchor }.filter { $0 >= -skip && $0 % 2 == 0 }
    guard let shift = shifts.first(where: { window($0).elementsEqual(reference) { $0.bitPattern == $1.bitPattern } })
        ?? shifts.first
    else { return "the render's sound at sample \(anchor) never appears in the capture (\(captured.count) samples)" }
    let got = window(shift)
    if got.count != reference.count { return "the capture ends early (\(got.count) of \(reference.count) samples)" }
    if let first = zip(got, reference).enumerated().first(where: { $0.element.0.bitPattern != $0.element.1.bitPattern }) {
        return "differs from thrum render at sample \(first.offset + skip)"
    }
    return nil
}

/// The interleaved samples of an audio file at 48 kHz (copied while the decoded audio is alive).
func loadSamples(_ path: String) throws -> [Float] {
    let audio = try AudioFileLoader.load(path: path, targetSampleRate: 48000)
    return withExtendedLifetime(audio) { Array($0.samples) }
}

/// Reads a raw float32 file.
func readFloats(_ path: String) -> [Float] {
    let data = FileManager.default.contents(atPath: path) ?? Data()
    return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
}

/// Runs a Tools/ script with `system` (Foundation's Process waits for the daemons such scripts leave).
/// Returns its exit status.
@discardableResult
func runToolScript(_ name: String, _ command: String, environment: [String: String] = [:]) -> Int32 {
    let script = packageRoot.appendingPathComponent("Tools/dev/\(name)").path
    let assignments = environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
    let status = system("env \(assignments) bash '\(script)' \(command) >/dev/null 2>&1")
    return (status >> 8) & 0xff
}

/// The variables a Tools/ server script prints for `env` (its `export NAME=value` lines).
func toolScriptEnvironment(_ name: String, environment: [String: String] = [:]) -> [String: String] {
    let script = packageRoot.appendingPathComponent("Tools/dev/\(name)").path
    let output = NSTemporaryDirectory() + "thrum-script-env-\(UUID().uuidString)"
    defer { unlink(output) }
    let assignments = environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
    _ = system("env \(assignments) bash '\(script)' env >'\(output)' 2>/dev/null")
    let text = String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self)
    var result: [String: String] = [:]
    for line in text.split(separator: "\n") where line.hasPrefix("export ") {
        let parts = line.dropFirst(7).split(separator: "=", maxSplits: 1)
        if parts.count == 2 { result[String(parts[0])] = String(parts[1]) }
    }
    return result
}

/// Plays `countdown` on `device` and freezes its server for 0.3 s mid-play (`script stall 0.3`, SIGSTOP …
/// SIGCONT): the server's clock went on without Thrum's samples, so the summary must count at least one
/// xrun, and playback goes on to the end.
func expectServerStallCountedAsXrun(device: String, script: String) throws {
    let play = try ChildProcess([thrumTool, "play", "countdown", "--device", device])
    Thread.sleep(forTimeInterval: 1.2)
    #expect(runToolScript(script, "stall 0.3") == 0)
    let result = try #require(play.wait(timeout: 30), "thrum play did not finish")
    #expect(result.status == 0, "thrum play: \(play.errorText)")
    let xruns = try #require(play.reportedXruns, "no summary line: \(play.outputText)")
    #expect(xruns >= 1, "\(play.outputText)")
}
