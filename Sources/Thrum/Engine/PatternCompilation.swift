internal import AHAPCodec
internal import AudioResources
import FoundationEssentials
import FoundationStandIns
internal import Synchronization
internal import RenderCore

/// Decodes AHAP data for `playPattern(from: Data)`.
enum AHAPDecoderBridge {
    static func decode(data: Data) throws -> PatternData {
        let result = AHAPDecoder.decode(data: data)
        return try CHHapticPattern.accept(result.pattern, result.diagnostics)
    }
}

extension CHHapticError {
    /// The Core Haptics error for an audio file problem.
    init(_ error: AudioResourceError) {
        let code: CHHapticError.Code
        switch error.category {
        case .limitViolation: code = .resourceNotAvailable
        case .fileNotFound: code = .fileNotFound
        case .invalidAudio, .pathNotAllowed, .writeFailed: code = .invalidAudioResource
        }
        self.init(code, error.description)
    }
}

extension CHHapticEngine {
    /// Registers an audio file for `CHHapticEvent(audioResourceID:…)`: decodes it and converts it to the
    /// engine rate now (control side), within the size, length and memory limits.
    /// - Parameter options: `CHHapticAudioResourceKey.useVolumeEnvelope` (default true) and `.loopEnabled`.
    /// - Throws: `fileNotFound`, `invalidAudioResource` (unreadable) or `resourceNotAvailable` (a limit).
    public func registerAudioResource(
        _ resourceURL: URL, options resourceOptions: [CHHapticAudioResourceKey: Any] = [:]
    ) throws -> CHHapticAudioResourceID {
        guard resourceURL.isFileURL else {
            throw CHHapticError(.fileNotFound, "\(resourceURL.absoluteString) is not a file URL")
        }
        let audio: DecodedAudio
        do {
            audio = try AudioFileLoader.load(
                path: resourceURL.path, targetSampleRate: options.sampleRate, limits: options.resourceLimits)
            try budget.reserve(audio, file: resourceURL.path)
        } catch {
            throw CHHapticError(error)
        }
        let resource = RegisteredResource(
            audio: audio, buffer: Self.buffer(for: audio),
            useVolumeEnvelope: resourceOptions[.useVolumeEnvelope] as? Bool ?? true,
            loopEnabled: resourceOptions[.loopEnabled] as? Bool ?? false)
        return state.withLock { state in
            let id = state.nextResourceID
            state.nextResourceID += 1
            state.resources[id] = resource
            return id
        }
    }

    /// Unregisters a resource and returns its memory to the budget. Players already made keep playing it.
    /// - Throws: `invalidAudioResource` for an unknown ID.
    public func unregisterAudioResource(_ resourceID: CHHapticAudioResourceID) throws {
        let removed = state.withLock { $0.resources.removeValue(forKey: resourceID) }
        guard let removed else {
            throw CHHapticError(.invalidAudioResource, "no audio resource with ID \(resourceID) is registered")
        }
        budget.release(removed.audio.byteCount)
    }

    static func buffer(for audio: DecodedAudio) -> SampleBuffer {
        SampleBuffer(
            wrapping: audio.samples, channelCount: audio.channelCount, sampleRate: audio.sampleRate, owner: audio)
    }

    /// Checks, filters and compiles a pattern at the engine rate, loading its audio files.
    func compile(_ pattern: CHHapticPattern) throws -> CompiledPattern {
        if let error = PatternValidator.firstError(in: pattern.data) { throw error }
        var data = pattern.data
        let (hapticsOnly, audioOnly) = state.withLock { ($0.playsHapticsOnly, $0.playsAudioOnly) }
        if hapticsOnly { data.events.removeAll { $0.type.isAudio } }
        if audioOnly { data.events.removeAll { $0.type.isHaptic } }
        var buffers: [Int: SampleBuffer] = [:]
        for (index, event) in data.events.enumerated() where event.type == .audioCustom {
            if let id = event.audioResourceID {
                let resource = state.withLock { $0.resources[id] }
                guard let resource else {
                    throw CHHapticError(.invalidAudioResource, "no audio resource with ID \(id) is registered")
                }
                buffers[index] = resource.buffer
                if data.events[index].useVolumeEnvelope == nil {
                    data.events[index].useVolumeEnvelope = resource.useVolumeEnvelope
                }
                if data.events[index].loopEnabled == nil { data.events[index].loopEnabled = resource.loopEnabled }
            } else if let path = event.waveformPath {
                buffers[index] = try loadFile(path, folder: pattern.sourceFolder)
            }
        }
        do {
            return try CompiledPattern(
                compiling: data, sampleRate: options.sampleRate, profiles: hub.layout.actuators.map(\.profile),
                audio: { _, index in buffers[index] })
        } catch {
            throw CHHapticError(.invalidPatternData, "\(error)")
        }
    }

    /// Resolves and loads an AHAP `EventWaveformPath` (once per file per engine: one decode and one budget
    /// reservation even when several threads make players of it at once; they wait for each other here).
    func loadFile(_ path: String, folder: String?) throws -> SampleBuffer {
        let resolver = ResourcePathResolver(roots: options.resourceRoots, allowAnyPath: options.allowAnyResourcePath)
        return try fileLoading.withLock { _ throws(CHHapticError) -> SampleBuffer in
            do throws(AudioResourceError) {
                let file = try resolver.open(path, relativeTo: folder)
                if let cached = state.withLock({ $0.fileCache[file.identity] }) { return cached }
                let audio = try AudioFileLoader.load(
                    file, targetSampleRate: options.sampleRate, limits: options.resourceLimits)
                try budget.reserve(audio, file: path)
                let buffer = Self.buffer(for: audio)
                state.withLock { $0.fileCache[file.identity] = buffer }
                return buffer
            } catch {
                throw CHHapticError(error)
            }
        }
    }
}
