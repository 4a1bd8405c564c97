import Foundation
import Testing
import ThrumTestSupport

@testable import ThrumCommandLine

/// The completion scripts and man pages, run in the real shells and the real `man`. What they must offer
/// comes from outside the generators: the options each command's `--help` prints, the names the commands
/// accept (a value is offered only if the command takes it), the bundled pattern files on disk and
/// aplay's device list.
@Suite struct ShellCompletionTests {
    static let commandNames = ThrumCommandLine.commands.map(\.spec.name)

    @Test(.enabled(if: Tool.exists("man"), "man (man-db) is not installed"), arguments: commandNames)
    func everyOptionOfHelpIsInTheManPage(command: String) throws {
        let options = helpOptions(command)
        #expect(options.contains("--help"), "no options read from 'thrum \(command) --help'")
        let page = try renderedManPage(command)
        for option in options {
            #expect(page.contains(option), "thrum-\(command)(1) lacks \(option)")
        }
        #expect(page.contains("thrum-\(command)"), "thrum-\(command)(1) does not name itself")
    }

    @Test(.enabled(if: Tool.exists("man"), "man (man-db) is not installed"))
    func theOverviewPageListsEveryCommand() throws {
        let page = try renderedManPage(nil)
        for name in Self.commandNames { #expect(page.contains("thrum-\(name)(1)"), "thrum(1) lacks \(name)") }
        #expect(page.contains("--version"))
    }

    @Test(.enabled(if: Tool.exists("bash"), "bash is not installed"), arguments: commandNames)
    func bashOffersExactlyTheOptionsOfHelp(command: String) throws {
        let offered = try Set(Bash.complete(["thrum", command, "--"]))
        let expected = Set(helpOptions(command).filter { $0.hasPrefix("--") })
        #expect(offered == expected)
    }

    @Test(.enabled(if: Tool.exists("fish"), "fish is not installed"), arguments: commandNames)
    func fishOffersExactlyTheOptionsOfHelp(command: String) throws {
        let offered = try Set(Fish.complete("thrum \(command) --"))
        let expected = Set(helpOptions(command).filter { $0.hasPrefix("--") })
        #expect(offered == expected)
    }

    @Test(.enabled(if: Tool.exists("zsh"), "zsh is not installed"))
    func zshLoadsTheScriptAndEveryOptionIsInIt() throws {
        let script = try scriptFile("zsh")
        let result = try Tool.run(
            "zsh", ["-f", "-c", "autoload -Uz compinit && compinit -u -D && source \(script) && print -r -- $_comps[thrum]"])
        #expect(result.status == 0 && result.err.isEmpty, "zsh: \(result.err)")
        #expect(result.out == "_thrum\n")
        let text = try String(contentsOfFile: script, encoding: .utf8)
        for command in Self.commandNames {
            let section = text.components(separatedBy: "\n        \(command))\n").dropFirst().first?
                .components(separatedBy: ";;").first ?? ""
            for option in helpOptions(command) {
                let specs = ["[", "+[", "=["].map { option + $0 }
                #expect(specs.contains { section.contains($0) }, "_thrum \(command) lacks \(option)")
            }
        }
    }

    /// zsh's completion system in an interactive zsh on a pseudo-terminal (zsh/zpty): Tab lists what it offers.
    @Test(.enabled(if: Tool.exists("zsh"), "zsh is not installed"))
    func zshCompletesInAnInteractiveShell() throws {
        let script = try scriptFile("zsh")
        let commands = try ZshTerminal.pressTab(after: "thrum pl", script: script)
        #expect(commands.contains("play  # Play a pattern") && commands.contains("plot  # Draw"), "\(commands)")
        let formats = try ZshTerminal.pressTab(after: "thrum render --format ", script: script)
        #expect(formats.contains("float  pcm16  pcm24  pcm32"), "\(formats)")
    }

    @Test(.enabled(if: Tool.exists("bash"), "bash is not installed"))
    func bashCompletesCommandsAndClosedSets() throws {
        #expect(try Bash.complete(["thrum", "pl"]) == ["play", "plot"])
        #expect(try Bash.complete(["thrum", "completions", ""]) == ["bash", "zsh", "fish"])
        #expect(try Bash.complete(["thrum", "render", "--channels", "=", "L+H,M"]) == ["L+H,M", "L+H,M+H"])
        #expect(try Bash.complete(["thrum", "render", "-o", "x.wav", "--layout", ""]) == ["dualsense"])
    }

    /// Every word offered for a closed set is one the command takes; a word outside it is refused (64).
    @Test(.enabled(if: Tool.exists("bash"), "bash is not installed"))
    func everyOfferedValueIsAccepted() throws {
        let folder = TemporaryDirectory("completion")
        let cases: [(words: [String], run: (String) -> [String])] = [
            (["render", "--format"], { ["render", "tap", "--format", $0, "-o", folder.file("f.wav")] }),
            (["render", "--profile"], { ["render", "tap", "--profile", $0, "-o", folder.file("p.wav")] }),
            (["render", "--layout"], { ["render", "tap", "--layout", $0, "-o", folder.file("l.wav")] }),
            (["convert", "--to"], { ["convert", packageRoot.path + "/Resources/Patterns/tap.ahap", "--to", $0, "-o", folder.file("c.out")] }),
        ]
        for (words, run) in cases {
            let offered = try Bash.complete(["thrum"] + words + [""], in: folder.path).filter { !$0.hasSuffix("/") && !$0.contains(".") }
            #expect(!offered.isEmpty, "nothing offered for \(words)")
            for value in offered {
                let result = runThrum(run(value))
                #expect(result.status == 0, "thrum \(run(value).joined(separator: " ")): \(result.err)")
            }
            #expect(runThrum(run("zzz")).status != 0, "\(words) takes any word")
        }
    }

    @Test(.enabled(if: Tool.exists("bash"), "bash is not installed"))
    func bashCompletesFilesByExtension() throws {
        let folder = TemporaryDirectory("completion")
        for name in ["a.ahap", "b.haptic", "c.wav", "d.txt", "E.AHAP"] { try folder.write(name, "") }
        _ = folder.folder("sub")
        let check = try Set(Bash.complete(["thrum", "check", ""], in: folder.path))
        #expect(check == ["a.ahap", "b.haptic", "E.AHAP", "sub"])
        let analyze = try Set(Bash.complete(["thrum", "analyze", ""], in: folder.path))
        #expect(analyze == ["c.wav", "sub"])
        let output = try Set(Bash.complete(["thrum", "plot", "tap", "--output", "="], in: folder.path))
        #expect(output == ["sub"])
    }

    @Test(.enabled(if: Bash.thrum != nil && Tool.exists("bash"), "the thrum executable is not built beside the tests"))
    func bashCompletesBundledPatternNames() throws {
        let empty = TemporaryDirectory("completion")
        let offered = try Bash.complete([Bash.thrum!, "play", "hea"], in: empty.path)
        let files = try FileManager.default.contentsOfDirectory(atPath: packageRoot.path + "/Resources/Patterns")
        #expect(offered == files.filter { $0.hasPrefix("hea") && $0.hasSuffix(".ahap") }.map { String($0.dropLast(5)) })
    }

    @Test(.enabled(if: Bash.thrum != nil && Tool.exists("aplay"), "needs the thrum executable beside the tests and aplay"))
    func bashCompletesTheDevicesAplayLists() throws {
        let aplay = try Tool.run("aplay", ["-L"])
        let names = aplay.out.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map(String.init)
        try #require(!names.isEmpty, "aplay -L lists no device")
        let offered = try Bash.complete([Bash.thrum!, "play", "-d", ""])
        #expect(Set(offered) == Set(names))
        // A device with ':' and '=' in its name: bash splits the word there and replaces only the last piece.
        if let device = names.first(where: { $0.contains(":") }) {
            let head = String(device[..<device.firstIndex(of: ":")!])
            let pieces = try Bash.complete([Bash.thrum!, "play", "-d", head, ":", ""])
            #expect(pieces.contains(String(device[device.index(after: device.firstIndex(of: ":")!)...])))
        }
    }
}

/// The `--long` and `-s` options a command's `--help` lists, `-h` and `--help` included.
private func helpOptions(_ command: String) -> [String] {
    let help = runThrum([command, "--help"]).out
    let lines = help.components(separatedBy: "\noptions:\n").dropFirst().first?.components(separatedBy: "\n\n").first ?? ""
    return lines.split(separator: "\n").flatMap { line -> [String] in
        let label = line.trimmingCharacters(in: .whitespaces).components(separatedBy: "  ").first ?? ""
        return label.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) }
            .filter { $0.hasPrefix("-") }
    }
}

/// The man page `thrum man` writes, formatted by man(1) as a reader sees it; roff warnings fail the test.
private func renderedManPage(_ command: String?) throws -> String {
    let folder = TemporaryDirectory("man")
    let roff = runThrum(["man"] + (command.map { [$0] } ?? []))
    try #require(roff.status == 0, "thrum man: \(roff.err)")
    let file = try folder.write("page.1", roff.out)
    let result = try Tool.run("man", ["--warnings", "-l", file], environment: ["MANWIDTH": "200", "LC_ALL": "C.UTF-8"])
    #expect(result.status == 0 && result.err.isEmpty, "man: \(result.err)")
    // groff marks bold and italic with backspaces when the output is not a terminal.
    return result.out.replacingOccurrences(of: ".\u{8}", with: "", options: .regularExpression)
        .replacingOccurrences(of: "\u{2010}", with: "-").replacingOccurrences(of: "\u{2212}", with: "-")
}

/// The script `thrum completions SHELL` prints, in a file.
private func scriptFile(_ shell: String) throws -> String {
    let result = runThrum(["completions", shell])
    try #require(result.status == 0, "thrum completions \(shell): \(result.err)")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("thrum-completions-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent(shell).path
    try result.out.write(toFile: file, atomically: true, encoding: .utf8)
    return file
}
