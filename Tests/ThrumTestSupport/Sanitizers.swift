import Foundation

/// Whether this test process runs under AddressSanitizer or ThreadSanitizer (their runtimes are linked in):
/// suites that repeat a race thousands of times run fewer repetitions there, where each costs several times more.
public let runningUnderSanitizer: Bool = { () -> Bool in
    let runtimes: [String] = ["__asan_init", "__tsan_init"]
    return runtimes.contains { dlsym(nil, $0) != nil }
}()
