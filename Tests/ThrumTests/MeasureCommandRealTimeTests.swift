import Foundation
import Testing
import Thrum
import ThrumTestSupport

/// `thrum measure` as a process on the simulated loops (Tools/dev/simcard/profiles.conf: `sim_lra` is a
/// band-pass actuator at 170 Hz, Q 8, 0.5 of gain, 96.5 frames from DAC to ADC, noise at −90 dBFS).
@Suite("thrum measure", .serialized)
struct MeasureCommandRealTimeTests {
    @Test("--json prints the contract's keys; --write-profile writes a profile play reads")
    func jsonAndProfile() throws {
        let card = try SimulatedCardRun(profile: "sim_lra")
        let folder = TemporaryDirectory("measure")
        let profilePath = folder.path + "/lra-measured.json"
        let run = try ThrumProcess.run([
            "measure", "--device", card.deviceName, "--input", card.deviceName, "--channels", "0,H", "--duration", "2",
            "--json", "--write-profile", profilePath, "--plot", folder.path + "/lra.svg",
        ])
        #expect(run.status == 0, "\(run.errors)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let latency = try #require(object["latency"] as? [String: Double])
        for key in ["median_ms", "p99_ms", "jitter_ms"] { #expect(latency[key] != nil, "latency.\(key)") }
        let f0 = try #require(object["resonance_hz"] as? Double)
        let q = try #require(object["q"] as? Double)
        #expect(abs(f0 / 170 - 1) <= 0.02 && abs(q / 8 - 1) <= 0.15, "f0 \(f0), Q \(q)")
        let band = try #require(object["band_hz"] as? [Double])
        #expect(band.count == 2 && band[0] < 170 && band[1] > 170 && abs((band[1] - band[0]) - 170.0 / 8) < 1.5, "\(band)")
        let response = try #require(object["response"] as? [[String: Double]])
        #expect(response.count >= 60)
        #expect(abs(response.first!["hz"]! - 20) < 1e-6 && abs(response.last!["hz"]! - 1000) < 1e-6)
        let ratios = zip(response.dropFirst(), response).map { $0["hz"]! / $1["hz"]! }
        #expect(ratios.allSatisfy { abs($0 / ratios[0] - 1) < 1e-3 }, "log-spaced")
        #expect(response.allSatisfy { $0["magnitude_db"] != nil && $0["phase_deg"] != nil })
        for key in ["thd_percent", "noise_floor_dbfs", "snr_db"] { #expect(object[key] as? Double != nil, "\(key)") }
        #expect(abs((object["noise_floor_dbfs"] as? Double ?? 0) + 90) < 1)
        #expect(abs((latency["device_ms"] ?? 0) - 96.5 / 48) < 0.05, "device \(latency["device_ms"] ?? 0) ms")
        let profile = try ActuatorProfile.decode(from: try Data(contentsOf: URL(fileURLWithPath: profilePath)))
        #expect(profile.equalization.count == 48 && profile.latency != nil)
        #expect(profile.name == "lra-measured")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/lra.svg"))
        // play and render read it.
        let render = try ThrumProcess.run(["render", "heartbeat", "--profile", profilePath, "-o", folder.path + "/h.wav"])
        #expect(render.status == 0, "\(render.errors)")
    }

    @Test("bad inputs: one line, the exit status, and no profile half-written")
    func badInputs() throws {
        let folder = TemporaryDirectory("measure-bad")
        let silent = try SimulatedCardRun(fields: """
            formats [ S32_LE ] channels 2 input_channels 1 rates [ 48000 ] input_source 2 actuator bandpass input_gain 0
            """)
        let profilePath = folder.path + "/p.json"
        let quiet = try ThrumProcess.run(
            ["measure", "-d", "custom", "-i", "custom", "--channels", "0,H", "--duration", "1", "--write-profile", profilePath],
            card: silent)
        #expect(quiet.status == 66, "\(quiet.errors)")
        #expect(quiet.errors.split(separator: "\n").count == 1 && quiet.errors.contains("input silent"), "\(quiet.errors)")
        #expect((try FileManager.default.contentsOfDirectory(atPath: folder.path)).isEmpty, "nothing written")
        let noInput = try ThrumProcess.run(["measure", "-d", "custom"], card: silent)
        #expect(noInput.status == 64 && noInput.errors.contains("--input"), "\(noInput.errors)")
        let nowhere = try ThrumProcess.run(
            ["measure", "-d", "custom", "-i", "custom", "--write-profile", folder.path + "/missing/p.json"], card: silent)
        #expect(nowhere.status == 73 && nowhere.errors.contains("does not exist"), "\(nowhere.errors)")
        let wrongPlot = try ThrumProcess.run(["measure", "-d", "custom", "-i", "custom", "--plot", folder.path + "/p.txt"], card: silent)
        #expect(wrongPlot.status == 64, "\(wrongPlot.errors)")
        let noDevice = try ThrumProcess.run(["measure", "-d", "no_such_device_here", "-i", "custom"], card: silent)
        #expect(noDevice.status == 69 && noDevice.errors.split(separator: "\n").count == 1, "\(noDevice.errors)")
    }
}
