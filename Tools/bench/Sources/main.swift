// thrum-bench: Thrum's benchmark suite (Tools/benchmark.sh runs `thrum-bench all`).
import Foundation
import Glibc

let usage = """
    usage: thrum-bench COMMAND [options]
      throughput [--runs N]   600 s of haptics to a 3-ch float WAV: library, `thrum render` and sox
      voices                  render cost per 256-frame period at 1/16/64 voices
      alloc                   heap allocations: 2000 periods at 64 voices, and on the ALSA thread (exit 1 if not 0)
      sanity                  shows that the malloc counter counts (exit 1 if not)
      storm [--seconds S]     allocations/frees/retains/releases on the live render thread during a
                              command storm of S s (default 3) on ALSA null (exit 1 if not all 0);
                              --layout dualsense: two actuators, three engines of one device, panned
      latency [--runs N]      start to first frame, live on ALSA `pulse`
      rss                     peak RSS playing a 5 s pattern; `thrum play` vs aplay on ALSA `null`
      xruns [--no-load]       period/xrun matrix vs aplay on `pulse`
      analysis [--runs N]     audio-to-haptics analysis speed on 60 s of 48 kHz stereo vs sox stats
      card-xruns [--no-load] [--seconds S]  underruns vs aplay on the simulated card (64×2, 128×2, 256×4; mlockall)
      server-cpu              CPU per second of audio vs aplay on `pipewire` (Tools/pipewire-null-sink.sh)
      all [--no-load] [--runs N]  everything above, as a markdown table
      soak-offline [--hours H]   H hours (default 1) of looped playback offline: drift and memory
      soak-live [--minutes M]    M minutes (default 10) live on `pulse` with the other core busy: xruns
    """

func intOption(_ name: String, default value: Int) -> Int {
    let args = CommandLine.arguments
    if let i = args.firstIndex(of: name), i + 1 < args.count, let n = Int(args[i + 1]), n > 0 { return n }
    return value
}

func runAll() -> Int32 {
    let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    let noLoad = CommandLine.arguments.contains("--no-load")
    let runs = intOption("--runs", default: 1)
    let steps: [[String]] = [
        ["throughput", "--runs", "\(runs)"], ["voices"], ["alloc"], ["storm"], ["latency"], ["rss"],
        noLoad ? ["xruns", "--no-load"] : ["xruns"], ["analysis", "--runs", "\(max(runs, 3))"],
        noLoad ? ["card-xruns", "--no-load"] : ["card-xruns"],
        ["server-cpu"],
    ]
    var rows: [String] = []
    var notes: [String] = []
    var status: Int32 = 0
    for step in steps {
        progress("== \(step.joined(separator: " "))")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: own)
        process.arguments = step
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.standardError
        do {
            try process.run()
        } catch {
            notes.append("\(step[0]): could not start: \(error)")
            status = 1
            continue
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        for line in text.split(separator: "\n") {
            if line.hasPrefix("| ") { rows.append(String(line)) }
            if line.hasPrefix("note: ") { notes.append(String(line.dropFirst(6))) }
        }
        if process.terminationStatus != 0 {
            notes.append("`thrum-bench \(step[0])` exited with status \(process.terminationStatus)")
            status = 1
        }
    }
    var out = ["# Thrum benchmark results", ""]
    out += systemDescription()
    out += ["- Command: `Tools/benchmark.sh` (builds `thrum-bench` in release, starts the PulseAudio null sink and a private PipeWire, runs `thrum-bench all`)", ""]
    out += ["| figure | value | target | command |", "|---|---|---|---|"]
    out += rows
    if !notes.isEmpty {
        out += ["", "Notes:", ""]
        out += notes.map { "- \($0)" }
    }
    print(out.joined(separator: "\n"))
    return status
}

let command = CommandLine.arguments.dropFirst().first ?? ""
do {
    switch command {
    case "throughput": try benchThroughput(runs: intOption("--runs", default: 1))
    case "voices": try benchVoices()
    case "alloc": exit(try benchAlloc())
    case "sanity": exit(benchSanity())
    case "storm":
        let layout = CommandLine.arguments.firstIndex(of: "--layout").map { CommandLine.arguments[min($0 + 1, CommandLine.arguments.count - 1)] }
        guard layout == nil || layout == "dualsense" else {
            FileHandle.standardError.write(Data("thrum-bench storm: --layout takes dualsense\n".utf8))
            exit(64)
        }
        exit(try benchStorm(seconds: Double(intOption("--seconds", default: 3)), dualSense: layout == "dualsense"))
    case "latency": try benchLatency(runs: intOption("--runs", default: 10))
    case "rss": try benchRSS()
    case "analysis": try benchAnalysis(runs: intOption("--runs", default: 3))
    case "server-cpu": try benchServerCPU()
    case "xruns": try benchXruns(loads: CommandLine.arguments.contains("--no-load") ? [false] : [false, true])
    case "card-xruns":
        try benchCardXruns(
            loads: CommandLine.arguments.contains("--no-load") ? [false] : [false, true],
            seconds: intOption("--seconds", default: 20))
    case "all": exit(runAll())
    case "soak-offline": exit(try soakOffline(hours: Double(intOption("--hours", default: 1))))
    case "soak-live": exit(try soakLive(minutes: Double(intOption("--minutes", default: 10))))
    default:
        FileHandle.standardError.write(Data((usage + "\n").utf8))
        exit(command.isEmpty || command == "help" || command == "--help" ? 0 : 64)
    }
} catch {
    FileHandle.standardError.write(Data("thrum-bench \(command): \(error)\n".utf8))
    exit(1)
}
