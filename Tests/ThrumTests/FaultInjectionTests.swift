import Foundation
import Synchronization
import Testing
import ThrumTestSupport
import Thrum

/// Bad things happening to files and budgets while Thrum works.
@Suite struct FaultInjectionTests {
    @Test func patternFileReplacedWhileLoading() throws {
        let temporary = TemporaryDirectory("replace")
        let folder = temporary.path
        let file = folder + "/swap.ahap"
        let good = try String(contentsOf: packageRoot.appendingPathComponent("Resources/Patterns/drum-roll.ahap"), encoding: .utf8)
        try good.write(toFile: file, atomically: true, encoding: .utf8)
        let stop = Atomic<Bool>(false)
        let writer = Thread {
            var toggle = false
            while !stop.load(ordering: .relaxed) {
                // Half-written files, replacements by rename and plain rewrites, as editors and sync tools do.
                let text = toggle ? good : String(good.prefix(good.count / 3))
                try? text.write(toFile: file, atomically: toggle, encoding: .utf8)
                toggle.toggle()
            }
        }
        writer.start()
        var loaded = 0
        var rejected = 0
        // At least 300 loads, and on until both outcomes have been seen: how often each happens depends on
        // the scheduler, so a fixed count alone sometimes sees only one of them on a loaded machine.
        var attempts = 0
        while attempts < 300 || (attempts < 20_000 && (loaded == 0 || rejected == 0)) {
            attempts += 1
            do {
                _ = try CHHapticPattern(contentsOf: URL(fileURLWithPath: file))
                loaded += 1
            } catch let error as CHHapticError {
                #expect(error.message.contains("swap.ahap"), "\(error)")
                rejected += 1
            }
        }
        stop.store(true, ordering: .relaxed)
        #expect(loaded + rejected == attempts)
        #expect(loaded > 0 && rejected > 0)
    }

    @Test func budgetExhaustedByRegistrationKeepsEarlierResourcesPlaying() throws {
        let click = packageRoot.appendingPathComponent("Resources/Audio/click.wav")
        // click.wav decodes to 960 frames × 1 channel × 4 bytes = 3840 bytes at 48 kHz: room for two.
        let engine = try offlineEngine(rate: 48000) { $0.resourceLimits.maxTotalDecodedBytes = 8000 }
        let first = try engine.registerAudioResource(click)
        _ = try engine.registerAudioResource(click)
        do {
            _ = try engine.registerAudioResource(click)
            Issue.record("the budget was not enforced")
        } catch let error as CHHapticError {
            #expect(error.code == .resourceNotAvailable)
            #expect(error.message.contains("click.wav"))
            #expect(error.message.contains("limit"))
        }
        let player = try engine.makePlayer(
            with: CHHapticPattern(events: [CHHapticEvent(audioResourceID: first, parameters: [], relativeTime: 0)], parameters: []))
        try player.start(atTime: 0)
        let left = channel(try render(engine, frames: 2000), 0, of: 3)
        #expect(peak(left, 0..<1000) > 0.01, "the first resource still plays")
    }

    @Test func truncatedAudioFileIsRejectedNamingIt() throws {
        let temporary = TemporaryDirectory("trunc")
        let folder = temporary.path
        let data = try Data(contentsOf: packageRoot.appendingPathComponent("Resources/Audio/click.wav"))
        let cut = folder + "/cut.wav"
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: cut))
        let engine = try offlineEngine()
        do {
            _ = try engine.registerAudioResource(URL(fileURLWithPath: cut))
            Issue.record("a truncated file was accepted")
        } catch let error as CHHapticError {
            #expect(error.code == .invalidAudioResource)
            #expect(error.message.contains("cut.wav"))
            #expect(error.message.contains("truncated"))
        }
    }
}
