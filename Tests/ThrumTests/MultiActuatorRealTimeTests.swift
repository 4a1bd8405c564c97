import Foundation
import Testing
import ThrumTestSupport

/// Several actuators live (issue 15): `thrum play` on the DualSense layout through the private PulseAudio
/// server's 4-channel null sink (`null4`, Tools/dev/pulse-null-sink.sh) equals `thrum render` of the same
/// command bit for bit on every channel. `Tools/test.sh` starts the server and runs these alone.
@Suite(.serialized, .enabled(if: pulseAvailable))
struct MultiActuatorRealTimeTests {
    @Test("thrum play A@leftHandle B@rightHandle C --layout dualsense on a 4-channel sink equals thrum render, bit for bit")
    func dualSenseLiveEqualsRender() throws {
        let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("thrum").path
        let folder = TemporaryDirectory("dualsense")
        let wav = folder.file("dualsense.wav")
        let patterns = "drum-roll@leftHandle countdown@rightHandle click-with-sound"
        #expect(system("'\(tool)' render \(patterns) --layout dualsense -o '\(wav)' >/dev/null") == 0)
        let rendered = try #require(readFloatWAV(wav))
        #expect(rendered.channels == 4)
        let expected = rendered.samples
        // `null4.monitor` in the order the ALSA `pulse` device sends the four channels.
        let capture = try MonitorCapture(
            device: "null4.monitor", channels: 4, channelMap: "front-left,front-right,rear-left,rear-right")
        // PULSE_SINK routes the ALSA `pulse` device's stream to the 4-channel sink. 16 periods (85 ms): bit for bit
        // does not depend on the buffer, and this VM's host stalls it for 20 ms and more at times.
        let status = system("PULSE_SINK=null4 '\(tool)' play \(patterns) --layout dualsense --device pulse --periods 16 >/dev/null")
        let captured = capture.finish()
        #expect(status == 0)

        // PulseAudio may drop the first frames of a new stream from the monitor: align on a stretch of the
        // left handle's signal 0.2 s in and compare every channel from there on.
        func lane(_ samples: [Float], _ k: Int) -> [Float] { stride(from: k, to: samples.count, by: 4).map { samples[$0] } }
        let skip = 9600
        let (want, got) = ((0..<4).map { lane(expected, $0) }, (0..<4).map { lane(captured, $0) })
        let probe = Array(want[2][skip..<(skip + 64)])
        #expect(probe.contains { $0 != 0 }, "the left handle sounds 0.2 s in")
        let found = try #require(
            (0..<(got[2].count - 64)).first { got[2][$0] == probe[0] && Array(got[2][$0..<($0 + 64)]) == probe },
            "the left handle's signal is not in the capture")
        let shift = found - skip
        for k in 0..<4 {
            let window = Array(got[k][(shift + skip)..<min(got[k].count, shift + want[k].count)])
            let same = window == Array(want[k][skip...])
            #expect(same, "channel \(k + 1): thrum play differs from thrum render")
        }
        #expect(want[3][skip...].contains { $0 != 0 }, "the right handle sounds after 0.2 s")
    }
}
