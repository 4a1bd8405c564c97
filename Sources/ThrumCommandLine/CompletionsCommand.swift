import ThrumServices

/// `thrum completions SHELL`: the completion script for bash, zsh or fish, written from the command tables.
let completionsCommand = Subcommand(
    spec: CommandSpec(
        name: "completions",
        summary: "Print the shell completion script for bash, zsh or fish.",
        positionalUsage: "SHELL", minPositionals: 1, maxPositionals: 1, positionalValues: .words(CompletionShell.names),
        options: [],
        details: """
            Load it in the running shell:
              bash: source <(thrum completions bash)
              zsh:  source <(thrum completions zsh)     (after compinit)
              fish: thrum completions fish | source
            The Debian package installs the three scripts where each shell finds them by itself.
            """),
    run: { arguments, console in
        let shell = arguments.positionals[0]
        guard let script = CompletionShell.script(for: shell, commands: ThrumCommandLine.commands.map(\.spec)) else {
            throw UsageError(message: "unknown shell '\(shell)'; use \(CompletionShell.names.joined(separator: ", "))")
        }
        console.writeOut(script)
        return .ok
    })

/// The shells `thrum completions` writes for.
enum CompletionShell {
    static let names = ["bash", "zsh", "fish"]

    static func script(for shell: String, commands: [CommandSpec]) -> String? {
        switch shell {
        case "bash": BashCompletion.script(commands: commands)
        case "zsh": ZshCompletion.script(commands: commands)
        case "fish": FishCompletion.script(commands: commands)
        default: nil
        }
    }
}

/// `thrum man [COMMAND]` (not listed in help): the man page thrum(1), or thrum-COMMAND(1); `--list` prints
/// the page names. The package build writes the installed pages with it.
let manCommand = Subcommand(
    spec: CommandSpec(
        name: "man",
        summary: "Print a man page in roff: thrum(1), or thrum-COMMAND(1).",
        positionalUsage: "[COMMAND]", minPositionals: 0, maxPositionals: 1,
        options: [.flag(.list, help: "print the names of the pages, one a line")],
        details: "Used by Tools/release/package-deb.sh: thrum man play > thrum-play.1"),
    run: { arguments, console in
        let specs = ThrumCommandLine.commands.map(\.spec)
        if arguments.flag(.list) {
            console.writeOut((["thrum"] + specs.map { "thrum-" + $0.name }).joined(separator: "\n") + "\n")
            return .ok
        }
        guard let name = arguments.positionals.first else {
            console.writeOut(ManPage.overview(commands: specs))
            return .ok
        }
        let wanted = name.hasPrefix("thrum-") ? String(name.dropFirst(6)) : name
        guard let spec = specs.first(where: { $0.name == wanted }) else {
            throw UsageError(message: "no man page for '\(name)'; 'thrum man --list' lists them")
        }
        console.writeOut(ManPage.page(for: spec, commands: specs))
        return .ok
    })
