import Foundation
import Testing
import ThrumTestSupport

/// One `thrum play` on a simulated card against `thrum render --format` of the same pattern and flags.
struct CardCase: Sendable, CustomStringConvertible {
    var profile: String
    var channels: String
    var renderFormat: String
    /// What the card itself reports it ran (its statistics), independent of Thrum's own account.
    var cardFormat: String
    var cardChannels: Int
    var rate = 48_000
    var playArguments: [String] = []
    /// simcard keys for a card defined on the spot (`profile` is then "custom").
    var fields: String?
    var description: String { fields == nil ? profile : "custom (\(cardFormat))" }
}

/// `thrum play` on hardware-like cards: negotiation, bit-exact output, refusals, faults, `thrum devices`.
@Suite(.serialized)
struct SimulatedCardCLIRealTimeTests {
    static let cases: [CardCase] = [
        .init(profile: "sim_hda", channels: "M,H", renderFormat: "pcm32", cardFormat: "S32_LE", cardChannels: 2),
        .init(profile: "sim_scarlett", channels: "L+H,R+H", renderFormat: "pcm32", cardFormat: "S32_LE", cardChannels: 2),
        .init(profile: "sim_umc", channels: "L,R,H", renderFormat: "pcm24", cardFormat: "S24_3LE", cardChannels: 4),
        .init(profile: "sim_8ch", channels: "L,R,H", renderFormat: "pcm32", cardFormat: "S32_LE", cardChannels: 8),
        .init(profile: "sim_rme", channels: "M,H", renderFormat: "pcm32", cardFormat: "S32_LE", cardChannels: 8),
        .init(profile: "sim_dongle", channels: "L+H,R+H", renderFormat: "pcm16", cardFormat: "S16_LE", cardChannels: 2),
        .init(profile: "sim_44k", channels: "M,H", renderFormat: "pcm16", cardFormat: "S16_LE", cardChannels: 2, rate: 44_100),
        .init(profile: "sim_step32", channels: "M,H", renderFormat: "pcm32", cardFormat: "S32_LE", cardChannels: 2,
              playArguments: ["--period", "100"]),
        .init(profile: "sim_suspend", channels: "M,H", renderFormat: "pcm32", cardFormat: "S32_LE", cardChannels: 2,
              playArguments: ["--loops", "2"]),
        .init(profile: "sim_fast", channels: "M,H", renderFormat: "pcm32", cardFormat: "S32_LE", cardChannels: 2),
        .init(profile: "custom", channels: "L,R,H", renderFormat: "float", cardFormat: "FLOAT_LE", cardChannels: 3,
              fields: "formats [ FLOAT_LE ]\nchannels_min 1\nchannels_max 8"),
    ]

    private func writePattern(in run: SimulatedCardRun) throws -> String {
        let path = run.directory + "/mixed.ahap"
        try mixedTestPattern.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func card(_ c: CardCase) throws -> SimulatedCardRun {
        try c.fields.map { try SimulatedCardRun(fields: $0) } ?? SimulatedCardRun(profile: c.profile)
    }

    /// Plays on a fresh card through 16 periods: what these tests compare (negotiation, the samples) does
    /// not depend on the buffer, and a fresh-clone run lost audio at 4 periods of 96 frames (8 ms) in three
    /// attempts in a row (the machine's host takes its CPUs away for seconds, docs/testing.md). A run in
    /// which the card underran anyway is repeated (repeatWhileTheMachineSpoils).
    private func play(_ c: CardCase, extra: [String] = []) throws -> (SimulatedCardRun, ThrumProcess) {
        try repeatWhileTheMachineSpoils("the card underran") {
            let run = try card(c)
            let pattern = try writePattern(in: run)
            let result = try ThrumProcess.run(
                ["play", pattern, "--device", run.deviceName, "--channels", c.channels, "--periods", "16", "-v"]
                    + c.playArguments + extra,
                card: run)
            if run.stat("underruns") == 0 || result.status != 0 { return .done((run, result)) }
            return .spoiled("\(run.stat("underruns")) underruns")
        }
    }

    /// For every profile: `thrum play` opens it and the card receives exactly `thrum render --format`'s
    /// samples, from the very first frame (no buffer of silence before the pattern); channels the map does
    /// not fill, and everything after the pattern, are silent.
    @Test(arguments: cases)
    func playEqualsRenderBitForBit(_ c: CardCase) throws {
        let (run, played) = try play(c)
        #expect(played.status == 0, "\(played.errors)")
        let stats = run.stats()
        #expect(stats["format"] == c.cardFormat)
        #expect(stats["channels"] == String(c.cardChannels))
        #expect(stats["rate"] == String(c.rate))
        #expect(played.errors.contains("\(c.cardFormat), \(c.cardChannels) channels"), "\(played.errors)")
        if c.rate != 48_000 { #expect(played.errors.contains("playing at \(c.rate) Hz, the nearest rate it has")) }
        if c.profile == "sim_step32" { #expect(stats["period"] == "96" && played.errors.contains("period 96 × 16")) }
        if c.profile == "sim_suspend" { #expect(run.stat("resumes") == 1) }

        let rendered = run.directory + "/render.wav"
        let render = try ThrumProcess.run([
            "render", run.directory + "/mixed.ahap", "-o", rendered, "--format", c.renderFormat, "--channels", c.channels,
            "--sample-rate", String(c.rate),
        ] + (c.profile == "sim_suspend" ? ["--loops", "2"] : []))
        #expect(render.status == 0, "\(render.errors)")
        let want = try Samples(wav: rendered)
        let got = Samples(capture: run.capture(), format: c.cardFormat, channels: c.cardChannels)
        let mapChannels = want.channels
        try #require(want.frames > 0)
        try #require(got.frames >= want.frames, "captured \(got.frames) frames, rendered \(want.frames)")
        var firstMismatch: (frame: Int, channel: Int)?
        var mismatches = 0
        for frame in 0..<got.frames {
            for channel in 0..<c.cardChannels {
                let expected = frame < want.frames && channel < mapChannels ? want.value(frame: frame, channel: channel) : 0
                if got.value(frame: frame, channel: channel) != expected {
                    mismatches += 1
                    if firstMismatch == nil { firstMismatch = (frame, channel) }
                }
            }
        }
        #expect(mismatches == 0, "first at frame \(firstMismatch?.frame ?? -1), channel \(firstMismatch?.channel ?? -1)")
        #expect((0..<mapChannels).contains { want.value(frame: 1, channel: $0) != 0 }, "the pattern sounds from its first frames")
    }

    /// --duration is pattern time: play stops on the frame `render --duration` ends on (then the player's
    /// 5 ms stop fade, RendererConfiguration.stopFadeSeconds, which never raises the level).
    @Test func durationCountsPatternTime() throws {
        let c = Self.cases[1]
        let (run, played) = try play(c, extra: ["--duration", "0.25"])
        #expect(played.status == 0, "\(played.errors)")
        let rendered = run.directory + "/render.wav"
        let render = try ThrumProcess.run([
            "render", run.directory + "/mixed.ahap", "-o", rendered, "--format", "pcm32", "--channels", c.channels,
            "--duration", "0.25",
        ])
        #expect(render.status == 0)
        let want = try Samples(wav: rendered)
        let got = Samples(capture: run.capture(), format: "S32_LE", channels: 2)
        #expect(want.frames == 12_000)
        try #require(got.frames >= want.frames)
        #expect(Array(got.values[0..<want.values.count]) == want.values)
        let fade = 240 * 2  // 5 ms at 48 kHz, 2 channels
        let peak = want.values.suffix(4 * fade).map { abs($0) }.max() ?? 0  // the last 20 ms
        let fadeEnd = min(want.values.count + fade, got.values.count)
        #expect(got.values[want.values.count..<fadeEnd].allSatisfy { abs($0) <= peak })
        #expect(got.values[fadeEnd...].allSatisfy { $0 == 0 }, "silence after --duration and the fade")
    }

    @Test func refusalsNameTheLimitAndThrumsOwnFixFirst() throws {
        let scarlett = try SimulatedCardRun(profile: "sim_scarlett")
        let channels = try ThrumProcess.run(["play", "tap", "--device", scarlett.deviceName, "--channels", "L,R,H"])
        #expect(channels.status == 69)
        #expect(channels.errors.contains("--channels L,R,H needs 3 channels, it has 2"))
        let fix = try #require(channels.errors.range(of: "try --channels M,H"))
        let plug = try #require(channels.errors.range(of: "plughw:"))
        #expect(fix.lowerBound < plug.lowerBound)
        #expect(channels.errors.split(separator: "\n").count == 1)

        let only44 = try SimulatedCardRun(profile: "sim_44k")
        let rate = try ThrumProcess.run(["play", "tap", "--device", only44.deviceName, "--sample-rate", "48000"])
        #expect(rate.status == 69)
        #expect(rate.errors.contains("48000 Hz asked, it plays 44100 Hz; try --sample-rate 44100, or --device plughw:"))

        let unsigned = try SimulatedCardRun(fields: "formats [ U8 ]")
        let format = try ThrumProcess.run(["play", "tap", "--device", unsigned.deviceName], card: unsigned)
        #expect(format.status == 69)
        #expect(format.errors.contains("sample format: it accepts U8, none of which Thrum writes"))
        #expect(format.errors.contains("use --device plughw:"))
    }

    /// The card disappears after 1 s (USB unplug): `thrum play` exits 69 naming the device.
    @Test func vanishingCardExits69NamingTheDevice() throws {
        let run = try SimulatedCardRun(profile: "sim_vanish")
        let pattern = try writePattern(in: run)
        let result = try ThrumProcess.run(["play", pattern, "--device", run.deviceName, "--loop", "--duration", "5"])
        #expect(result.status == 69)
        #expect(result.errors.contains("ALSA device '\(run.deviceName)'"))
        #expect(result.errors.contains("the device went away"))
        #expect(run.stat("vanished") == 1)
    }

    /// Without real-time scheduling `thrum play` says so once, at start, with how to grant it.
    @Test func refusedRealTimeSchedulingIsSaidOnceWithTheRemedy() throws {
        let run = try SimulatedCardRun(profile: "sim_scarlett")
        // As root, drop CAP_SYS_NICE (root's rtprio limit is 0); as another user the limit already refuses.
        let prefix = getuid() == 0 ? ["/usr/bin/setpriv", "--bounding-set", "-sys_nice", "--inh-caps", "-sys_nice", "--"] : []
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(__RLIMIT_RTPRIO.rawValue), &limit)
        try #require(getuid() == 0 || limit.rlim_cur < 70, "real-time scheduling is allowed here (rtprio limit \(limit.rlim_cur))")
        let result = try ThrumProcess.run(["play", "tap", "--device", run.deviceName], prefix: prefix)
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errors.components(separatedBy: "real-time scheduling refused").count == 2, "\(result.errors)")
        #expect(result.errors.contains("rtprio"))
        #expect(result.errors.contains("CAP_SYS_NICE"))
    }

    /// `thrum devices` shows what each simulated card accepts, as its profile defines it.
    @Test func devicesListTheCardsCapabilities() throws {
        try SimulatedCard.require()
        let text = try ThrumProcess.run(["devices"])
        #expect(text.status == 0)
        let lines = text.output.split(separator: "\n").map(String.init)
        let umc = try #require(lines.firstIndex { $0.hasPrefix("sim_umc ") })
        #expect(lines[umc + 1].trimmingCharacters(in: .whitespaces)
            == "S24_3LE · 4 channels · 44100, 48000, 88200, 96000, 176400, 192000 Hz · period 16–8192 frames × 2–64 · "
                + "RW_INTERLEAVED, MMAP_INTERLEAVED")
        let rme = try #require(lines.firstIndex { $0.hasPrefix("sim_rme ") })
        #expect(lines[rme + 1].hasSuffix("S32_LE · 8 channels · 44100, 48000, 96000 Hz · period 16–8192 frames × 2–64 · "
            + "RW_NONINTERLEAVED, MMAP_NONINTERLEAVED"))

        let json = try ThrumProcess.run(["devices", "--json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        let dongle = try #require(list.first { $0["name"] as? String == "sim_dongle" }?["capabilities"] as? [String: Any])
        #expect(dongle["formats"] as? [String] == ["S16_LE"])
        #expect(dongle["rates"] as? [Int] == [48_000])
        #expect(dongle["channels"] as? [String: Int] == ["min": 2, "max": 2])
        #expect(dongle["periodFrames"] as? [String: Int] == ["min": 48, "max": 8192])
        #expect(dongle["periods"] as? [String: Int] == ["min": 2, "max": 16])
        let step = try #require(list.first { $0["name"] as? String == "sim_step32" }?["capabilities"] as? [String: Any])
        #expect(step["periodFrames"] as? [String: Int] == ["min": 32, "max": 4096])
    }
}
