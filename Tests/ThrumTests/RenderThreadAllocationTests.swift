import Foundation
import Testing
import ThrumTestSupport

/// The render path makes no heap allocation after warm-up. `thrum-bench alloc` (built with the package)
/// interposes malloc/free in its own binary only, renders 2000 periods of 64 voices through the engine's
/// render core on one thread and counts allocations and frees made there; it exits 1 if any.
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

    /// Whether this process runs under AddressSanitizer or ThreadSanitizer: their runtimes interpose
    /// malloc themselves, so thrum-bench, built the same way, compiles its counter out.
    static let underSanitizer: Bool = {
        let runtimes: [String] = ["__asan_init", "__tsan_init"]
        return runtimes.contains { dlsym(nil, $0) != nil }
    }()

    @Test(
        .enabled(
            if: !underSanitizer,
            "sanitizer build: ASan/TSan interpose malloc, so thrum-bench has no allocation counter to read"))
    func renderPathAllocatesNothingAfterWarmUp() throws {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let tool = folder.appendingPathComponent("thrum-bench")
        try #require(
            FileManager.default.isExecutableFile(atPath: tool.path),
            "thrum-bench is missing next to the tests; run 'swift build --build-tests' first")
        let (output, status) = try run(tool, ["alloc"])
        #expect(output.contains("allocations: 0\n"), "\(output)")
        #expect(output.contains("frees: 0\n"), "\(output)")
        #expect(status == 0)
    }

    static let releaseBench =
        ProcessInfo.processInfo.environment["THRUM_RELEASE_BENCH"]
        ?? packageRoot.appendingPathComponent(".build/release/thrum-bench").path

    /// The release build's live render thread, counted during a scripted command storm (`thrum-bench
    /// storm`): no allocation, free, retain, release or bridge-object retain/release. Retain counts are only
    /// meaningful optimised (a debug build retains on every property access), so this runs the release
    /// `thrum-bench`: $THRUM_RELEASE_BENCH, else .build/release/thrum-bench (Tools/test.sh builds it).
    @Test(
        .enabled(if: !underSanitizer, "sanitizer build: the plain run of the suite runs the release storm"),
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: Self.releaseBench),
            Comment(
                rawValue:
                    "no release thrum-bench at \(Self.releaseBench): run 'swift build -c release --product thrum-bench' (Tools/test.sh does)"
            )),
        arguments: [[], ["--layout", "dualsense"]])
    func renderThreadAllocatesAndRetainsNothingDuringACommandStorm(layout: [String]) throws {
        // The second storm runs three engines of one device on two actuators, panned (issue 15).
        let (output, status) = try run(URL(fileURLWithPath: Self.releaseBench), ["storm", "--seconds", "2"] + layout)
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
