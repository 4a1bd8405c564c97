import FoundationEssentials

/// The error domain of Core Haptics errors.
public let CHHapticErrorDomain = "com.apple.CoreHaptics"

/// A Core Haptics error: a code with Apple's numeric value and a one-line message.
public struct CHHapticError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Core Haptics error codes with Apple's raw values.
    public enum Code: Int, Sendable, CaseIterable, CustomStringConvertible {
        case engineNotRunning = -4805
        case operationNotPermitted = -4806
        case engineStartTimeout = -4808
        case notSupported = -4809
        case serverInitFailed = -4810
        case serverInterrupted = -4811
        case invalidPatternPlayer = -4812
        case invalidPatternData = -4813
        case invalidPatternDictionary = -4814
        case invalidAudioSession = -4815
        case invalidEngineParameter = -4816
        case invalidParameterType = -4820
        case invalidEventType = -4821
        case invalidEventTime = -4822
        case invalidEventDuration = -4823
        case invalidAudioResource = -4824
        case resourceNotAvailable = -4825
        case badEventEntry = -4830
        case badParameterEntry = -4831
        case invalidTime = -4840
        case fileNotFound = -4851
        case insufficientPower = -4897
        case unknownError = -4898
        case memoryError = -4899

        /// The Swift case name, as shown in diagnostics (`invalidEventType`).
        package var name: String {
            switch self {
            case .engineNotRunning: "engineNotRunning"
            case .operationNotPermitted: "operationNotPermitted"
            case .engineStartTimeout: "engineStartTimeout"
            case .notSupported: "notSupported"
            case .serverInitFailed: "serverInitFailed"
            case .serverInterrupted: "serverInterrupted"
            case .invalidPatternPlayer: "invalidPatternPlayer"
            case .invalidPatternData: "invalidPatternData"
            case .invalidPatternDictionary: "invalidPatternDictionary"
            case .invalidAudioSession: "invalidAudioSession"
            case .invalidEngineParameter: "invalidEngineParameter"
            case .invalidParameterType: "invalidParameterType"
            case .invalidEventType: "invalidEventType"
            case .invalidEventTime: "invalidEventTime"
            case .invalidEventDuration: "invalidEventDuration"
            case .invalidAudioResource: "invalidAudioResource"
            case .resourceNotAvailable: "resourceNotAvailable"
            case .badEventEntry: "badEventEntry"
            case .badParameterEntry: "badParameterEntry"
            case .invalidTime: "invalidTime"
            case .fileNotFound: "fileNotFound"
            case .insufficientPower: "insufficientPower"
            case .unknownError: "unknownError"
            case .memoryError: "memoryError"
            }
        }
        public var description: String { "CHHapticError.\(name) (\(rawValue))" }
    }

    /// What went wrong, by category.
    public let code: Code
    /// One line naming what failed and, where it helps, what to do.
    public let message: String

    /// Creates an error with a code and a one-line message.
    public init(_ code: Code, _ message: String = "") {
        self.code = code
        self.message = message
    }

    /// Apple's numeric error code (e.g. −4821).
    public var errorCode: Int { code.rawValue }
    /// The error domain, `com.apple.CoreHaptics`.
    public static var errorDomain: String { CHHapticErrorDomain }
    public var description: String { message.isEmpty ? code.description : "\(message) [\(code)]" }

    public static var engineNotRunning: Code { .engineNotRunning }
    public static var operationNotPermitted: Code { .operationNotPermitted }
    public static var engineStartTimeout: Code { .engineStartTimeout }
    public static var notSupported: Code { .notSupported }
    public static var serverInitFailed: Code { .serverInitFailed }
    public static var serverInterrupted: Code { .serverInterrupted }
    public static var invalidPatternPlayer: Code { .invalidPatternPlayer }
    public static var invalidPatternData: Code { .invalidPatternData }
    public static var invalidPatternDictionary: Code { .invalidPatternDictionary }
    public static var invalidAudioSession: Code { .invalidAudioSession }
    public static var invalidEngineParameter: Code { .invalidEngineParameter }
    public static var invalidParameterType: Code { .invalidParameterType }
    public static var invalidEventType: Code { .invalidEventType }
    public static var invalidEventTime: Code { .invalidEventTime }
    public static var invalidEventDuration: Code { .invalidEventDuration }
    public static var invalidAudioResource: Code { .invalidAudioResource }
    public static var resourceNotAvailable: Code { .resourceNotAvailable }
    public static var badEventEntry: Code { .badEventEntry }
    public static var badParameterEntry: Code { .badParameterEntry }
    public static var invalidTime: Code { .invalidTime }
    public static var fileNotFound: Code { .fileNotFound }
    public static var insufficientPower: Code { .insufficientPower }
    public static var unknownError: Code { .unknownError }
    public static var memoryError: Code { .memoryError }
}

extension CHHapticError.Code {
    /// Lets `catch CHHapticError.invalidEventType` match, as with Apple's bridged error.
    public static func ~= (code: Self, error: any Error) -> Bool {
        (error as? CHHapticError)?.code == code
    }
}
