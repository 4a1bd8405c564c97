import AudioResources
import Foundation
import Testing
import ThrumTestSupport

/// Issue 13, problems 4 and 8: the `thrum` executable follows the conventions docs/decisions.md fixes, run as
/// a separate process (standard streams, signals, exit codes).
@Suite struct CLIConventionTests {
    static let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("thrum").path
    static let heartbeat = packageRoot.appendingPathComponent("Resources/Patterns/heartbeat.ahap").path

    /// Runs `script` with `sh -c`; `$THRUM` is the tool. Returns the status, stdout and stderr.
    static func shell(_ script: String, input: Data? = nil) throws -> (status: Int32, out: Data, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.environment = ProcessInfo.processInfo.environment.merging(["THRUM": tool]) { $1 }
        let out = Pipe()
        let err = Pipe()
        let stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output, errors)
    }

    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "thrum-conventions-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func closedOrFullStandardOutputIs74() throws {
        let closed = try Self.shell(#""$THRUM" check "\#(Self.heartbeat)" >&-"#)
        #expect(closed.status == 74)
        #expect(closed.err.contains("cannot write to standard output"))
        let full = try Self.shell(#""$THRUM" check "\#(Self.heartbeat)" >/dev/full"#)
        #expect(full.status == 74)
        #expect(full.err.contains("No space left on device"))
    }

    @Test func versionIsPrinted() throws {
        let result = try Self.shell(#""$THRUM" --version"#)
        #expect(result.status == 0)
        #expect(String(decoding: result.out, as: UTF8.self).hasPrefix("thrum "))
    }

    @Test func unreadableInputIs66() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for command in ["check", "info", "render"] {
            let result = try Self.shell(#""$THRUM" \#(command) "\#(folder)" -o "\#(folder)/x.wav""#.replacingOccurrences(of: command == "render" ? "" : " -o \"\(folder)/x.wav\"", with: ""))
            #expect(result.status == 66, "\(command): \(result.err)")
        }
    }

    @Test func anUnknownOutputExtensionIsAUsageError() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for command in ["render", "plot"] {
            let result = try Self.shell(#""$THRUM" \#(command) heartbeat -o "\#(folder)/out.xyz""#)
            #expect(result.status == 64, "\(command): \(result.err)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test func aPatternFromStandardInputAndAFileToStandardOutput() throws {
        let pattern = try Data(contentsOf: URL(fileURLWithPath: Self.heartbeat))
        let checked = try Self.shell(#""$THRUM" check -"#, input: pattern)
        #expect(checked.status == 0, "\(checked.err)")
        #expect(String(decoding: checked.out, as: UTF8.self) == "checked 1 file: 0 errors, 0 warnings\n")
        let rendered = try Self.shell(#""$THRUM" render - --sample-rate 8000 -o -"#, input: pattern)
        #expect(rendered.status == 0, "\(rendered.err)")
        #expect(rendered.err.contains("wrote standard output: 8000 frames"))
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try rendered.out.write(to: URL(fileURLWithPath: folder + "/piped.wav"))
        let info = try AudioFileInfo.probe(folder + "/piped.wav")
        #expect(info.frames == 8000 && info.channels == 3)
        let plotted = try Self.shell(#""$THRUM" plot heartbeat -o -"#)
        #expect(plotted.status == 0, "\(plotted.err)")
        #expect(String(decoding: plotted.out, as: UTF8.self).contains("<svg"))
    }

    /// Starts the tool with `arguments`, stdout and stderr to files in `folder`, and SIGINT, SIGTERM and
    /// SIGHUP at their default action and unblocked (a test runner may ignore or block them, and both are
    /// inherited).
    static func spawn(_ arguments: [String], logs folder: String, ignoringHangUp: Bool = false) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, folder + ".out", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, folder + ".err", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM] + (ignoringHangUp ? [] : [SIGHUP]) { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        // `nohup` sets SIGHUP to be ignored and runs the tool, as a user would.
        let command = ignoringHangUp ? ["/usr/bin/nohup", tool] : [tool]
        let argv = (command + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let status = posix_spawn(&pid, command[0], &actions, &attributes, argv, environ)
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO) }
        return pid
    }

    /// Waits up to `seconds` for `pid`; kills it when it does not end. Returns the wait status.
    static func wait(_ pid: pid_t, seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        var status: Int32 = 0
        while Date() < deadline {
            if waitpid(pid, &status, WNOHANG) == pid { return status }
            Thread.sleep(forTimeInterval: 0.02)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        return nil
    }

    /// A long render is stopped by each signal: exit 130, and no file (finished or partial) is left.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aSignalDuringRenderLeavesNothing(signal: Int32) throws {
        let folder = try Self.folder()
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            unlink(folder + ".out")
            unlink(folder + ".err")
        }
        let pid = try Self.spawn(
            ["render", "heartbeat", "--loop", "--duration", "7200", "-o", folder + "/long.wav"], logs: folder)
        // Wait until the render has started writing (its temporary file exists).
        let deadline = Date().addingTimeInterval(20)
        while (try FileManager.default.contentsOfDirectory(atPath: folder)).isEmpty && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        Thread.sleep(forTimeInterval: 0.2)
        kill(pid, signal)
        let status = try #require(Self.wait(pid, seconds: 10), "thrum render did not stop within 10 s")
        #expect(status & 0x7F == 0, "thrum render was killed by signal \(status & 0x7F)")
        #expect((status >> 8) & 0xFF == 130)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        let text = (try? String(contentsOfFile: folder + ".err", encoding: .utf8)) ?? ""
        #expect(text.contains("interrupted"))
    }

    @Test func aFullDiskDuringRenderLeavesNothing() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A file-size limit of 1 MB stands in for a full disk: the write fails with EFBIG.
        let result = try Self.shell(
            #"trap '' XFSZ; ulimit -f 1024; "$THRUM" render heartbeat --loops 100 -o "\#(folder)/big.wav""#)
        #expect(result.status == 74, "\(result.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test func aFailedPNGPlotLeavesNoFile() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A converter that writes part of its output and fails.
        let fake = folder + "/bin/rsvg-convert"
        try FileManager.default.createDirectory(atPath: folder + "/bin", withIntermediateDirectories: true)
        // Like rsvg-convert on a failure: whatever it was told to write is left partly written.
        let script = """
            #!/bin/sh
            out=""
            while [ $# -gt 0 ]; do
                if [ "$1" = "--output" ] || [ "$1" = "-o" ]; then out="$2"; shift; fi
                shift
            done
            if [ -n "$out" ]; then printf partial > "$out"; else printf partial; fi
            exit 3
            """
        try script.write(toFile: fake, atomically: true, encoding: .utf8)
        chmod(fake, 0o755)
        let result = try Self.shell(#"PATH="\#(folder)/bin:$PATH" "$THRUM" plot heartbeat -o "\#(folder)/out/plot.png""#.replacingOccurrences(of: "/out/plot.png", with: "/plot.png"))
        #expect(result.status == 74, "\(result.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["bin"])
    }

    /// `thrum play` on ALSA's `null` device (no sound card needed) stops cleanly on SIGHUP, as on SIGTERM.
    @Test func sighupStopsPlayCleanly() throws {
        let logs = NSTemporaryDirectory() + "thrum-hup-" + UUID().uuidString
        defer {
            unlink(logs + ".out")
            unlink(logs + ".err")
        }
        let pid = try Self.spawn(["play", "heartbeat", "--loop", "--device", "null"], logs: logs)
        Thread.sleep(forTimeInterval: 0.5)
        kill(pid, SIGHUP)
        let status = try #require(Self.wait(pid, seconds: 10), "thrum play did not stop within 10 s")
        #expect(status & 0x7F == 0, "thrum play was killed by signal \(status & 0x7F)")
        #expect((status >> 8) & 0xFF == 130)
        #expect(((try? String(contentsOfFile: logs + ".err", encoding: .utf8)) ?? "").contains("interrupted; device 'null' drained and closed"))
    }

    /// Under `nohup` (SIGHUP inherited as ignored) a hang-up does not stop it.
    @Test func anIgnoredSighupStaysIgnored() throws {
        let logs = NSTemporaryDirectory() + "thrum-nohup-" + UUID().uuidString
        defer {
            unlink(logs + ".out")
            unlink(logs + ".err")
        }
        let pid = try Self.spawn(["play", "heartbeat", "--loop", "--device", "null"], logs: logs, ignoringHangUp: true)
        Thread.sleep(forTimeInterval: 0.5)
        kill(pid, SIGHUP)
        Thread.sleep(forTimeInterval: 0.5)
        var status: Int32 = 0
        #expect(waitpid(pid, &status, WNOHANG) == 0, "thrum play ended on an ignored SIGHUP")
        kill(pid, SIGTERM)
        let ended = try #require(Self.wait(pid, seconds: 10))
        #expect((ended >> 8) & 0xFF == 130)
    }

    /// `thrum play … &` from an interactive shell: a background job that touches the terminal is stopped
    /// (SIGTTOU); Thrum leaves the terminal alone there and plays to the end.
    @Test func aBackgroundPlayLeavesTheTerminalAlone() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", packageRoot.appendingPathComponent("Tools/dev/pty-run.py").path, "--background", "--", Self.tool,
            "play", "heartbeat", "--loops", "2", "--device", "null",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(!output.contains("stopped:"), "\(output)")
        #expect(output.contains("\nexit: 0\n"), "\(output)")
        #expect(output.hasSuffix("stty-restored: yes\n"))
    }

    /// A file name that is not UTF-8 is opened and written byte for byte, and shown with its bytes escaped.
    @Test func fileNamesThatAreNotUTF8PassThroughByteExact() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = #"""
            cd "\#(folder)" && cp "\#(Self.heartbeat)" "$(printf 'in\377\376.ahap')" \
            && "$THRUM" render "$(printf 'in\377\376.ahap')" --sample-rate 8000 -o "$(printf 'out\351.wav')" \
            && "$THRUM" check "$(printf 'in\377\376.ahap')" "$(printf 'gone\377.ahap')"
            """#
        let result = try Self.shell(script)
        #expect(result.status == 66, "\(result.err)")
        let text = String(decoding: result.out, as: UTF8.self)
        #expect(text.contains("wrote out\\xe9.wav: 8000 frames"))
        #expect(text.contains("gone\\xff.ahap: error: no such file"))
        let names = try FileManager.default.contentsOfDirectoryBytes(atPath: folder)
        #expect(names.contains([0x6F, 0x75, 0x74, 0xE9, 0x2E, 0x77, 0x61, 0x76]), "out\\xe9.wav exists byte for byte")
    }
    /// Peak resident memory, in bytes, of `thrum ARGUMENTS` run to its end.
    static func peakMemory(_ arguments: [String]) throws -> Int {
        let logs = NSTemporaryDirectory() + "thrum-memory-" + UUID().uuidString
        defer {
            unlink(logs + ".out")
            unlink(logs + ".err")
        }
        let pid = try spawn(arguments, logs: logs)
        var status: Int32 = 0
        var usage = rusage()
        #expect(wait4(pid, &status, 0, &usage) == pid)
        return usage.ru_maxrss * 1024
    }

    /// Issue 13, problem 3: checking a pattern takes memory in proportion to its size, a small multiple of
    /// it, even for the densest JSON (a 4 MB array of one-digit numbers took 85 times its size before).
    @Test func checkMemoryIsASmallMultipleOfTheFileSize() throws {
        let folder = TemporaryDirectory("memory")
        let numbers = Array(repeating: "1", count: 1_990_000).joined(separator: ",")
        let dense = try folder.write(
            "dense.ahap",
            #"{"Version": 1, "Unused": [\#(numbers)], "Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient"}}]}"#)
        let size = try #require(FileManager.default.attributesOfItem(atPath: dense)[.size] as? Int)
        let baseline = try Self.peakMemory(["check", Self.heartbeat])
        let peak = try Self.peakMemory(["check", dense])
        let multiple = Double(peak - baseline) / Double(size)
        #expect(multiple < 40, "checking a \(size)-byte file took \(peak - baseline) bytes more than a tiny one: \(multiple) × its size")
    }
}


extension FileManager {
    /// The names in `path` as raw bytes (readdir), for names that are not UTF-8.
    func contentsOfDirectoryBytes(atPath path: String) throws -> [[UInt8]] {
        guard let directory = opendir(path) else { throw POSIXError(.ENOENT) }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
        }
        return names
    }
}
