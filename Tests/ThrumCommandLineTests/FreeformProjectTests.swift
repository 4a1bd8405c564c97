import Foundation
import HapticFormats
import Testing
import ThrumTestSupport

/// Haptics Studio's Freeform Haptics clips (drawn by hand, no audio: `"audioAsset": {"channels": 1}`), and
/// a project whose clips do not all import: `thrum import` writes every clip it can, names the others at
/// their place and exits with the first failed clip's status; `thrum info` says which clips have audio.
@Suite struct FreeformProjectTests {
    /// A designed haptic with `amplitude` as its one envelope point after the start.
    static func haptic(amplitude: Double) -> String {
        """
        {"version": {"major": 1, "minor": 0, "patch": 0}, "metadata": {"editor": "Haptics Studio"},
          "signals": {"continuous": {"envelopes": {
            "amplitude": [{"time": 0, "amplitude": 0.25}, {"time": 0.2, "amplitude": \(amplitude)}, {"time": 0.3, "amplitude": 0}],
            "frequency": [{"time": 0, "frequency": 0.4}]}}}}
        """
    }

    /// `project.hasp` with Boom (audio/boom.wav), Sketch (Freeform: no audio) and, when `broken`, Bad (a
    /// haptic whose amplitude is out of range, and audio).
    static func writeProject(_ temporary: TemporaryDirectory, broken: Bool) throws -> String {
        let dir = temporary.path
        try FileManager.default.createDirectory(atPath: dir + "/audio", withIntermediateDirectories: true)
        try HaspProjectTests.writeWAV(HaspProjectTests.hits([0.2]), to: dir + "/audio/boom.wav")
        var clips = [
            """
            {"clipId": "a", "name": "Boom", "audioAsset": {"filename": "boom.wav", "path": "audio/boom.wav", "channels": 1},
             "haptic": \(haptic(amplitude: 0.5))}
            """,
            """
            {"clipId": "b", "name": "Sketch", "audioAsset": {"channels": 1}, "haptic": \(haptic(amplitude: 0.75))}
            """,
        ]
        if broken {
            clips.insert(
                """
                {"clipId": "c", "name": "Bad", "audioAsset": {"filename": "boom.wav", "path": "audio/boom.wav", "channels": 1},
                 "haptic": \(haptic(amplitude: 1.5))}
                """, at: 1)
        }
        _ = try temporary.write(
            "project.hasp",
            "{\"version\": {\"major\": 2, \"minor\": 0, \"patch\": 0}, \"metadata\": {\"name\": \"Sketches\"},\n"
                + "\"clips\": [\n" + clips.joined(separator: ",\n") + "\n]}")
        return dir
    }

    @Test func aFreeformClipIsWrittenAloneBesideClipsWithAudio() throws {
        let temporary = TemporaryDirectory("freeform")
        let dir = try Self.writeProject(temporary, broken: false)
        let result = runThrum(["import", dir + "/project.hasp", "-o", dir + "/out"])
        #expect(result.status == 0, "\(result.err)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir + "/out").sorted()
        #expect(names == ["Boom.haptic", "Boom.wav", "Sketch.haptic"], "Sketch has no audio to copy")
        let sketch = try #require(HapticFileDecoder.decode(contentsOfFile: dir + "/out/Sketch.haptic", mode: .strict).file)
        #expect(sketch.amplitude.map(\.amplitude) == [0.25, 0.75, 0], "the designed haptic as the project holds it")
    }

    @Test func aClipThatCannotBeWrittenIsNamedAndTheOthersAreWritten() throws {
        let temporary = TemporaryDirectory("freeform")
        let dir = try Self.writeProject(temporary, broken: true)
        let result = runThrum(["import", dir + "/project.hasp", "-o", dir + "/out", "--format", "ahap"])
        #expect(result.status == 65, "a clip's haptic with errors is bad data: \(result.err)")
        #expect(result.err.contains("amplitude out of range") && result.err.contains("(clip 'Bad';"), "\(result.err)")
        #expect(result.err.hasSuffix("thrum import: 1 clip not written: 'Bad'\n"), "\(result.err)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir + "/out").sorted()
        #expect(names == ["Boom.ahap", "Boom.wav", "Sketch.ahap"])
        #expect(result.out.contains("wrote 2 clips of \(dir)/project.hasp to \(dir)/out: Boom, Sketch"), "\(result.out)")
    }

    @Test func infoSaysWhichClipsHaveAudio() throws {
        let temporary = TemporaryDirectory("freeform")
        let dir = try Self.writeProject(temporary, broken: false)
        let text = runThrum(["info", dir + "/project.hasp"])
        #expect(text.status == 0, "\(text.err)")
        #expect(text.out.contains("project: Sketches (Haptics Studio project 2.0.0), 2 clips, 1 with audio"), "\(text.out)")
        #expect(text.out.contains("clip 2: Sketch\n  audio: none (Freeform Haptics: the designed haptic alone)"), "\(text.out)")
        let json = runThrum(["info", "--json", dir + "/project.hasp"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let clips = try #require(object["clips"] as? [[String: Any]])
        #expect(clips.map { $0["hasAudio"] as? Bool } == [true, false])
    }
}
