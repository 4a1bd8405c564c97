import Foundation
import Testing
import ThrumCommandLine
import ThrumTestSupport

/// Programs on PATH, run with arguments (no shell between).
enum Tool {
    static func exists(_ name: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
        }
    }

    /// Runs `name` with `arguments` in `directory`, standard input empty, and returns what it printed.
    static func run(
        _ name: String, _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:]
    ) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let folder = TemporaryDirectory("tool")
        let outPath = folder.file("out")
        let errPath = folder.file("err")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        try process.run()
        process.waitUntilExit()
        let out = try String(contentsOfFile: outPath, encoding: .utf8)
        let err = try String(contentsOfFile: errPath, encoding: .utf8)
        return (process.terminationStatus, out, err)
    }
}

/// The bash script of `thrum completions bash`, run for real: its completion function is called with the
/// words bash would pass (split at `:` and `=` as COMP_WORDBREAKS splits them) and COMPREPLY is printed.
enum Bash {
    /// The `thrum` executable SwiftPM built beside this test bundle, if any.
    static let thrum: String? = {
        let folder = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "")
            .deletingLastPathComponent()
        let path = folder.appendingPathComponent("thrum").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()

    static let harness = """
        source "$1"; shift
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
        function=$(complete -p thrum | sed -n 's/.*-F \\([^ ]*\\).*/\\1/p')
        "$function" thrum "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
        printf '%s\\n' "${COMPREPLY[@]}"
        """

    /// What the completion function offers for `words` (the last one is the word being completed).
    static func complete(_ words: [String], in directory: String? = nil) throws -> [String] {
        let script = runThrum(["completions", "bash"])
        try #require(script.status == 0)
        let folder = TemporaryDirectory("bash")
        let file = try folder.write("thrum.bash", script.out)
        let result = try Tool.run("bash", ["--norc", "--noprofile", "-c", harness, "bash", file] + words, in: directory)
        try #require(result.status == 0 && result.err.isEmpty, "bash: \(result.err)")
        return result.out.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
}

/// The fish script of `thrum completions fish`, asked by fish itself (`complete -C`).
enum Fish {
    static func complete(_ line: String) throws -> [String] {
        let script = runThrum(["completions", "fish"])
        try #require(script.status == 0)
        let folder = TemporaryDirectory("fish")
        let file = try folder.write("thrum.fish", script.out)
        let result = try Tool.run("fish", ["--no-config", "-c", "source \(file); complete -C '\(line)'"])
        try #require(result.status == 0 && result.err.isEmpty, "fish: \(result.err)")
        return result.out.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
    }
}

/// An interactive zsh on a pseudo-terminal (zsh/zpty) with compinit and the script loaded: types a line,
/// presses Tab and returns what the terminal shows, escape sequences removed.
enum ZshTerminal {
    static let driver = """
        zmodload zsh/zpty
        zpty z zsh -f -i
        zpty -w z "PROMPT='> '; autoload -Uz compinit; compinit -u -D; source $1; zstyle ':completion:*' list-separator '#'"
        zpty -w -n z "$2"$'\\t'
        local all="" chunk
        integer i
        for i in {1..40}; do
            sleep 0.2
            while zpty -r -t z chunk 2>/dev/null; do all+=$chunk; done
        done
        print -r -- "$all"
        zpty -d z
        """

    static func pressTab(after line: String, script: String) throws -> String {
        let folder = TemporaryDirectory("zsh")
        let file = try folder.write("driver.zsh", driver)
        let result = try Tool.run("zsh", ["-f", file, script, line])
        try #require(result.status == 0, "zsh: \(result.err)")
        return result.out.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[a-zA-Z]", with: "", options: .regularExpression)
            .replacingOccurrences(of: "\r", with: "")
    }
}
