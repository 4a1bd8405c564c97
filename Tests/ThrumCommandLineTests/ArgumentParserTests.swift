import Testing

@testable import ThrumCommandLine

@Suite struct ArgumentParserTests {
    let spec = CommandSpec(
        name: "render", summary: "Render a pattern.", positionalUsage: "PATTERN", minPositionals: 1,
        maxPositionals: 1,
        options: [
            .value(.output, short: "o", placeholder: "FILE", help: "where to write"),
            .value(.sampleRate, placeholder: "HZ", help: "rate"),
            .flag(.loop, help: "loop forever"),
        ], details: "")

    @Test func longShortInlineAndFlags() throws {
        let parsed = try ParsedArguments.parse(["a.ahap", "-o", "out.wav", "--sample-rate=8000", "--loop"], for: spec)
        #expect(parsed.positionals == ["a.ahap"])
        #expect(parsed.value(.output) == "out.wav")
        #expect(try parsed.int(.sampleRate, in: 1000...384_000) == 8000)
        #expect(parsed.flag(.loop))
        #expect(!parsed.flag(.json))
    }

    @Test func lastValueWinsAndDoubleDashEndsOptions() throws {
        let parsed = try ParsedArguments.parse(["-o", "a", "--output", "b", "--", "-weird.ahap"], for: spec)
        #expect(parsed.value(.output) == "b")
        #expect(parsed.positionals == ["-weird.ahap"])
    }

    @Test func helpSkipsPositionalChecks() throws {
        #expect(try ParsedArguments.parse(["--help"], for: spec).wantsHelp)
        #expect(try ParsedArguments.parse(["-h"], for: spec).wantsHelp)
    }

    @Test(arguments: [
        (["a", "--ouput", "x"], "unknown option '--ouput' for 'thrum render'; did you mean '--output'?"),
        (["a", "--zzz"], "unknown option '--zzz' for 'thrum render'; see 'thrum render --help'"),
        (["a", "-x"], "unknown option '-x' for 'thrum render'; see 'thrum render --help'"),
        (["a", "-o"], "--output needs a value (FILE)"),
        (["a", "--loop=yes"], "--loop takes no value"),
        ([], "'thrum render' needs PATTERN; see 'thrum render --help'"),
        (["a", "b"], "unexpected argument 'b' for 'thrum render'; see 'thrum render --help'"),
    ])
    func usageErrors(arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try ParsedArguments.parse(arguments, for: spec) }
    }

    @Test func numberValidation() throws {
        let parsed = try ParsedArguments.parse(["a", "--sample-rate", "fast"], for: spec)
        #expect(throws: UsageError(message: "--sample-rate takes a whole number from 1000 to 384000, not 'fast'")) {
            try parsed.int(.sampleRate, in: 1000...384_000)
        }
        let rate = try ParsedArguments.parse(["a", "--sample-rate", "-2.5"], for: spec)
        #expect(throws: UsageError(message: "--sample-rate takes a number from 0 to 10, not '-2.5'")) {
            try rate.double(.sampleRate, in: 0...10)
        }
        #expect(try rate.double(.sampleRate, in: -3...10) == -2.5)
    }

    @Test func helpTextListsEveryOption() {
        #expect(
            spec.helpText == """
                usage: thrum render [options] PATTERN

                Render a pattern.

                options:
                  -o, --output FILE     where to write
                      --sample-rate HZ  rate
                      --loop            loop forever
                  -h, --help            show this help

                """)
    }
}
