import ALSAOutput
import Foundation
import Glibc
import Thrum

// MARK: - Underruns on the simulated card (issue 11)

/// The simulated card the low-latency figures run on: `sim_scarlett` (S32_LE, 2 channels, 48 kHz, periods
/// from 16 frames), which counts its own underruns — the same counter for Thrum and for aplay.
private let cardProfile = "sim_scarlett"

/// Period × periods of the table: 64 × 2 (1.3 ms / 2.7 ms), 128 × 2 and 256 × 4.
private let cardSetups = [(64, 2), (128, 2), (256, 4)]

/// `thrum-bench card-xruns [--no-load] [--seconds S]`: underruns of `thrum play` and of `aplay` (the same
/// pattern rendered by `thrum render --format pcm32`) at the same period and buffer on the simulated card,
/// idle and with the other core busy; then Thrum at 64 × 2 with and without `mlockall(MCL_CURRENT |
/// MCL_FUTURE)`. Needs `THRUM_SIMCARD_PLUGIN` and `THRUM_SIMCARD_PROFILES` (Tools/benchmark.sh sets them).
func benchCardXruns(loads: [Bool], seconds: Int) throws {
    let command = "`thrum-bench card-xruns`"
    let environment = ProcessInfo.processInfo.environment
    guard let plugin = environment["THRUM_SIMCARD_PLUGIN"], let profiles = environment["THRUM_SIMCARD_PROFILES"],
        FileManager.default.fileExists(atPath: plugin), FileManager.default.fileExists(atPath: profiles)
    else {
        emit(Row(figure: "Underruns on the simulated card vs aplay", value: "skipped: simulated card not built", target: "Thrum ≤ aplay", command: command))
        note("card-xruns: run through Tools/benchmark.sh, which builds Tools/simcard and sets THRUM_SIMCARD_PLUGIN and THRUM_SIMCARD_PROFILES")
        return
    }
    guard let thrum = thrumExecutable() else { throw BenchFailure("`thrum` is not next to thrum-bench; build it in release") }
    // This process and its children (thrum, aplay) see the simulated cards; nothing system-wide changes.
    setenv("ALSA_CONFIG_PATH", "/usr/share/alsa/alsa.conf:\(profiles)", 1)
    let dir = try TempDir("card-xruns")
    defer { dir.cleanup() }
    let wav = dir.path("pattern.wav")
    let pattern = ["textured-drag", "--duration", "\(seconds)", "--channels", "L+H,R+H"]
    let render = try run(thrum, ["render"] + pattern + ["--format", "pcm32", "-o", wav])
    guard render.status == 0 else { throw BenchFailure("thrum render failed: \(render.stderr)") }

    var runIndex = 0
    func card() throws -> String {
        runIndex += 1
        let folder = dir.path("run\(runIndex)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }
    for loaded in loads {
        let label = loaded ? "other core busy" : "idle"
        for (period, periods) in cardSetups {
            let load = loaded ? try CPULoad() : nil
            defer { load?.stop() }
            let milliseconds = "\(fmt(Double(period) * 1000 / 48_000, 1)) ms / \(fmt(Double(period * periods) * 1000 / 48_000, 1)) ms"
            progress("card-xruns: \(period) × \(periods), \(label): thrum play")
            let thrumFolder = try card()
            let played = try run(thrum, ["play"] + pattern + [
                "--device", "\(cardProfile):DIR=\(thrumFolder)", "--period", "\(period)", "--periods", "\(periods)",
            ])
            progress("card-xruns: \(period) × \(periods), \(label): aplay")
            let aplayFolder = try card()
            let aplay = try run("aplay", [
                "-q", "-D", "\(cardProfile):DIR=\(aplayFolder)", "--period-size=\(period)", "--buffer-size=\(period * periods)", wav,
            ])
            load?.stop()
            emit(Row(
                figure: "Underruns in \(seconds) s on the simulated card, period \(period) × \(periods) (\(milliseconds)), \(label): `thrum play` / aplay",
                value: "\(underruns(thrumFolder, played.status)) / \(underruns(aplayFolder, aplay.status))",
                target: period == 128 && loaded ? "0 / —; Thrum ≤ aplay" : "Thrum ≤ aplay", command: command))
        }
    }
    for loaded in loads {
        let label = loaded ? "other core busy" : "idle"
        var counts: [String] = []
        for lock in [false, true] {
            progress("card-xruns: 64 × 2, \(label), in-process engine, mlockall \(lock ? "on" : "off")")
            let load = loaded ? try CPULoad() : nil
            defer { load?.stop() }
            let folder = try card()
            if lock { mlockall(MCL_CURRENT | MCL_FUTURE) }
            defer { if lock { munlockall() } }
            counts.append(underruns(folder, try playOnCard(folder: folder, seconds: seconds) ? 0 : 1))
        }
        emit(Row(
            figure: "Underruns in \(seconds) s, period 64 × 2, \(label), engine in-process: `mlockall(MCL_CURRENT | MCL_FUTURE)` off / on",
            value: counts.joined(separator: " / "), target: "—", command: command))
    }
    note("card-xruns: the simulated card (Tools/simcard, profile \(cardProfile)) counts underruns itself, for both tools; `thrum play` runs with SCHED_FIFO when allowed (aplay never asks for it), aplay plays the same pattern rendered by `thrum render --format pcm32`; \"other core busy\" = `yes > /dev/null` alongside")
}

/// The card's own underrun count, or the exit status when the player failed.
private func underruns(_ folder: String, _ status: Int32) -> String {
    let stats = (try? String(contentsOfFile: folder + "/\(cardProfile).stats", encoding: .utf8)) ?? ""
    let count = stats.split(separator: "\n").first { $0.hasPrefix("underruns=") }.map { String($0.dropFirst(10)) } ?? "?"
    return status == 0 ? count : "\(count) (exit \(status))"
}

/// Plays the live test pattern for `seconds` on the card from this process (engine options as `thrum play`
/// uses them, SCHED_FIFO 70); true when it played to the end.
private func playOnCard(folder: String, seconds: Int) throws -> Bool {
    var options = liveOptions(periodFrames: 64, periodCount: 2)
    options.output = .device("\(cardProfile):DIR=\(folder)")
    _ = try playLive(try livePattern(length: Double(seconds)), length: Double(seconds), options: options)
    return true
}
