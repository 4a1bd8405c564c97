import Foundation
import Testing

@testable import AudioResources

@Suite("Decoded-memory budget")
struct BudgetTests {
    @Test("reserving past the budget fails with the message; earlier reservations stay")
    func overBudget() throws {
        let budget = AudioResourceBudget(limitBytes: 1000)
        try budget.reserve(600, for: "a.wav")
        #expect(budget.usedBytes == 600)
        let error = expectAudioError { try budget.reserve(500, for: "Sounds/b.wav") }
        #expect(error == .budgetExceeded(path: "Sounds/b.wav", decodedBytes: 500, used: 600, limit: 1000))
        #expect(error?.isLimitViolation == true)
        #expect(
            error?.description
                == "audio file 'Sounds/b.wav' needs 500 bytes of decoded samples, but 600 bytes of the 1000 bytes allowed for all audio resources are already in use (unregister other audio resources, use shorter or mono files, or raise the limit with --max-audio-memory)"
        )
        #expect(budget.usedBytes == 600)
        #expect(budget.availableBytes == 400)
        try budget.reserve(400, for: "c.wav")  // exactly fills it
        #expect(budget.usedBytes == 1000)
        budget.release(600)
        #expect(budget.usedBytes == 400)
        try budget.reserve(500, for: "Sounds/b.wav")
        #expect(budget.usedBytes == 900)
        budget.release(5000)
        #expect(budget.usedBytes == 0)
    }

    @Test("the default budget is 92 160 000 bytes and messages read in MB")
    func defaults() throws {
        let budget = AudioResourceBudget()
        #expect(budget.limitBytes == 92_160_000)
        try budget.reserve(90_000_000, for: "a.wav")
        let error = expectAudioError { try budget.reserve(8_467_200, for: "b.wav") }
        #expect(error?.description.contains("audio file 'b.wav' needs 8.5 MB of decoded samples, but 90.0 MB of the 92.2 MB allowed") == true)
    }

    @Test("reserving a DecodedAudio uses its byteCount")
    func reserveAudio() throws {
        let budget = AudioResourceBudget(limits: AudioResourceLimits(maxTotalDecodedBytes: 20))
        let audio = DecodedAudio(samples: [0, 0, 0, 0], channelCount: 2, sampleRate: 48000, sourcePath: "x.wav")
        try budget.reserve(audio)
        #expect(budget.usedBytes == 16)
        let error = expectAudioError { try budget.reserve(audio, file: "y.wav") }
        #expect(error == .budgetExceeded(path: "y.wav", decodedBytes: 16, used: 16, limit: 20))
    }

    @Test("concurrent reservations never exceed the limit")
    func concurrent() async {
        let budget = AudioResourceBudget(limitBytes: 10_000)
        let successes = await withTaskGroup(of: Int.self) { group in
            for i in 0..<200 {
                group.addTask {
                    do {
                        try budget.reserve(100, for: "f\(i).wav")
                        return 1
                    } catch {
                        return 0
                    }
                }
            }
            return await group.reduce(0, +)
        }
        #expect(successes == 100)
        #expect(budget.usedBytes == 10_000)
    }
}

@Test("localizedDescription is the one-line message")
func localizedDescriptionMatches() {
    let error: any Error = AudioResourceError.absolutePathNotAllowed(path: "/x.wav")
    #expect(error.localizedDescription == (error as! AudioResourceError).description)
    #expect(!(error as! AudioResourceError).description.contains("\n"))
}
