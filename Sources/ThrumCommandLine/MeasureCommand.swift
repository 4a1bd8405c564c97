import ALSAOutput
import ActuatorMeasurement
import AudioResources
import FoundationEssentials
import FoundationStandIns
import Glibc
import RenderCore
import Thrum
import ThrumServices

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
        var settings = MeasureSettings(input: input)
        settings.output = arguments.value(.device)
        settings.channels = arguments.value(.channels)
        settings.inputChannel = try arguments.int(.inputChannel, in: MeasureSettings.inputChannels)
        settings.sweepSeconds = try arguments.double(.duration, in: MeasureSettings.sweepRange)
        settings.sampleRate = try arguments.int(.sampleRate, in: MeasureSettings.sampleRates)
        settings.periodFrames = try arguments.int(.period, in: CHHapticEngine.Options.periodFrameCounts)
        settings.periodCount = try arguments.int(.periods, in: CHHapticEngine.Options.periodCounts)
        settings.priority = try arguments.int(.priority, in: MeasureSettings.priorities)
        settings.profile = arguments.value(.profile)
        let request = try Measuring.request(settings)
        // Every file is checked before the loop runs, so a wrong path costs nothing.
        let plot = try arguments.value(.plot).map { path -> (path: String, converter: String?) in
            let format = PathName.fileExtension(path).lowercased()
            guard format == "svg" || format == "png" else {
                throw UsageError(message: "--plot \(path): the file name must end in .svg or .png")
            }
            try Measuring.requireCreatable(path, what: "plot")
            guard format == "png" else { return (path, nil) }
            guard let converter = PlotPNG.find(PlotPNG.tool, in: FileSystem.environment("PATH")) else {
                throw ServiceError(.unavailable, PlotPNG.missingToolMessage)
            }
            return (path, converter)
        }
        let profilePath = arguments.value(.writeProfile)
        if let profilePath { try Measuring.requireCreatable(profilePath, what: "profile") }

        let result = try Measuring.measure(request)
        if arguments.flag(.json) { console.writeOut(result.json + "\n") } else { console.writeOut(result.table) }
        if let plot {
            let svg = MeasurePlot(result: result).render()
            let bytes: Data
            do {
                bytes = try plot.converter.map { try PlotPNG.convert(svg, toolPath: $0) } ?? Data(svg.utf8)
            } catch let error as AudioResourceError {
                throw ServiceError(.cantCreate, "\(error)")
            }
            try OutputFiles.write(bytes, to: plot.path)
            console.error("thrum measure: wrote \(plot.path)")
        }
        if let profilePath {
            let profile = try Measuring.writeProfile(result, measuredWith: request.profile, to: profilePath)
            console.error("thrum measure: wrote \(profilePath) (equalised \(PathName.lastComponent(profilePath)) over \(Int(profile.lowFrequency))–\(Int(profile.highFrequency)) Hz, actuator latency \(String(cFormat: "%.2f", result.latency.actuator * 1000)) ms)")
        } else if let warning = result.warnings.first {
            // A doubtful measurement: the figures are printed, marked doubtful, and the status says so.
            throw ServiceError(.dataError, warning)
        }
        return .ok
    })
