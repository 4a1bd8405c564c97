import Foundation
import Testing
import ThrumTestSupport

/// docs/cli.md is the command line's manual: it has a section for every command `thrum --help` lists, and
/// that section names every option the command's `--help` lists (a new option without a word in the manual
/// fails here).
@Suite struct ManualTests {
    /// The commands of the top-level help: the first word of each line under "commands:".
    static func commands(inHelp help: String) -> [String] {
        let listed = help.components(separatedBy: "commands:\n").dropFirst().first ?? ""
        return listed.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// The long options of a command's help: every `--name` on the lines under "options:".
    static func options(inHelp help: String) -> Set<String> {
        let listed = help.components(separatedBy: "options:\n").dropFirst().first ?? ""
        let lines = listed.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
        return Set(lines.compactMap { line in
            line.firstMatch(of: /^\s+(?:-\w, )?(--[a-z][a-z-]*)/).map { String($0.output.1) }
        })
    }

    /// The text of the manual's section for one command: from its `### \`thrum COMMAND` heading to the next
    /// heading of that level or above.
    static func section(of command: String, in manual: String) -> String? {
        let headings = manual.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = headings.firstIndex(where: {
            $0.hasPrefix("### ") && $0.contains("`thrum \(command)")
        }) else { return nil }
        let rest = headings[(start + 1)...]
        let end = rest.firstIndex { $0.hasPrefix("## ") || $0.hasPrefix("### ") } ?? headings.endIndex
        return headings[start..<end].joined(separator: "\n")
    }

    @Test("docs/cli.md has a section for every command, naming every option its --help lists")
    func everyCommandAndOptionIsInTheManual() throws {
        let manual = try String(contentsOf: packageRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let commands = Self.commands(inHelp: runThrum(["--help"]).out)
        #expect(commands.contains("play") && commands.contains("devices"), "commands found: \(commands)")
        for command in commands {
            guard let section = Self.section(of: command, in: manual) else {
                Issue.record("docs/cli.md has no section headed `thrum \(command)`")
                continue
            }
            let options = Self.options(inHelp: runThrum([command, "--help"]).out)
            #expect(options.contains("--help"), "no options read from 'thrum \(command) --help'")
            for option in options.sorted() where option != "--help" && !section.contains("`\(option)") {
                Issue.record("docs/cli.md, `thrum \(command)`: \(option) is not named")
            }
        }
    }
}
