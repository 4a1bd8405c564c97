import AudioResources
import Foundation
import Synchronization
import Testing
import Thrum

/// Issue 13, problem 9: confinement is decided on the file that is read, not on a path looked at earlier.
@Suite("Resource confinement at open time")
struct ResourceConfinementTests {
    /// Writes a mono float WAV of `seconds` at 8 kHz.
    static func writeWAV(_ path: String, seconds: Double) throws {
        let writer = try AudioFileWriter(path: path, sampleRate: 8000, channelCount: 1)
        try writer.write([Float](repeating: 0.25, count: Int(seconds * 8000)))
        try writer.close()
    }

    static func audioPattern(_ waveformPath: String, folder: String) -> CHHapticPattern {
        CHHapticPattern(
            data: PatternData(events: [EventData(type: .audioCustom, time: 0, waveformPath: waveformPath)]),
            sourceFolder: folder)
    }

    /// `sub` inside the pattern's folder is swapped, as fast as possible, between a real folder holding a
    /// short `a.wav` and a symbolic link to an outside folder holding a long `a.wav` (over the length limit).
    /// A player made meanwhile may fail to find the file or refuse it as outside, but it must never have
    /// read the outside file: a length-limit error would prove it did.
    @Test("swapping a folder for a symbolic link while players are made never reads the outside file")
    func symlinkSwapRace() throws {
        let base = FileManager.default.temporaryDirectory.path + "/thrum-confine-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: base) }
        let patterns = base + "/patterns"
        let stash = patterns + "/real"
        try FileManager.default.createDirectory(atPath: stash, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: base + "/outside", withIntermediateDirectories: true)
        try Self.writeWAV(stash + "/a.wav", seconds: 0.05)
        try Self.writeWAV(base + "/outside/a.wav", seconds: 1)
        try FileManager.default.createSymbolicLink(atPath: patterns + "/link", withDestinationPath: base + "/outside")

        let stop = Atomic<Bool>(false)
        let swapper = Thread {
            let sub = patterns + "/sub"
            while !stop.load(ordering: .relaxed) {
                rename(stash, sub)
                rename(sub, stash)
                rename(patterns + "/link", sub)
                rename(sub, patterns + "/link")
            }
        }
        swapper.start()
        defer { stop.store(true, ordering: .relaxed) }

        var outsideReads = 0
        var loaded = 0
        for _ in 0..<10000 {
            // A fresh engine each time: an engine loads each file once.
            let engine = try offlineEngine { $0.resourceLimits.maxDurationSeconds = 0.5 }
            do {
                _ = try engine.makePlayer(with: Self.audioPattern("sub/a.wav", folder: patterns))
                loaded += 1
            } catch let error as CHHapticError where error.code == .resourceNotAvailable {
                outsideReads += 1
            } catch {
                // Not found, or refused as outside the folder: both are correct answers.
            }
            engine.stop()
        }
        stop.store(true, ordering: .relaxed)
        #expect(outsideReads == 0, "the outside file was read \(outsideReads) times in 10000 loads")
        #expect(loaded > 0, "the inside file was never loaded: the race was not exercised")
    }

    /// The error for a path outside the allowed folders is the same whether or not the outside file exists.
    @Test("an outside path gets one message whether or not the file exists")
    func outsideExistenceIsNotRevealed() throws {
        let base = FileManager.default.temporaryDirectory.path + "/thrum-confine-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: base) }
        let patterns = base + "/patterns"
        try FileManager.default.createDirectory(atPath: patterns, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: base + "/outside", withIntermediateDirectories: true)
        try Self.writeWAV(base + "/outside/real.wav", seconds: 0.05)
        try FileManager.default.createSymbolicLink(atPath: patterns + "/to-real.wav", withDestinationPath: base + "/outside/real.wav")
        try FileManager.default.createSymbolicLink(atPath: patterns + "/to-none.wav", withDestinationPath: base + "/outside/none.wav")

        func message(_ path: String) -> String {
            let engine = try! offlineEngine()
            defer { engine.stop() }
            do {
                _ = try engine.makePlayer(with: Self.audioPattern(path, folder: patterns))
                return "loaded"
            } catch {
                return "\(error)".replacingOccurrences(of: path, with: "PATH")
            }
        }
        #expect(message("../outside/real.wav") == message("../outside/none.wav"))
        #expect(message("to-real.wav") == message("to-none.wav"))
        #expect(message("to-real.wav") == message("../outside/real.wav"))
        #expect(message("to-real.wav").contains("outside the allowed folders"))
    }
}
