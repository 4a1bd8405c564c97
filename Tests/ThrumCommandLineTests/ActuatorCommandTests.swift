import Foundation
import Testing
import Thrum
import ThrumServices
import ThrumTestSupport

@testable import ThrumCommandLine

/// Several actuators on the command line (docs/decisions.md "Output"): PATTERN@ACTUATOR, --layout, --profile NAME=PROFILE.
@Suite struct ActuatorCommandTests {
    let folder = TemporaryDirectory("actuators")

    @Test("PATTERN@NAME splits at the last @ before an actuator name; other arguments stay whole")
    func patternTargets() throws {
        #expect(PatternTarget("a.ahap@leftHandle") == PatternTarget("a.ahap@leftHandle"))
        let split = PatternTarget("dir/a.ahap@LEFTHANDLE")
        #expect(split.pattern == "dir/a.ahap" && split.locality?.rawValue == "leftHandle")
        #expect(PatternTarget("heartbeat@woofer").locality?.rawValue == "woofer")
        #expect(PatternTarget("heartbeat@handles").locality?.rawValue == "handles")
        for whole in ["heartbeat", "x@2x.ahap", "@leftHandle", "a@"] {
            #expect(PatternTarget(whole).pattern == whole && PatternTarget(whole).locality == nil, "\(whole)")
        }
        // An existing file is taken whole, even with a name after its @.
        let file = try folder.write("tap@woofer", "{}")
        #expect(PatternTarget(file).locality == nil)
    }

    @Test(arguments: [
        (
            ["--layout", "dualsense", "--channels", "L,R"],
            "thrum render: use either --layout or --channels, not both\n"
        ),
        (
            ["--layout", "ps5"],
            "thrum render: --layout ps5: unknown layout; known layouts: dualsense (or give --channels MAP)\n"
        ),
        (
            ["--profile", "woofer=lra"],
            "thrum render: --profile woofer=lra: the channel map L,R,H has no actuator 'woofer' (its actuators: default)\n"
        ),
        (
            ["--channels", "L,R,H:handles"],
            "thrum render: --channels: channel map: entry 3 'H:handles': 'handles' is a group of actuators; a channel carries one actuator (H:leftHandle, H:rightHandle)\n"
        ),
    ])
    func usageErrors(extra: [String], message: String) {
        #expect(runThrum(["render", "heartbeat", "-o", folder.file("never.wav")] + extra) == (64, "", message))
        #expect(!FileManager.default.fileExists(atPath: folder.file("never.wav")))
    }

    @Test("render A@leftHandle B@rightHandle C --layout dualsense: each handle's channel is its patterns rendered alone on H, bit for bit; audio channels exact zeros")
    func localitiesRenderAsAlone() throws {
        let (all, left, right) = (folder.file("all.wav"), folder.file("left.wav"), folder.file("right.wav"))
        let command = ["render", "heartbeat@leftHandle", "countdown@rightHandle", "sparkle", "--layout", "dualsense"]
        #expect(runThrum(command + ["--profile", "leftHandle=lra", "-o", all]).0 == 0)
        #expect(runThrum(["render", "heartbeat", "sparkle", "--channels", "H", "--profile", "lra", "-o", left]).0 == 0)
        #expect(runThrum(["render", "countdown", "sparkle", "--channels", "H", "-o", right]).0 == 0)
        let both = try #require(readFloatWAV(all))
        let (alone, other) = try (#require(readFloatWAV(left)), #require(readFloatWAV(right)))
        #expect(both.channels == 4 && alone.channels == 1 && other.channels == 1)
        let lanes = (0..<4).map { channel(both.samples, $0, of: 4) }
        // A render lasts as long as its longest pattern; the shorter one's channel is silent after its end.
        let padded = alone.samples + [Float](repeating: 0, count: max(0, lanes[2].count - alone.samples.count))
        let sameLeft = lanes[2].map(\.bitPattern) == padded.map(\.bitPattern)
        let sameRight = lanes[3].map(\.bitPattern) == other.samples.map(\.bitPattern)
        #expect(sameLeft, "leftHandle differs from heartbeat + sparkle alone with the lra profile")
        #expect(sameRight, "rightHandle differs from countdown + sparkle alone")
        #expect(lanes[2].contains { $0 != 0 } && lanes[3].contains { $0 != 0 })
        #expect(lanes[0].allSatisfy { $0.bitPattern == 0 } && lanes[1].allSatisfy { $0.bitPattern == 0 })
    }

    @Test("a locality the map lacks is a usage error listing the ones it has")
    func unknownLocality() {
        let result = runThrum(["render", "--layout", "dualsense", "heartbeat@leftTrigger", "-o", folder.file("x.wav")])
        #expect(
            result
                == (
                    64, "",
                    "thrum render: heartbeat@leftTrigger: the channel map L,R,H:leftHandle,H:rightHandle has no actuator "
                        + "'leftTrigger'; its localities: all, default, handles, leftHandle, rightHandle\n"
                ))
    }

    @Test("--watch replays one pattern")
    func watchTakesOnePattern() {
        #expect(
            runThrum(["play", "--watch", "heartbeat", "countdown@leftHandle"])
                == (64, "", "thrum play: --watch replays one AHAP file when it is saved; give one pattern\n"))
    }
}
