import AudioResources
import Foundation
import Testing
import ThrumTestSupport

/// Issue 14 through the command line: audio file lengths in `info`, the bundled click at its file level,
/// looping a zero-length pattern, `check`'s notes on Thrum's own choices, pattern files of other extensions.
@Suite struct FidelityCommandTests {
    /// A folder with `sound.wav` (0.5 s of a 200 Hz sine at 8 kHz, amplitude 0.5) and `pattern.ahap` playing it at `time`.
    static func audioPattern(time: Double, extra: String = "") throws -> TemporaryDirectory {
        let folder = TemporaryDirectory("fidelity")
        let writer = try AudioFileWriter(path: folder.file("sound.wav"), sampleRate: 8000, channelCount: 1)
        try writer.write(sine(frequency: 200, rate: 8000, frames: 4000))
        try writer.close()
        try folder.write(
            "pattern.ahap",
            #"{"Version": 1.0, "Pattern": [{"Event": {"Time": \#(time), "EventType": "AudioCustom", "EventWaveformPath": "sound.wav"\#(extra)}}]}"#
        )
        return folder
    }

    @Test func infoCountsTheAudioFileInTheDuration() throws {
        let folder = try Self.audioPattern(time: 0.1)
        defer { withExtendedLifetime(folder) {} }  // the folder is deleted with its object
        let result = runThrum(["info", folder.file("pattern.ahap")])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("duration: 0.600 s"), "\(result.out)")
    }

    @Test func plotCountsTheAudioFileInTheDuration() throws {
        let folder = try Self.audioPattern(time: 0.1)
        defer { withExtendedLifetime(folder) {} }  // the folder is deleted with its object
        let svg = folder.file("plot.svg")
        let result = runThrum(["plot", folder.file("pattern.ahap"), "-o", svg])
        #expect(result.status == 0, "\(result.err)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.contains("pattern — 0.600 s"), "the title gives the pattern's length, its file's 0.5 s included")
    }

    @Test func renderLoopsAPatternThatIsOnlyAnAudioFile() throws {
        let folder = try Self.audioPattern(time: 0)
        defer { withExtendedLifetime(folder) {} }  // the folder is deleted with its object
        let output = folder.file("out.wav")
        let result = runThrum(["render", folder.file("pattern.ahap"), "--loops", "3", "-o", output, "--sample-rate", "8000"])
        #expect(result.status == 0, "\(result.err)")
        #expect(try AudioFileInfo.probe(output).frames == 12_000)
    }

    @Test func theBundledClickPlaysAtItsFileLevel() throws {
        let folder = TemporaryDirectory("fidelity")
        defer { withExtendedLifetime(folder) {} }  // the folder is deleted with its object
        let output = folder.file("click.wav")
        let result = runThrum(["render", "click-with-sound", "-o", output, "--channels", "L"])
        #expect(result.status == 0, "\(result.err)")
        // The file's own peak × AudioVolume 0.8 × cos(π/4) (centre pan), in dBFS. (The samples are read inside
        // `withUnsafeSamples`: the buffer lives only as long as its `DecodedAudio`.)
        let click = try AudioFileLoader.load(
            path: packageRoot.appendingPathComponent("Resources/Audio/click.wav").path, targetSampleRate: 48000)
        let filePeak = click.withUnsafeSamples { $0.reduce(0) { max($0, abs($1)) } }
        let expected = 20 * log10(Double(filePeak) * 0.8 * 0.5.squareRoot())
        let left = try AudioFileLoader.load(path: output, targetSampleRate: 48000).withUnsafeSamples { Array($0) }
        let measured = 20 * log10(Double(left.reduce(0) { max($0, abs($1)) }))
        #expect(abs(measured - expected) < 0.01, "rendered \(measured) dBFS, file level \(expected) dBFS")
    }

    @Test(arguments: [["--loop", "--duration", "1"], ["--loops", "2"]])
    func loopingAZeroLengthPatternIsAUsageError(flags: [String]) {
        let folder = TemporaryDirectory("fidelity")
        defer { withExtendedLifetime(folder) {} }  // the folder is deleted with its object
        let result = runThrum(["render", "tap", "-o", folder.file("tap.wav")] + flags)
        #expect(result.status == 64, "\(result.err)")
        #expect(result.err.contains("--loop-end S"), "\(result.err)")
        let withEnd = runThrum(
            ["render", "tap", "-o", folder.file("tap.wav"), "--loop-end", "0.25"] + flags)
        #expect(withEnd.status == 0, "\(withEnd.err)")
        // `thrum play tap --loop` (issue 14), on ALSA's null device.
        let play = runThrum(["play", "tap", "--device", "null"] + flags)
        #expect(play.status == 64, "\(play.err)")
        #expect(play.err.contains("--loop-end S"), "\(play.err)")
    }

    @Test func checkNotesThrumsChoicesForAudioFiles() throws {
        let folder = try Self.audioPattern(
            time: 0, extra: #", "EventDuration": 0.2, "EventParameters": [{"ParameterID": "AudioPitch", "ParameterValue": 0.5}]"#)
        defer { withExtendedLifetime(folder) {} }  // the folder is deleted with its object
        let result = runThrum(["check", folder.file("pattern.ahap")])
        #expect(result.status == 0)
        #expect(result.out.contains("warning") && result.out.contains("EventDuration"), "\(result.out)")
        #expect(result.out.contains("AudioPitch") && result.out.contains("varispeed"), "\(result.out)")
    }

    @Test func aPatternFileWithAnotherExtensionLoadsWithAWarning() throws {
        let folder = TemporaryDirectory("fidelity")
        defer { withExtendedLifetime(folder) {} }  // the folder is deleted with its object
        let path = try folder.write(
            "tap.txt", #"{"Version": 1.0, "Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient"}}]}"#)
        let check = runThrum(["check", path])
        #expect(check.status == 0)
        #expect(check.out.contains("warning") && check.out.contains(".ahap"), "\(check.out)")
        let render = runThrum(["render", path, "-o", folder.file("out.wav")])
        #expect(render.status == 0, "\(render.err)")
    }
}
