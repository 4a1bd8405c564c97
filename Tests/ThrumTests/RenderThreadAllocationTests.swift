import Foundation
import Testing
import ThrumTestSupport

/// The render path makes no heap allocation after warm-up, counted by the release `thrum-bench` (its own
/// package, Tools/bench; Tools/test.sh builds it and names it in $THRUM_RELEASE_BENCH), which interposes
/// malloc/free (and for the storm swift_retain/release) in its own binary only.
@Suite struct RenderThreadAllocationTests {
    /// Runs `tool` with `arguments`; returns its standard output and error, and its exit status.
    func run(_ tool: URL, _ arguments: [String]) throws -> (output: String, status: Int32) {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (output, process.terminationStatus)
    }

    /// Whether this process runs under AddressSanitizer or ThreadSanitizer (the sanitizer passes of
    /// Tools/test.sh): the plain pass runs these.
    static let underSanitizer: Bool = {
        let runtimes: [String] = ["__asan_init", "__tsan_init"]
        return runtimes.contains { dlsym(nil, $0) != nil }
    }()

    /// `thrum-bench` in release: $THRUM_RELEASE_BENCH (which must then exist), else
    /// Tools/bench/.build/release/thrum-bench when built.
    static let namedBench = ProcessInfo.processInfo.environment["THRUM_RELEASE_BENCH"]
    static let releaseBench = namedBench ?? packageRoot.appendingPathComponent("Tools/bench/.build/release/thrum-bench").path
    static let benchAvailable = namedBench != nil || FileManager.default.isExecutableFile(atPath: releaseBench)
    static let benchMissing = Comment(
        rawValue: "no release thrum-bench at \(releaseBench): run 'swift build -c release --package-path Tools/bench' (Tools/test.sh does)")

    /// The bench to run; a $THRUM_RELEASE_BENCH that is not there fails the test rather than skipping it.
    func bench() throws -> URL {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.releaseBench), "THRUM_RELEASE_BENCH: no executable at \(Self.releaseBench)")
        return URL(fileURLWithPath: Self.releaseBench)
    }

    /// `thrum-bench alloc` renders 2000 periods of 64 voices through the engine's render core on one thread
    /// and counts allocations and frees made there; it exits 1 if any.
    @Test(
        .enabled(if: !underSanitizer, "sanitizer build: the plain run of the suite runs the release bench"),
        .enabled(if: benchAvailable, benchMissing))
    func renderPathAllocatesNothingAfterWarmUp() throws {
        let (output, status) = try run(try bench(), ["alloc"])
        #expect(output.contains("allocations: 0\n"), "\(output)")
        #expect(output.contains("frees: 0\n"), "\(output)")
        #expect(status == 0)
    }

    /// The release build's live render thread, counted during a scripted command storm (`thrum-bench
    /// storm`): no allocation, free, retain, release or bridge-object retain/release. Retain counts are only
    /// meaningful optimised (a debug build retains on every property access).
    @Test(
        .enabled(if: !underSanitizer, "sanitizer build: the plain run of the suite runs the release storm"),
        .enabled(if: benchAvailable, benchMissing),
        arguments: [[], ["--layout", "dualsense"]])
    func renderThreadAllocatesAndRetainsNothingDuringACommandStorm(layout: [String]) throws {
        // The second storm runs three engines of one device on two actuators, panned (issue 15).
        let (output, status) = try run(try bench(), ["storm", "--seconds", "2"] + layout)
        func count(_ name: String) -> Int? {
            output.split(separator: "\n").first { $0.hasPrefix("\(name): ") }.flatMap { Int($0.dropFirst(name.count + 2)) }
        }
        #expect(count("periods") ?? 0 > 1000, "the render thread rendered: \(output)")
        #expect(count("completions") ?? 0 > 10, "instances ended and their completion handlers ran: \(output)")
        #expect(count("onsets") ?? 0 > 100, "event onsets were reported off the render thread: \(output)")
        for name in ["allocations", "frees", "retains", "releases", "bridge"] {
            #expect(count(name) == 0, "\(name) on the render thread: \(output)")
        }
        #expect(status == 0)
    }
}
