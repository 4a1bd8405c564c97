import CFuzzerDriver

#if canImport(Glibc)
    import Glibc
#endif

/// The signature libFuzzer calls for each input: `int (*)(const uint8_t *Data, size_t Size)`.
public typealias FuzzTestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

/// Hands this process's command line to libFuzzer (`LLVMFuzzerRunDriver`) with `testOneInput`, then
/// exits with libFuzzer's status. Exits with status 2 when the program was built without libFuzzer.
public func runFuzzer(_ testOneInput: FuzzTestOneInput) -> Never {
    guard thrum_fuzzer_available() != 0 else {
        printError(
            "\(CommandLine.arguments.first ?? "fuzzer"): libFuzzer is not linked in; build with "
                + "`swift build -c release --sanitize=fuzzer --sanitize=address` (Tools/dev/fuzz.sh does)")
        exit(2)
    }
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(thrum_run_fuzzer(&argc, &argv, testOneInput))
}

/// Stops the fuzzer with a finding (a trap, which libFuzzer reports as a crash and saves the input).
public func fuzzFailure(_ message: String) -> Never {
    printError("FUZZ INVARIANT VIOLATED: \(message)")
    fatalError(message)
}

/// Writes `message` and a newline to standard error.
public func printError(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { buffer in _ = write(2, buffer.baseAddress, buffer.count) }
}
