/// An MPEG haptics document (ISO/IEC 23090-31): the content of an HJIF file (`.hjif`, JSON) or of its binary
/// stream (`.hmpg`). Perceptions hold channels, channels hold frequency bands, bands hold effects, effects
/// hold keyframes. Times are in ticks of `timescale` per second. Names follow the HJIF keys; what a value
/// means for playback is `HJIFSynthesis`'s. A value type; thread-safe.
package struct HJIFDocument: Sendable, Equatable {
    /// `version`: the year of the standard, optionally `-amendment` ("2023").
    package var version: String
    /// `profile`: "Main" or "Simple Parametric".
    package var profile: String
    /// `level`: 1 or 2.
    package var level: Int
    /// `date` (ISO 8601), as written.
    package var date: String
    package var description: String
    /// `timescale`: ticks per second (the reference software's default 1000 when absent).
    package var timescale: Int
    package var avatars: [HJIFAvatar]
    package var perceptions: [HJIFPerception]
    package var syncs: [HJIFSync]

    /// The timescale the reference software assumes when a document has none.
    package static let defaultTimescale = 1000

    /// Creates a document.
    package init(
        version: String = "2023", profile: String = "Main", level: Int = 1, date: String = "", description: String = "",
        timescale: Int = defaultTimescale, avatars: [HJIFAvatar] = [], perceptions: [HJIFPerception] = [],
        syncs: [HJIFSync] = []
    ) {
        self.version = version
        self.profile = profile
        self.level = level
        self.date = date
        self.description = description
        self.timescale = timescale
        self.avatars = avatars
        self.perceptions = perceptions
        self.syncs = syncs
    }
}

/// An avatar: the body a perception's body-part masks refer to (metadata; Thrum plays no avatar).
package struct HJIFAvatar: Sendable, Equatable {
    package var id: Int
    /// Level of detail.
    package var lod: Int
    /// "Vibration", "Pressure", "Temperature" or "Custom" (then `mesh` names the mesh).
    package var type: String
    package var mesh: String?

    /// The avatar types with their binary codes.
    package static let types = ["Custom", "Vibration", "Pressure", "Temperature"]

    /// Creates an avatar.
    package init(id: Int, lod: Int, type: String, mesh: String? = nil) {
        self.id = id
        self.lod = lod
        self.type = type
        self.mesh = mesh
    }
}

/// A synchronisation point of a stream (metadata).
package struct HJIFSync: Sendable, Equatable {
    package var timestamp: Int
    package var timescale: Int?

    /// Creates a sync point.
    package init(timestamp: Int, timescale: Int? = nil) {
        self.timestamp = timestamp
        self.timescale = timescale
    }
}

/// A perception: one kind of haptic sensation (vibrotactile, force, …) with its channels and its library of
/// effects that channels refer to.
package struct HJIFPerception: Sendable, Equatable {
    package var id: Int
    package var avatarID: Int
    package var description: String
    /// `perception_modality`, canonical name (`HJIFPerception.modalities`).
    package var modality: String
    package var priority: Int?
    /// `unit_exponent` (the reference's default −3); metadata.
    package var unitExponent: Int?
    /// `perception_unit_exponent` (default 0): the synthesizer scales the channels by 10^exponent.
    package var perceptionUnitExponent: Int?
    package var effectSemanticScheme: String?
    package var referenceDevices: [HJIFReferenceDevice]
    /// `effect_library`: effects that Reference effects name by id.
    package var library: [HJIFEffect]
    package var channels: [HJIFChannel]

    /// The modality names by binary code (0 …).
    package static let modalities = [
        "Other", "Pressure", "Acceleration", "Velocity", "Position", "Temperature", "Vibrotactile", "Water", "Wind",
        "Force", "Vibrotactile Texture", "Stiffness", "Friction", "Electrotactile",
    ]
    /// Other names the reference software reads, with the canonical name each stands for.
    package static let modalityAliases = ["Vibration": "Vibrotactile", "Kinesthetic": "Force", "Texture": "Vibrotactile Texture"]

    /// Creates a perception.
    package init(
        id: Int, avatarID: Int = 0, description: String = "", modality: String = "Vibrotactile", priority: Int? = nil,
        unitExponent: Int? = nil, perceptionUnitExponent: Int? = nil, effectSemanticScheme: String? = nil,
        referenceDevices: [HJIFReferenceDevice] = [], library: [HJIFEffect] = [], channels: [HJIFChannel] = []
    ) {
        self.id = id
        self.avatarID = avatarID
        self.description = description
        self.modality = modality
        self.priority = priority
        self.unitExponent = unitExponent
        self.perceptionUnitExponent = perceptionUnitExponent
        self.effectSemanticScheme = effectSemanticScheme
        self.referenceDevices = referenceDevices
        self.library = library
        self.channels = channels
    }
}

/// A reference device: the actuator the content was made for (metadata).
package struct HJIFReferenceDevice: Sendable, Equatable {
    package var id: Int
    package var name: String
    package var bodyPartMask: Int?
    /// The optional numeric fields present, by key (`HJIFReferenceDevice.numberKeys`).
    package var numbers: [String: Float]
    /// `type`: "Unknown", "LRA", "VCA", "ERM" or "Piezo".
    package var type: String?

    /// The optional numeric keys in their binary order.
    package static let numberKeys = [
        "maximum_frequency", "minimum_frequency", "resonance_frequency", "maximum_amplitude", "impedance",
        "maximum_voltage", "maximum_current", "maximum_displacement", "weight", "size", "custom",
    ]
    /// The actuator types by binary code.
    package static let types = ["Unknown", "LRA", "VCA", "ERM", "Piezo"]

    /// Creates a reference device.
    package init(id: Int, name: String, bodyPartMask: Int? = nil, numbers: [String: Float] = [:], type: String? = nil) {
        self.id = id
        self.name = name
        self.bodyPartMask = bodyPartMask
        self.numbers = numbers
        self.type = type
    }
}

/// A signed 8-bit vector (`X`, `Y`, `Z`): a direction or an actuator's place on a grid.
package struct HJIFVector: Sendable, Equatable {
    package var x: Int
    package var y: Int
    package var z: Int

    /// Creates a vector.
    package init(x: Int, y: Int, z: Int) {
        self.x = x
        self.y = y
        self.z = z
    }
}

/// A channel: one actuator's signal, the sum of its bands, × `gain`.
package struct HJIFChannel: Sendable, Equatable {
    package var id: Int
    package var description: String
    /// The synthesizer multiplies the channel by it.
    package var gain: Float
    /// `mixing_coefficient`: the channel's weight where channels share an actuator.
    package var mixingCoefficient: Float
    /// `body_part_mask`: the body parts it acts on (bit flags; metadata).
    package var bodyPartMask: Int
    package var priority: Int?
    package var referenceDeviceID: Int?
    /// `frequency_sampling` and `sample_count`: the length of a channel made from sampled signals.
    package var frequencySampling: Int?
    package var sampleCount: Int?
    package var direction: HJIFVector?
    package var actuatorResolution: HJIFVector?
    /// `body_part_target` names (`HJIFChannel.bodyParts`).
    package var bodyPartTargets: [String]?
    package var actuatorTargets: [HJIFVector]?
    package var vertices: [Int]
    package var bands: [HJIFBand]

    /// Creates a channel.
    package init(
        id: Int, description: String = "", gain: Float = 1, mixingCoefficient: Float = 1, bodyPartMask: Int = 0,
        priority: Int? = nil, referenceDeviceID: Int? = nil, frequencySampling: Int? = nil, sampleCount: Int? = nil,
        direction: HJIFVector? = nil, actuatorResolution: HJIFVector? = nil, bodyPartTargets: [String]? = nil,
        actuatorTargets: [HJIFVector]? = nil, vertices: [Int] = [], bands: [HJIFBand] = []
    ) {
        self.id = id
        self.description = description
        self.gain = gain
        self.mixingCoefficient = mixingCoefficient
        self.bodyPartMask = bodyPartMask
        self.priority = priority
        self.referenceDeviceID = referenceDeviceID
        self.frequencySampling = frequencySampling
        self.sampleCount = sampleCount
        self.direction = direction
        self.actuatorResolution = actuatorResolution
        self.bodyPartTargets = bodyPartTargets
        self.actuatorTargets = actuatorTargets
        self.vertices = vertices
        self.bands = bands
    }

    /// The body-part target names with their binary codes.
    package static let bodyParts: [(name: String, code: Int)] = [
        ("Unknown", 0), ("All", 1), ("Top", 10), ("Down", 11), ("Right", 12), ("Left", 13), ("Front", 14), ("Back", 15),
        ("Arm", 20), ("Head", 21), ("Chest", 22), ("Waist", 23), ("Leg", 24), ("Upper-arm", 30), ("Forearm", 31),
        ("Hand", 32), ("Crane", 33), ("Neck", 34), ("Thigh", 35), ("Calf", 36), ("Foot", 37), ("Palm", 40),
        ("Finger", 41), ("Sole", 42), ("Toe", 43), ("Thumb", 50), ("Index", 51), ("Middle", 52), ("Ring", 53),
        ("Pinky", 54), ("Hallux", 55), ("Index-toe", 56), ("Middle-toe", 57), ("Ring-toe", 58), ("Pinky-toe", 59),
        ("First Phalanx", 60), ("Second Phalanx", 61), ("Third Phalanx", 62), ("Minus", 254), ("Plus", 255),
    ]
}

/// The kinds of band, with their binary codes.
package enum HJIFBandType: Int, Sendable, Equatable, CaseIterable {
    /// Short taps: each keyframe is two sine periods over 22 ms (the reference synthesizer's).
    case transient = 0
    /// A curve through the keyframes' amplitudes (a slow signal: force, temperature, …).
    case curve = 1
    /// Base signals (sine, square, …) modulated in amplitude and frequency by keyframes.
    case vectorialWave = 2
    /// Sampled signals coded by a wavelet transform.
    case waveletWave = 3

    /// The HJIF name.
    package var name: String {
        switch self {
        case .transient: "Transient"
        case .curve: "Curve"
        case .vectorialWave: "VectorialWave"
        case .waveletWave: "WaveletWave"
        }
    }
}

/// How a Curve band joins its keyframes, with the binary codes.
package enum HJIFCurveType: Int, Sendable, Equatable, CaseIterable {
    case unknown = 0, cubic, linear, akima, bezier, bspline

    /// The HJIF name.
    package var name: String { ["Unknown", "Cubic", "Linear", "Akima", "Bezier", "Bspline"][rawValue] }
}

/// The base signal of a vectorial effect, with the binary codes.
package enum HJIFBaseSignal: Int, Sendable, Equatable, CaseIterable {
    case sine = 0, square, triangle, sawToothUp, sawToothDown

    /// The HJIF name.
    package var name: String { ["Sine", "Square", "Triangle", "SawToothUp", "SawToothDown"][rawValue] }
}

/// The kinds of effect, with the binary codes.
package enum HJIFEffectType: Int, Sendable, Equatable, CaseIterable {
    /// Keyframes of its own.
    case basis = 0
    /// The library effect whose id it gives, placed at its position.
    case reference = 1
    /// A timeline of effects placed relative to its position.
    case composite = 2

    /// The HJIF name.
    package var name: String { ["Basis", "Reference", "Composite"][rawValue] }
}

/// A frequency band of a channel: effects of one band type within `lowerFrequencyLimit …
/// upperFrequencyLimit` Hz.
package struct HJIFBand: Sendable, Equatable {
    package var type: HJIFBandType
    /// Curve bands only; nil is the reference's "Unknown", drawn as `cubic`.
    package var curveType: HJIFCurveType?
    /// Wavelet bands: the block length in ticks.
    package var blockLength: Int?
    package var lowerFrequencyLimit: Int
    package var upperFrequencyLimit: Int
    package var priority: Int?
    package var effects: [HJIFEffect]

    /// Creates a band.
    package init(
        type: HJIFBandType, curveType: HJIFCurveType? = nil, blockLength: Int? = nil, lowerFrequencyLimit: Int = 0,
        upperFrequencyLimit: Int = 1000, priority: Int? = nil, effects: [HJIFEffect] = []
    ) {
        self.type = type
        self.curveType = curveType
        self.blockLength = blockLength
        self.lowerFrequencyLimit = lowerFrequencyLimit
        self.upperFrequencyLimit = upperFrequencyLimit
        self.priority = priority
        self.effects = effects
    }
}

/// An effect: keyframes from `position` (ticks), or a reference to a library effect, or a timeline.
package struct HJIFEffect: Sendable, Equatable {
    package var type: HJIFEffectType
    /// Library effects and references: the id.
    package var id: Int?
    /// Start in ticks.
    package var position: Int
    /// Vectorial: the phase in radians at the start (default 0).
    package var phase: Float?
    /// Vectorial: the waveform (default sine).
    package var baseSignal: HJIFBaseSignal?
    /// `semantic_keywords` ("UX/Click", …; metadata).
    package var semantic: String?
    package var keyframes: [HJIFKeyframe]
    /// Composite effects: their effects, positions relative to this one's.
    package var timeline: [HJIFEffect]
    /// Wavelet bands: the coded block (`wavelet_stream`, bytes).
    package var waveletStream: [UInt8]?

    /// Creates an effect.
    package init(
        type: HJIFEffectType = .basis, id: Int? = nil, position: Int, phase: Float? = nil, baseSignal: HJIFBaseSignal? = nil,
        semantic: String? = nil, keyframes: [HJIFKeyframe] = [], timeline: [HJIFEffect] = [], waveletStream: [UInt8]? = nil
    ) {
        self.type = type
        self.id = id
        self.position = position
        self.phase = phase
        self.baseSignal = baseSignal
        self.semantic = semantic
        self.keyframes = keyframes
        self.timeline = timeline
        self.waveletStream = waveletStream
    }
}

/// A keyframe: a time relative to its effect (ticks) with an amplitude (−1…1) and a frequency (Hz), each
/// optional.
package struct HJIFKeyframe: Sendable, Equatable {
    package var position: Int?
    package var amplitude: Float?
    package var frequency: Int?

    /// Creates a keyframe.
    package init(position: Int?, amplitude: Float? = nil, frequency: Int? = nil) {
        self.position = position
        self.amplitude = amplitude
        self.frequency = frequency
    }
}
