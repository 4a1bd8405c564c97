import Foundation
import Testing

/// The render path makes no heap allocation after warm-up. `thrum-bench alloc` (built with the package)
/// interposes malloc/free in its own binary only, renders 2000 periods of 64 voices through the engine's
/// render core on one thread and counts allocations and frees made there; it exits 1 if any.
@Suite struct RenderThreadAllocationTests {
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
        let process = Process()
        process.executableURL = tool
        process.arguments = ["alloc"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(output.contains("allocations: 0\n"), "\(output)")
        #expect(output.contains("frees: 0\n"), "\(output)")
        #expect(process.terminationStatus == 0)
    }
}
