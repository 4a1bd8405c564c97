// thrum-bench: Thrum's benchmark suite (Tools/benchmark.sh runs `thrum-bench all`).
import Foundation
import Glibc

let usage = """
    usage: thrum-bench COMMAND [options]   (Tools/benchmark.sh runs these and compares with peers)
      library-render PATTERN OUT  600 s of PATTERN to a 3-ch float WAV through the library; prints its time
      scale                   render cost per 256-frame period: voices 1/16/64/256, actuators 2/8/32 (JSON lines)
      alloc                   heap allocations: 2000 periods at 64 voices, and on the ALSA thread (exit 1 if not 0)
      sanity                  shows that the malloc counter counts (exit 1 if not)
      storm [--seconds S]     allocations/frees/retains/releases on the live render thread during a
                              command storm of S s (default 3) on ALSA null (exit 1 if not all 0);
                              --layout dualsense: two actuators, three engines of one device, panned
      latency [--runs N]      start to first period written, in-process, live on ALSA `pulse`
      trigger [--runs N]      player.start(atTime: CHHapticTimeImmediate) → first frame at the DAC on the simulated
                              card (sim_scarlett; needs ALSA_CONFIG_PATH as Tools/benchmark.sh sets it), 3 cells
      soak-offline [--hours H]   H hours (default 1) of looped playback offline: drift and memory
      soak-live [--minutes M]    M minutes (default 10) live on `pulse` with the other core busy: xruns
    """

func intOption(_ name: String, default value: Int) -> Int {
    let args = CommandLine.arguments
    if let i = args.firstIndex(of: name), i + 1 < args.count, let n = Int(args[i + 1]), n > 0 { return n }
    return value
}

let command = CommandLine.arguments.dropFirst().first ?? ""
do {
    switch command {
    case "library-render":
        let arguments = CommandLine.arguments
        guard arguments.count == 4 else { throw BenchFailure("usage: thrum-bench library-render PATTERN OUT.wav") }
        try benchLibraryRender(pattern: arguments[2], output: arguments[3])
    case "scale": try benchScale()
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
    case "trigger": try benchTrigger(runs: intOption("--runs", default: 200))
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
