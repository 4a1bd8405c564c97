import ActuatorMeasurement
import CThrumABI
import Glibc
import ThrumServices

// thrum_measure (include/thrum.h, issue 37): `thrum measure` from C, its figures as numbers and arrays.

@_cdecl("thrum_measure_options_init")
public func thrum_measure_options_init(_ options: UnsafeMutablePointer<thrum_measure_options>?) {
    options?.pointee = thrum_measure_options(
        struct_size: MemoryLayout<thrum_measure_options>.stride, output: nil, input: nil, channels: nil, input_channel: -1,
        duration: .nan, sample_rate: -1, period: -1, periods: -1, priority: -1, profile: nil)
}

/// The settings of `thrum measure` the struct gives.
/// - Throws: 64 for a wrong struct or a missing input device.
func measureSettings(_ pointer: UnsafePointer<thrum_measure_options>?) throws(ServiceError) -> MeasureSettings {
    let options = try COptions(pointer, name: "thrum_measure_options")
    guard let input = options.text(\.input) else {
        throw .usage("thrum_measure_options.input: give the capture device the sensor is on (e.g. \"hw:1\")")
    }
    var settings = MeasureSettings(input: input)
    settings.output = options.text(\.output)
    settings.channels = options.text(\.channels)
    settings.inputChannel = options.int(\.input_channel)
    settings.sweepSeconds = options.double(\.duration)
    settings.sampleRate = options.int(\.sample_rate)
    settings.periodFrames = options.int(\.period)
    settings.periodCount = options.int(\.periods)
    settings.priority = options.int(\.priority)
    settings.profile = options.text(\.profile)
    return settings
}

/// A measurement behind a `thrum_measurement *`: its figures and the strings handed out, which live as long
/// as it does. Immutable.
final class MeasurementHandle: @unchecked Sendable {
    let result: MeasurementResult
    let request: MeasurementRequest
    let json: UnsafeMutablePointer<CChar>
    let model: UnsafeMutablePointer<CChar>
    let warnings: [UnsafeMutablePointer<CChar>]

    init(_ result: MeasurementResult, request: MeasurementRequest) {
        self.result = result
        self.request = request
        json = cString(result.json)
        model = cString(result.model.rawValue)
        warnings = result.warnings.map(cString)
    }

    deinit {
        free(json)
        free(model)
        warnings.forEach { free($0) }
    }
}

@_cdecl("thrum_measure")
public func thrum_measure(
    _ options: UnsafePointer<thrum_measure_options>?, _ measurement: UnsafeMutablePointer<OpaquePointer?>?,
    _ error: ErrorOut
) -> Int32 {
    measurement?.pointee = nil
    return status(error) {
        guard let measurement else { throw ServiceError.usage("thrum_measure: the measurement pointer is NULL") }
        let request = try Measuring.request(try measureSettings(options))
        let result = try Measuring.measure(request)
        measurement.pointee = handle(MeasurementHandle(result, request: request))
        // A doubtful measurement keeps its figures but fails as `thrum measure` does (65, the first warning).
        if let warning = result.warnings.first { throw ServiceError(.dataError, warning) }
    }
}

/// The measurement behind `handle`, or nil for NULL.
private func measured(_ handle: OpaquePointer?) -> MeasurementHandle? {
    handle.map { object($0, as: MeasurementHandle.self) }
}

/// Copies `values` into `out` (room for `capacity`) when it is not NULL; returns how many there are.
private func copy(_ values: [Double], into out: UnsafeMutablePointer<Double>?, capacity: Int) -> Int {
    if let out {
        for index in 0..<min(capacity, values.count) { out[index] = values[index] }
    }
    return values.count
}

@_cdecl("thrum_measurement_response")
public func thrum_measurement_response(
    _ measurement: OpaquePointer?, _ hz: UnsafeMutablePointer<Double>?, _ magnitudeDB: UnsafeMutablePointer<Double>?,
    _ phaseDegrees: UnsafeMutablePointer<Double>?, _ capacity: Int
) -> Int {
    guard let response = measured(measurement)?.result.response else { return 0 }
    _ = copy(response.map(\.hz), into: hz, capacity: capacity)
    _ = copy(response.map(\.magnitudeDB), into: magnitudeDB, capacity: capacity)
    return copy(response.map(\.phaseDegrees), into: phaseDegrees, capacity: capacity)
}

@_cdecl("thrum_measurement_latency")
public func thrum_measurement_latency(
    _ measurement: OpaquePointer?, _ median: UnsafeMutablePointer<Double>?, _ p99: UnsafeMutablePointer<Double>?,
    _ jitter: UnsafeMutablePointer<Double>?, _ device: UnsafeMutablePointer<Double>?,
    _ actuator: UnsafeMutablePointer<Double>?
) {
    let latency = measured(measurement)?.result.latency
    median?.pointee = latency?.median ?? -1
    p99?.pointee = latency?.p99 ?? -1
    jitter?.pointee = latency?.jitter ?? -1
    device?.pointee = latency?.device ?? -1
    actuator?.pointee = latency?.actuator ?? -1
}

@_cdecl("thrum_measurement_clicks")
public func thrum_measurement_clicks(_ measurement: OpaquePointer?, _ latencies: UnsafeMutablePointer<Double>?, _ capacity: Int) -> Int {
    copy(measured(measurement)?.result.latency.clicks ?? [], into: latencies, capacity: capacity)
}

@_cdecl("thrum_measurement_resonance")
public func thrum_measurement_resonance(_ measurement: OpaquePointer?) -> Double { measured(measurement)?.result.resonance ?? -1 }

@_cdecl("thrum_measurement_q")
public func thrum_measurement_q(_ measurement: OpaquePointer?) -> Double { measured(measurement)?.result.q ?? -1 }

@_cdecl("thrum_measurement_band")
public func thrum_measurement_band(
    _ measurement: OpaquePointer?, _ low: UnsafeMutablePointer<Double>?, _ high: UnsafeMutablePointer<Double>?
) {
    let band = measured(measurement)?.result.band
    low?.pointee = band?.low ?? -1
    high?.pointee = band?.high ?? -1
}

@_cdecl("thrum_measurement_thd_percent")
public func thrum_measurement_thd_percent(_ measurement: OpaquePointer?) -> Double { measured(measurement)?.result.thdPercent ?? -1 }

@_cdecl("thrum_measurement_noise_floor_dbfs")
public func thrum_measurement_noise_floor_dbfs(_ measurement: OpaquePointer?) -> Double {
    measured(measurement)?.result.noiseFloorDBFS ?? .nan
}

@_cdecl("thrum_measurement_snr_db")
public func thrum_measurement_snr_db(_ measurement: OpaquePointer?) -> Double { measured(measurement)?.result.snrDB ?? .nan }

@_cdecl("thrum_measurement_sample_rate")
public func thrum_measurement_sample_rate(_ measurement: OpaquePointer?) -> Double {
    measured(measurement).map { Double($0.result.sampleRate) } ?? -1
}

@_cdecl("thrum_measurement_model")
public func thrum_measurement_model(_ measurement: OpaquePointer?) -> UnsafePointer<CChar>? {
    measured(measurement).map { UnsafePointer($0.model) }
}

@_cdecl("thrum_measurement_warning_count")
public func thrum_measurement_warning_count(_ measurement: OpaquePointer?) -> Int { measured(measurement)?.warnings.count ?? 0 }

@_cdecl("thrum_measurement_warning")
public func thrum_measurement_warning(_ measurement: OpaquePointer?, _ index: Int) -> UnsafePointer<CChar>? {
    guard let warnings = measured(measurement)?.warnings, warnings.indices.contains(index) else { return nil }
    return UnsafePointer(warnings[index])
}

@_cdecl("thrum_measurement_json")
public func thrum_measurement_json(_ measurement: OpaquePointer?) -> UnsafePointer<CChar>? {
    measured(measurement).map { UnsafePointer($0.json) }
}

@_cdecl("thrum_measurement_write_profile")
public func thrum_measurement_write_profile(_ measurement: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ error: ErrorOut) -> Int32 {
    status(error) {
        guard let handle = measured(measurement) else { throw nullHandle("measurement") }
        guard let path else { throw nullHandle("path") }
        let file = string(path)
        try Measuring.requireCreatable(file, what: "profile")
        _ = try Measuring.writeProfile(handle.result, measuredWith: handle.request.profile, to: file)
    }
}

@_cdecl("thrum_measurement_free")
public func thrum_measurement_free(_ measurement: OpaquePointer?) { release(measurement, as: MeasurementHandle.self) }
