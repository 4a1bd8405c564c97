import FoundationEssentials
import FoundationStandIns
import ThrumServices

let listCommand = Subcommand(
    spec: CommandSpec(
        name: "list",
        summary: "List the bundled patterns (play or render them by name).",
        positionalUsage: "", minPositionals: 0, maxPositionals: 0,
        options: [.flag(.json, help: "print the list as JSON for tools")],
        details: "Names are case-insensitive and may omit .ahap: 'thrum play heartbeat'."),
    run: { arguments, console in
        let rows = try BundledResources.catalogue()
        if arguments.flag(.json) {
            console.printExact(
                try jsonText(rows.map { ["name": $0.name, "duration": $0.duration, "description": $0.description] }))
            return .ok
        }
        let width = (rows.map(\.name.count).max() ?? 0) + 2
        for row in rows {
            let firstSentence = row.description.components(separatedBy: ". ").first ?? ""
            console.print(
                row.name.padded(to: width)
                    + String(cFormat: "%6.2f s  ", row.duration) + firstSentence)
        }
        return .ok
    })
