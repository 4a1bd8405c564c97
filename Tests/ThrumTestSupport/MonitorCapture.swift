import Foundation

/// Records a null sink's monitor as raw float32 at 48 kHz: by default `null.monitor` in stereo.
public final class MonitorCapture {
    public let path = NSTemporaryDirectory() + "thrum-monitor-\(UUID().uuidString).raw"
    public let process = Process()

    /// - Parameters:
    ///   - device: the monitor source to record.
    ///   - channels: channels recorded, interleaved.
    ///   - channelMap: PulseAudio channel positions (`front-left,…`) when the default order for `channels`
    ///     is not the order the ALSA `pulse` device sends them.
    public init(device: String = "null.monitor", channels: Int = 2, channelMap: String? = nil) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/parec")
        process.arguments = [
            "--device=\(device)", "--format=float32le", "--rate=48000", "--channels=\(channels)", "--raw",
            "--latency-msec=10",
        ] + (channelMap.map { ["--channel-map=\($0)"] } ?? [])
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try process.run()
        usleep(400_000)  // let parec connect before anything plays
    }

    /// Stops the recording and returns what it caught, interleaved samples in −1…1.
    public func finish() -> [Float] {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        defer { unlink(path) }
        let data = FileManager.default.contents(atPath: path) ?? Data()
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
}
