import Foundation
import ThrumModel

/// A command-line option: `--long VALUE`, `--long=VALUE`, `-s VALUE`, or a flag without a value.
struct OptionSpec: Sendable {
    let long: String
    let short: Character?
    /// The placeholder shown in help (`FILE`, `N`); nil for a flag.
    let valueName: String?
    let help: String

    init(_ long: String, short: Character? = nil, value valueName: String? = nil, help: String) {
        self.long = long
        self.short = short
        self.valueName = valueName
        self.help = help
    }

    var takesValue: Bool { valueName != nil }
}

/// What one command accepts, and the text of its `--help`.
struct CommandSpec: Sendable {
    let name: String
    let summary: String
    /// Positional arguments as shown in usage, e.g. `FILE...`.
    let positionalUsage: String
    let minPositionals: Int
    let maxPositionals: Int?
    let options: [OptionSpec]
    /// Extra help text after the options (examples, exit codes).
    let details: String

    var helpText: String {
        var lines = ["usage: thrum \(name)\(options.isEmpty ? "" : " [options]") \(positionalUsage)", "", summary, ""]
        if !options.isEmpty {
            lines.append("options:")
            let all = options + [OptionSpec("help", short: "h", help: "show this help")]
            let labels = all.map { option -> String in
                var label = option.short.map { "-\($0), " } ?? "    "
                label += "--\(option.long)"
                if let value = option.valueName { label += " \(value)" }
                return label
            }
            let width = (labels.map(\.count).max() ?? 0) + 2
            for (label, option) in zip(labels, all) {
                lines.append("  " + label.padding(toLength: width, withPad: " ", startingAt: 0) + option.help)
            }
        }
        if !details.isEmpty { lines += ["", details] }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// A command line that does not fit its command: exit code 64 with a one-line message.
struct UsageError: Error, Equatable {
    let message: String
}

/// The parsed arguments of one command.
struct ParsedArguments: Equatable {
    private(set) var flags: Set<String> = []
    private(set) var values: [String: [String]] = [:]
    private(set) var positionals: [String] = []
    /// Whether `--help` or `-h` was given.
    private(set) var wantsHelp = false

    /// Whether a flag was given.
    func flag(_ long: String) -> Bool { flags.contains(long) }

    /// The last value given for an option.
    func value(_ long: String) -> String? { values[long]?.last }

    /// An option's value as an integer in `range`.
    func int(_ long: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(long) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(message: "--\(long) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return number
    }

    /// An option's value as a finite number in `range`.
    func double(_ long: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let text = value(long) else { return nil }
        guard let number = Double(text), number.isFinite, range.contains(number) else {
            throw UsageError(
                message: "--\(long) takes a number from \(PatternValidator.formatted(range.lowerBound)) to \(PatternValidator.formatted(range.upperBound)), not '\(text)'")
        }
        return number
    }

    /// Parses `arguments` (without the command name) against `spec`.
    static func parse(_ arguments: [String], for spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        func option(named name: String) throws(UsageError) -> OptionSpec {
            if let option = spec.options.first(where: { $0.long == name }) { return option }
            let guess = Suggestions.closest(to: name, in: spec.options.map(\.long) + ["help"])
            throw UsageError(
                message: "unknown option '--\(name)' for 'thrum \(spec.name)'"
                    + (guess.map { "; did you mean '--\($0)'?" } ?? "; see 'thrum \(spec.name) --help'"))
        }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            if argument == "--help" || argument == "-h" {
                parsed.wantsHelp = true
                continue
            }
            let matched: OptionSpec
            var inlineValue: String?
            if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                if let equals = body.firstIndex(of: "=") {
                    matched = try option(named: String(body[..<equals]))
                    inlineValue = String(body[body.index(after: equals)...])
                } else {
                    matched = try option(named: String(body))
                }
            } else {
                guard argument.count == 2, let letter = argument.last,
                    let found = spec.options.first(where: { $0.short == letter })
                else {
                    throw UsageError(message: "unknown option '\(argument)' for 'thrum \(spec.name)'; see 'thrum \(spec.name) --help'")
                }
                matched = found
            }
            if matched.takesValue {
                if inlineValue == nil {
                    guard index < arguments.count else {
                        throw UsageError(message: "--\(matched.long) needs a value (\(matched.valueName ?? "VALUE"))")
                    }
                    inlineValue = arguments[index]
                    index += 1
                }
                parsed.values[matched.long, default: []].append(inlineValue ?? "")
            } else {
                if inlineValue != nil { throw UsageError(message: "--\(matched.long) takes no value") }
                parsed.flags.insert(matched.long)
            }
        }
        if parsed.wantsHelp { return parsed }
        if parsed.positionals.count < spec.minPositionals {
            throw UsageError(message: "'thrum \(spec.name)' needs \(spec.positionalUsage); see 'thrum \(spec.name) --help'")
        }
        if let max = spec.maxPositionals, parsed.positionals.count > max {
            throw UsageError(
                message: "unexpected argument '\(parsed.positionals[max])' for 'thrum \(spec.name)'; see 'thrum \(spec.name) --help'")
        }
        return parsed
    }
}
