import FoundationEssentials
import FoundationStandIns
import ThrumModel

/// The options that take a value (`--output FILE`), one case for each any command accepts: reading an
/// option by a name that does not exist is a compile error. The raw value is the long name.
enum ValueOption: String, Sendable {
    case channels, device, duration, format, layout, loops, output, period, periods, profile, rate, resolution, resources
    case seek
    case to, voices, width
    case host, port, priority
    case attack, band, gain, hold, preset, release, sensitivity, settings, tolerance
    case clip
    case breakpointsPerSecond = "breakpoints-per-second"
    case loopEnd = "loop-end"
    case maxAudioBytes = "max-audio-bytes"
    case maxAudioMemory = "max-audio-memory"
    case maxAudioSeconds = "max-audio-seconds"
    case maxCurvePoints = "max-curve-points"
    case maxEvents = "max-events"
    case maxPatternBytes = "max-pattern-bytes"
    case onsetLog = "onset-log"
    case startAt = "start-at"
    case sampleRate = "sample-rate"
    case hapticOffset = "haptic-offset"
    case input
    case inputChannel = "input-channel"
    case plot
    case writeProfile = "write-profile"
}

/// The options without a value (`--json`); the raw value is the long name.
enum FlagOption: String, Sendable {
    case help, json, loop, split, strict, verbose, watch
    case noNormalize = "no-normalize"
    case hapticsFromAudio = "haptics-from-audio"
    case allowAnyPath = "allow-any-path"
    case metaCompatible = "meta-compatible"
    case list
    case noBrowser = "no-browser"
}

/// A command-line option: `--long VALUE`, `--long=VALUE`, `-s VALUE`, or a flag without a value.
struct OptionSpec: Sendable {
    /// Which option it is: a flag, or an option with a value and the placeholder shown in help (`FILE`).
    enum Kind: Sendable, Equatable {
        case flag(FlagOption)
        case value(ValueOption, placeholder: String)
    }

    let kind: Kind
    let short: Character?
    let help: String
    /// What the value may be, for shell completion and the man pages; `.none` for a flag.
    let values: OptionValues

    /// A flag without a value.
    static func flag(_ flag: FlagOption, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(kind: .flag(flag), short: short, help: help, values: .none)
    }

    /// An option taking a value; `placeholder` names it in help (`FILE`, `N`), `values` says what it may be.
    static func value(
        _ option: ValueOption, short: Character? = nil, placeholder: String, values: OptionValues = .none, help: String
    ) -> OptionSpec {
        OptionSpec(kind: .value(option, placeholder: placeholder), short: short, help: help, values: values)
    }

    /// The long name, without the dashes.
    var long: String {
        switch kind {
        case .flag(let flag): flag.rawValue
        case .value(let option, _): option.rawValue
        }
    }

    /// The placeholder shown in help; nil for a flag.
    var valueName: String? {
        if case .value(_, let placeholder) = kind { return placeholder }
        return nil
    }
}

/// What one command accepts, and the text of its `--help`.
struct CommandSpec: Sendable {
    let name: String
    let summary: String
    /// Positional arguments as shown in usage, e.g. `FILE...`.
    let positionalUsage: String
    let minPositionals: Int
    let maxPositionals: Int?
    /// What the positional arguments may be, for shell completion.
    var positionalValues: OptionValues = .none
    let options: [OptionSpec]
    /// Extra help text after the options (examples, exit codes).
    let details: String

    var helpText: String {
        var lines = ["usage: thrum \(name)\(options.isEmpty ? "" : " [options]") \(positionalUsage)", "", summary, ""]
        lines.append("options:")
        let all = optionsWithHelp
        let labels = all.map(\.label)
        let width = (labels.map(\.count).max() ?? 0) + 2
        for (label, option) in zip(labels, all) {
            lines.append("  " + label.padded(to: width) + option.help)
        }
        if !details.isEmpty { lines += ["", details] }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The options as help lists them: the command's, then `-h, --help`.
    var optionsWithHelp: [OptionSpec] { options + [.flag(.help, short: "h", help: "show this help")] }
}

extension OptionSpec {
    /// How help shows the option: `-o, --output FILE`, or `    --json` without a short name.
    var label: String {
        var label = short.map { "-\($0), " } ?? "    "
        label += "--\(long)"
        if let valueName { label += " \(valueName)" }
        return label
    }
}

/// A command line that does not fit its command: exit code 64 with a one-line message.
struct UsageError: Error, Equatable {
    let message: String
}

/// The parsed arguments of one command.
struct ParsedArguments: Equatable {
    private var flags: Set<FlagOption> = []
    private var values: [ValueOption: [String]] = [:]
    private(set) var positionals: [String] = []
    /// Whether `--help` or `-h` was given.
    private(set) var wantsHelp = false

    /// Whether a flag was given.
    func flag(_ flag: FlagOption) -> Bool { flags.contains(flag) }

    /// The last value given for an option.
    func value(_ option: ValueOption) -> String? { values[option]?.last }

    /// Every value given for a repeatable option, in order.
    func allValues(_ option: ValueOption) -> [String] { values[option] ?? [] }

    /// An option's value as an integer in `range`.
    func int(_ option: ValueOption, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(option) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                message: "--\(option.rawValue) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return number
    }

    /// An option's value as a finite number in `range`.
    func double(_ option: ValueOption, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let text = value(option) else { return nil }
        guard let number = Double(text), number.isFinite, range.contains(number) else {
            throw UsageError(
                message: "--\(option.rawValue) takes a number from \(PatternValidator.formatted(range.lowerBound)) to \(PatternValidator.formatted(range.upperBound)), not '\(text)'")
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
            switch matched.kind {
            case .value(let option, let placeholder):
                if inlineValue == nil {
                    guard index < arguments.count else {
                        throw UsageError(message: "--\(matched.long) needs a value (\(placeholder))")
                    }
                    inlineValue = arguments[index]
                    index += 1
                }
                parsed.values[option, default: []].append(inlineValue ?? "")
            case .flag(let flag):
                if inlineValue != nil { throw UsageError(message: "--\(matched.long) takes no value") }
                parsed.flags.insert(flag)
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
