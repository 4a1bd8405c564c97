/// Limits applied to custom audio resources when they are registered or a pattern loads.
///
/// Defaults follow docs/decisions.md ("Audio events"): each file at most 4 200 000 bytes on disk
/// and 23 s long; all registered audio together at most 92 160 000 bytes of decoded float
/// samples. A value type; safe to share between threads.
public struct AudioResourceLimits: Sendable, Equatable {
    /// Largest accepted file size on disk, in bytes. Default 4 200 000.
    public var maxFileBytes: Int
    /// Longest accepted file, in seconds of audio at the file's own sample rate. Default 23.
    public var maxDurationSeconds: Double
    /// Largest total of decoded samples across all registered resources, in bytes
    /// (frames × channels × 4, at the engine rate). Default 92 160 000.
    public var maxTotalDecodedBytes: Int

    /// Default per-file size limit in bytes.
    public static let defaultMaxFileBytes = 4_200_000
    /// Default per-file duration limit in seconds.
    public static let defaultMaxDurationSeconds: Double = 23
    /// Default total decoded-sample budget in bytes.
    public static let defaultMaxTotalDecodedBytes = 92_160_000

    /// Creates limits; every argument defaults to the docs/decisions.md value.
    public init(
        maxFileBytes: Int = AudioResourceLimits.defaultMaxFileBytes,
        maxDurationSeconds: Double = AudioResourceLimits.defaultMaxDurationSeconds,
        maxTotalDecodedBytes: Int = AudioResourceLimits.defaultMaxTotalDecodedBytes
    ) {
        self.maxFileBytes = maxFileBytes
        self.maxDurationSeconds = maxDurationSeconds
        self.maxTotalDecodedBytes = maxTotalDecodedBytes
    }

    /// The docs/decisions.md defaults.
    public static let `default` = AudioResourceLimits()
}
