import ALSAOutput
import ActuatorMeasurement
import AudioResources
import FoundationEssentials
import FoundationStandIns
import Glibc
import RenderCore
import Thrum

/// `thrum measure`: a thin door on `ActuatorMeasurement` (docs/measure.md).
let measureCommand = Subcommand(
    spec: CommandSpec(
        name: "measure",
        summary: "Measure an actuator through a sensor on an input: latency, response, resonance; write a profile.",
        positionalUsage: "", minPositionals: 0, maxPositionals: 0,
        options: [
            .value(.device, short: "d", placeholder: "NAME", values: .device, help: "ALSA playback device driving the actuator (default: default)"),
            .value(.input, short: "i", placeholder: "NAME", help: "ALSA capture device the sensor (accelerometer) is on (required; may be the same card)"),
            .value(.channels, placeholder: "MAP", values: .channelMap, help: "output channels; the test signal plays on the H channels (default H)"),
            .value(.inputChannel, placeholder: "N", help: "the input channel the sensor is on, from 1 (default 1)"),
            .value(.duration, placeholder: "S", help: "length of the sweep, 1 to 30 s (default 4); the run takes about 6 s more"),
            ActuatorArguments.profile,
            EngineArguments.sampleRate,
            .value(.period, placeholder: "FRAMES", help: "frames per period of both streams (default 256)"),
            .value(.periods, placeholder: "N", help: "periods per buffer (default 4)"),
            .value(.priority, placeholder: "N", help: "SCHED_FIFO priority of the streams' threads, 1–99 (default 70); 0: normal"),
            .flag(.json, help: "print the results as one JSON object (keys: docs/measure.md)"),
            .value(.plot, placeholder: "FILE", values: .files(["svg", "png"]), help: "draw the response, the band and the latency histogram (.svg, or .png with rsvg-convert)"),
            .value(.writeProfile, placeholder: "FILE", values: .files(["json"]), help: "write an actuator profile that equalises the drive and records the latency"),
        ],
        details: """
            Plays a logarithmic sweep (5 Hz – 3 kHz) and a click train on the output's haptic channels while the
            input records the sensor, lines the two streams up by their own clocks (snd_pcm_status timestamps),
            and reports the loop's latency (DAC → ADC: the device's part, a pure delay, and the actuator's part, its
            group delay), the response from 20 Hz to 1 kHz, the resonance f0 and Q, the −3 dB band, the distortion
            at f0, the noise floor and the SNR. The drive level is chosen from a short sweep first, so that the
            input never clips. --profile FILE applies a profile's equalisation to the sweep, as play and render
            apply it to the drive: measuring with a profile this command wrote shows the flattened response.
            --write-profile FILE (with --profile's band, default 80–230 Hz) is written only from a good
            measurement, under a temporary name renamed over FILE.
            Exit status: 0 ok, 64 usage, 65 input clipped or too noisy (the figures are printed, marked
            doubtful), 66 input silent, 69 a device is missing or the input runs at another rate, 73 cannot
            create a file, 74 a stream failed or kept losing samples.
            """),
    run: { arguments, console in
        guard let input = arguments.value(.input) else {
            throw UsageError(message: "'thrum measure' needs --input NAME, the capture device the sensor is on (see docs/measure.md)")
        }
        let output = arguments.value(.device) ?? "default"
        let channelMap = try ActuatorArguments.channelMap(arguments, default: ChannelMap(sources: [.haptic]))
        var request = MeasurementRequest(output: .named(output), input: .named(input), channelMap: channelMap)
        request.inputChannel = try arguments.int(.inputChannel, in: 1...64) ?? 1
        request.sweepSeconds = try arguments.double(.duration, in: 1...30) ?? 4
        request.sampleRate = try arguments.int(.sampleRate, in: 8000...768_000) ?? 48_000
        request.periodFrames = try arguments.int(.period, in: CHHapticEngine.Options.periodFrameCounts) ?? 256
        request.periodCount = try arguments.int(.periods, in: CHHapticEngine.Options.periodCounts) ?? 4
        if let priority = try arguments.int(.priority, in: 0...99) { request.realtimePriority = priority == 0 ? nil : Int32(priority) }
        if let profile = arguments.value(.profile) {
            request.profile = try EngineArguments.loadProfile(profile)
            do {
                try request.profile.validate(sampleRate: Double(request.sampleRate))
            } catch {
                throw CommandFailure(.dataError, "actuator profile \(profile): \(error)")
            }
        }
        // Every file is checked before the loop runs, so a wrong path costs nothing.
        let plot = try arguments.value(.plot).map { path -> (path: String, converter: String?) in
            let format = PathName.fileExtension(path).lowercased()
            guard format == "svg" || format == "png" else {
                throw UsageError(message: "--plot \(path): the file name must end in .svg or .png")
            }
            try requireCreatable(path, what: "plot")
            guard format == "png" else { return (path, nil) }
            guard let converter = PlotPNG.find(PlotPNG.tool, in: FileSystem.environment("PATH")) else {
                throw CommandFailure(.unavailable, PlotPNG.missingToolMessage)
            }
            return (path, converter)
        }
        let profilePath = arguments.value(.writeProfile)
        if let profilePath { try requireCreatable(profilePath, what: "profile") }

        let result = try measureOrFail(request)
        if arguments.flag(.json) { console.writeOut(result.json + "\n") } else { console.writeOut(result.table) }
        if let plot {
            let svg = MeasurePlot(result: result).render()
            do {
                try OutputFile.write(try plot.converter.map { try PlotPNG.convert(svg, toolPath: $0) } ?? Data(svg.utf8), to: plot.path)
            } catch let error as AudioResourceError {
                throw CommandFailure(.cantCreate, "\(error)")
            }
            console.error("thrum measure: wrote \(plot.path)")
        }
        if let warning = result.warnings.first {
            // A doubtful measurement makes no profile.
            throw CommandFailure(
                .dataError, warning + (profilePath.map { "; \($0) was not written" } ?? ""))
        }
        if let profilePath {
            let name = PathName.removingExtension(PathName.lastComponent(profilePath))
            let profile = result.profile(from: request.profile, name: name.isEmpty ? "measured" : name)
            do {
                try profile.validate(sampleRate: Double(result.sampleRate))
                try OutputFile.write(Data(profile.encodedJSON.utf8), to: profilePath)
            } catch let error as AudioResourceError {
                throw CommandFailure(.cantCreate, "\(error)")
            } catch {
                throw CommandFailure(.software, "the measured profile is not valid: \(error)")
            }
            console.error("thrum measure: wrote \(profilePath) (equalised \(PathName.lastComponent(profilePath)) over \(Int(profile.lowFrequency))–\(Int(profile.highFrequency)) Hz, actuator latency \(String(cFormat: "%.2f", result.latency.actuator * 1000)) ms)")
        }
        return .ok
    })

/// Exit 73 unless `path` can be created: its folder exists and is writable, and it is not a folder.
private func requireCreatable(_ path: String, what: String) throws {
    if FileSystem.isDirectory(path) == true {
        throw CommandFailure(.cantCreate, "cannot create \(what) '\(path)': it is a folder; give a file name")
    }
    let folder = PathName.parent(path)
    let existing = folder.isEmpty ? "." : folder
    guard FileSystem.isDirectory(existing) == true else {
        throw CommandFailure(.cantCreate, "cannot create \(what) '\(path)': folder '\(existing)' does not exist")
    }
    guard access(existing, W_OK) == 0 else {
        throw CommandFailure(.cantCreate, "cannot create \(what) '\(path)': folder '\(existing)' is not writable")
    }
}

/// The measurement, or its error as the command's one line and exit status.
private func measureOrFail(_ request: MeasurementRequest) throws -> MeasurementResult {
    do {
        return try ActuatorMeasurement.measure(request)
    } catch {
        throw CommandFailure(ExitCode(rawValue: error.exitCode) ?? .software, error.description)
    }
}
