import CThrumABI
import ThrumServices

// The option structs of include/thrum.h: their _init functions, and reading them into the services' typed
// requests. A struct is read field by field within its `struct_size` (a program compiled against an older
// thrum.h passes a shorter struct; the fields it lacks take their defaults).

/// One option struct passed by a caller. Its fields are read by key path at the header's own offsets.
struct COptions<Layout> {
    private let base: UnsafeRawPointer?
    private let size: Int

    /// `pointer` nil reads every default.
    /// - Throws: 64 for a `struct_size` too small to hold itself, or larger than this library knows.
    init(_ pointer: UnsafePointer<Layout>?, name: String) throws(ServiceError) {
        guard let pointer else {
            base = nil
            size = 0
            return
        }
        let size = UnsafeRawPointer(pointer).load(as: Int.self)
        guard size >= MemoryLayout<Int>.size else {
            throw .usage("\(name).struct_size is \(size): fill the struct with \(name)_init first")
        }
        guard size <= MemoryLayout<Layout>.stride else {
            throw .usage(
                "\(name).struct_size is \(size) bytes, more than the \(MemoryLayout<Layout>.stride) this libthrum knows: "
                    + "the program was compiled against a newer thrum.h (install that libthrum)")
        }
        base = UnsafeRawPointer(pointer)
        self.size = size
    }

    /// The field at `path`, or nil when it lies past `struct_size` (or there is no struct).
    private func field<T>(_ path: KeyPath<Layout, T>) -> T? {
        guard let base, let offset = MemoryLayout<Layout>.offset(of: path), offset + MemoryLayout<T>.size <= size else {
            return nil
        }
        return base.load(fromByteOffset: offset, as: T.self)
    }

    /// An integer field; nil when it is -1 (not given).
    func int(_ path: KeyPath<Layout, Int64>) -> Int? {
        field(path).flatMap { $0 == -1 ? nil : Int($0) }
    }

    /// A double field; nil when it is NaN (not given).
    func double(_ path: KeyPath<Layout, Double>) -> Double? {
        field(path).flatMap { $0.isNaN ? nil : $0 }
    }

    /// A flag (nonzero: set).
    func flag(_ path: KeyPath<Layout, Int32>) -> Bool { (field(path) ?? 0) != 0 }

    /// A string field; nil when NULL.
    func text(_ path: KeyPath<Layout, UnsafePointer<CChar>?>) -> String? {
        field(path).flatMap { $0 }.map(string)
    }

    /// A list of strings and its count.
    /// - Throws: 64 for a NULL list with a count, or a NULL entry.
    func texts(_ list: KeyPath<Layout, UnsafePointer<UnsafePointer<CChar>?>?>, count: KeyPath<Layout, Int>, what: String)
        throws(ServiceError) -> [String]
    {
        try strings(field(list).flatMap { $0 }, field(count) ?? 0, what: what)
    }

    /// A pointer field; nil when NULL.
    func pointer<T>(_ path: KeyPath<Layout, UnsafePointer<T>?>) -> UnsafePointer<T>? { field(path).flatMap { $0 } }
}

// MARK: - Engine settings

@_cdecl("thrum_engine_settings_init")
public func thrum_engine_settings_init(_ settings: UnsafeMutablePointer<thrum_engine_settings>?) {
    settings?.pointee = thrum_engine_settings(
        struct_size: MemoryLayout<thrum_engine_settings>.stride, sample_rate: -1, channels: nil, layout: nil, profiles: nil,
        profile_count: 0, voices: -1, resources: nil, resource_count: 0, allow_any_path: 0, max_audio_bytes: -1,
        max_audio_seconds: .nan, max_audio_memory: -1, haptics_from_audio: 0, preset: nil)
}

/// The engine settings a caller passed (nil: every default).
func engineSettings(_ pointer: UnsafePointer<thrum_engine_settings>?) throws(ServiceError) -> EngineSettings {
    let options = try COptions(pointer, name: "thrum_engine_settings")
    var settings = EngineSettings()
    settings.sampleRate = options.int(\.sample_rate)
    settings.channels = options.text(\.channels)
    settings.layout = options.text(\.layout)
    settings.profiles = try options.texts(\.profiles, count: \.profile_count, what: "profiles")
    settings.voices = options.int(\.voices)
    settings.resources = try options.texts(\.resources, count: \.resource_count, what: "resources")
    settings.allowAnyPath = options.flag(\.allow_any_path)
    settings.maxAudioBytes = options.int(\.max_audio_bytes)
    settings.maxAudioSeconds = options.double(\.max_audio_seconds)
    settings.maxAudioMemory = options.int(\.max_audio_memory)
    settings.hapticsFromAudio = options.flag(\.haptics_from_audio)
    settings.preset = options.text(\.preset)
    return settings
}

// MARK: - Check

@_cdecl("thrum_check_options_init")
public func thrum_check_options_init(_ options: UnsafeMutablePointer<thrum_check_options>?) {
    options?.pointee = thrum_check_options(
        struct_size: MemoryLayout<thrum_check_options>.stride, strict: 0, engine: nil, max_pattern_bytes: -1, max_events: -1,
        max_curve_points: -1)
}

func checkRequest(_ pointer: UnsafePointer<thrum_check_options>?) throws(ServiceError) -> CheckRequest {
    let options = try COptions(pointer, name: "thrum_check_options")
    return CheckRequest(
        strict: options.flag(\.strict), engine: try engineSettings(options.pointer(\.engine)),
        limits: try PatternLimits(
            maxBytes: options.int(\.max_pattern_bytes), maxEvents: options.int(\.max_events),
            maxCurvePoints: options.int(\.max_curve_points)))
}

// MARK: - Convert, analyze, import

@_cdecl("thrum_convert_options_init")
public func thrum_convert_options_init(_ options: UnsafeMutablePointer<thrum_convert_options>?) {
    options?.pointee = thrum_convert_options(
        struct_size: MemoryLayout<thrum_convert_options>.stride, to: nil, split: 0, meta_compatible: 0, resolution: -1, strict: 0)
}

func convertRequest(_ pointer: UnsafePointer<thrum_convert_options>?, inputs: [String], output: String) throws(ServiceError)
    -> ConvertRequest
{
    let options = try COptions(pointer, name: "thrum_convert_options")
    var request = ConvertRequest(inputs: inputs, output: output)
    request.format = options.text(\.to)
    request.split = options.flag(\.split)
    request.metaCompatible = options.flag(\.meta_compatible)
    request.resolution = options.int(\.resolution)
    request.strict = options.flag(\.strict)
    return request
}

@_cdecl("thrum_analyze_options_init")
public func thrum_analyze_options_init(_ options: UnsafeMutablePointer<thrum_analyze_options>?) {
    options?.pointee = thrum_analyze_options(
        struct_size: MemoryLayout<thrum_analyze_options>.stride, preset: nil, settings: nil, clip: nil,
        breakpoints_per_second: .nan, tolerance: .nan, attack: .nan, hold: .nan, release: .nan, sensitivity: .nan,
        gain: .nan, band_low: .nan, band_high: .nan, no_normalize: 0, split: 0)
}

func analysisRequest(_ pointer: UnsafePointer<thrum_analyze_options>?, sound: String, output: String) throws(ServiceError)
    -> AnalysisRequest
{
    let options = try COptions(pointer, name: "thrum_analyze_options")
    var request = AnalysisRequest(sound: sound, output: output)
    request.preset = options.text(\.preset)
    request.settingsFile = options.text(\.settings)
    request.clip = options.text(\.clip)
    request.breakpointsPerSecond = options.double(\.breakpoints_per_second)
    request.tolerance = options.double(\.tolerance)
    request.attack = options.double(\.attack)
    request.hold = options.double(\.hold)
    request.release = options.double(\.release)
    request.sensitivity = options.double(\.sensitivity)
    request.gain = options.double(\.gain)
    switch (options.double(\.band_low), options.double(\.band_high)) {
    case (nil, nil): break
    case (let low?, let high?): request.band = (low, high)
    default: throw .usage("band_low and band_high give the band together: set both, or neither")
    }
    request.noNormalize = options.flag(\.no_normalize)
    request.split = options.flag(\.split)
    return request
}

@_cdecl("thrum_import_options_init")
public func thrum_import_options_init(_ options: UnsafeMutablePointer<thrum_import_options>?) {
    options?.pointee = thrum_import_options(struct_size: MemoryLayout<thrum_import_options>.stride, format: nil, split: 0)
}

func importRequest(_ pointer: UnsafePointer<thrum_import_options>?, project: String, folder: String) throws(ServiceError)
    -> ImportRequest
{
    let options = try COptions(pointer, name: "thrum_import_options")
    var request = ImportRequest(project: project, folder: folder)
    request.format = options.text(\.format)
    request.split = options.flag(\.split)
    return request
}

// MARK: - Render and live engines

@_cdecl("thrum_render_options_init")
public func thrum_render_options_init(_ options: UnsafeMutablePointer<thrum_render_options>?) {
    options?.pointee = thrum_render_options(
        struct_size: MemoryLayout<thrum_render_options>.stride, engine: nil, loops: -1, loop: 0, loop_end: .nan, rate: .nan,
        seek: .nan, duration: .nan)
}

/// The transport and engine settings of a render.
func renderRequest(_ pointer: UnsafePointer<thrum_render_options>?) throws(ServiceError) -> (Transport, EngineSettings) {
    let options = try COptions(pointer, name: "thrum_render_options")
    let transport = try Transport(
        loop: options.flag(\.loop), passes: options.int(\.loops), loopEnd: options.double(\.loop_end),
        rate: options.double(\.rate), seek: options.double(\.seek), duration: options.double(\.duration))
    return (transport, try engineSettings(options.pointer(\.engine)))
}

@_cdecl("thrum_device_options_init")
public func thrum_device_options_init(_ options: UnsafeMutablePointer<thrum_device_options>?) {
    options?.pointee = thrum_device_options(
        struct_size: MemoryLayout<thrum_device_options>.stride, device: nil, period: -1, periods: -1, onset_log: nil, engine: nil)
}

/// The device settings and the onset log of a live engine.
func deviceRequest(_ pointer: UnsafePointer<thrum_device_options>?) throws(ServiceError) -> (OutputSettings, onsetLog: String?) {
    let options = try COptions(pointer, name: "thrum_device_options")
    var output = OutputSettings()
    output.device = options.text(\.device) ?? "default"
    output.period = options.int(\.period)
    output.periods = options.int(\.periods)
    output.engine = try engineSettings(options.pointer(\.engine))
    return (output, options.text(\.onset_log))
}
