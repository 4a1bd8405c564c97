// Core Haptics code imports only `CoreHaptics` (here: `Thrum`) and still uses Foundation's types and
// `Error.localizedDescription`. Thrum's modules use FoundationEssentials; `Thrum` re-exports Foundation for
// such code. This file imports nothing else, so it stops compiling if the re-export is lost.
import Testing
import Thrum

@Suite struct FoundationReexportTests {
    @Test("an error thrown by Thrum has Foundation's localizedDescription through `import Thrum` alone")
    func localizedDescriptionThroughThrum() {
        let error: Error = CHHapticError(.invalidPatternData, "pattern.ahap: line 3: expected a number")
        // Foundation's text for an error that is neither LocalizedError nor NSError names the type.
        #expect(error.localizedDescription.contains("CHHapticError"))
    }

    @Test("Foundation's types Core Haptics code passes around are visible through `import Thrum`")
    func foundationTypesThroughThrum() throws {
        let url = URL(fileURLWithPath: "/tmp/pattern.ahap")
        #expect(url.lastPathComponent == "pattern.ahap")
        let interval: TimeInterval = Date(timeIntervalSince1970: 2).timeIntervalSince(Date(timeIntervalSince1970: 1))
        #expect(interval == 1)
        #expect(NSError(domain: CHHapticErrorDomain, code: -4805).code == CHHapticError.Code.engineNotRunning.rawValue)
    }
}
