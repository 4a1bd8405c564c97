import Foundation
import RenderCore
import Thrum

// MARK: - Render cost against voices and actuators (issue 28)

/// `thrum-bench scale`: the render cost of one 256-frame period at 48 kHz (mean, p99 and max over 2000
/// periods after 50 warm-up periods, microseconds of wall time on this thread) against the number of
/// sounding voices (1, 16, 64, 256 on the live default map `L+H,R+H`) and against the number of actuator
/// channels (2, 8, 32 actuators, map `H:a0,H:a1,…`, 16 voices). One `json: {…}` line per setup, read by
/// Tools/benchmark.sh; progress on standard error.
func benchScale() throws {
    for voices in [1, 16, 64, 256] {
        try measureAndPrint(kind: "voices", count: voices, voices: voices, map: .speakers)
    }
    for actuators in [2, 8, 32] {
        let map = try ChannelMap(parsing: (0..<actuators).map { "H:a\($0)" }.joined(separator: ","))
        try measureAndPrint(kind: "actuators", count: actuators, voices: 16, map: map)
    }
}

private func measureAndPrint(kind: String, count: Int, voices: Int, map: ChannelMap) throws {
    progress("scale: \(count) \(kind) (\(voices) voices, \(map.channelCount) channels), 50 warm-up + 2000 periods of 256 frames")
    let cost = try measurePeriods(voices: voices, channelMap: map)
    print(
        #"json: {"kind": "\#(kind)", "count": \#(count), "voices": \#(voices), "channels": \#(map.channelCount), "#
            + #""mean_us": \#(fmt(cost.meanMicros, 2)), "p99_us": \#(fmt(cost.p99Micros, 2)), "#
            + #""max_us": \#(fmt(cost.maxMicros, 2)), "overflow": \#(cost.overflow)}"#)
    fflush(nil)
}
