import ALSAOutput
import RenderCore
import Thrum

/// The device check run when an engine's start on a device was refused: negotiates on the device once
/// (nothing is played), falls back to the nearest rate it has when no rate was asked for, and turns a
/// refusal into one line that lists every mismatch, what the card accepts, and the fix Thrum itself offers
/// first.
package enum DeviceCheck {
    /// Checks `device` for `options`; moves `options.sampleRate` to the device's nearest rate when
    /// `rateGiven` is false.
    /// - Returns: a note saying so, or nil.
    /// - Throws: `ServiceError` (exit 69) naming the device's limits and the fix.
    package static func check(
        _ device: String, options: inout CHHapticEngine.Options, rateGiven: Bool
    ) throws(ServiceError) -> String? {
        let configuration = ALSADeviceConfiguration(
            source: .named(device), sampleRate: Int(options.sampleRate), channels: options.channelMap.channelCount,
            periodFrames: options.periodFrames, periodCount: options.periodCount, requireExactRate: rateGiven,
            realtimePriority: nil, lockMemory: false)
        let setup: ALSAStreamSetup
        do {
            setup = try ALSADevices.negotiate(configuration)
        } catch {
            guard !error.mismatches.isEmpty else { throw ServiceError(.unavailable, error.description) }
            throw ServiceError(.unavailable, refusal(error, device: device, map: options.channelMap))
        }
        guard setup.sampleRate != Int(options.sampleRate) else { return nil }
        let note =
            "'\(device)' does not play \(Int(options.sampleRate)) Hz; playing at "
            + "\(setup.sampleRate) Hz, the nearest rate it has (pick one with --sample-rate)"
        options.sampleRate = Double(setup.sampleRate)
        return note
    }

    /// Which of the device's channels stay silent, when it needs more than the channel map fills; or nil.
    package static func silentChannelsNote(_ setup: ALSAStreamSetup, device: String, map: ChannelMap) -> String? {
        guard let silent = setup.silentChannels else { return nil }
        let which = silent.count == 1 ? "\(silent.lowerBound) is" : "\(silent.lowerBound)–\(silent.upperBound) are"
        return "'\(device)' needs \(setup.deviceChannels) channels; \(which) silent "
            + "(--channels \(map) fills \(setup.sourceChannels))"
    }

    /// One line: every mismatch with what the card accepts, then Thrum's own fix, then the converting plugins.
    package static func refusal(_ error: ALSAError, device: String, map: ChannelMap) -> String {
        var fixes: [String] = []
        for mismatch in error.mismatches {
            switch mismatch {
            case .channels(_, let supported):
                fixes.append("--channels \(suggestedMap(for: map, maxChannels: supported.upperBound))")
            case .rate(let requested, let offered, let range):
                fixes.append("--sample-rate \(nearestRate(to: requested, offered: offered, range: range))")
            case .format, .access:
                break
            }
        }
        let problems = error.mismatches.map { mismatch -> String in
            guard case .channels(let requested, let supported) = mismatch else { return mismatch.description }
            let has = supported.count == 1 ? "\(supported.upperBound)" : "\(supported.lowerBound)–\(supported.upperBound)"
            return "--channels \(map) needs \(requested) channels, it has \(has)"
        }.joined(separator: "; ")
        let convert = "--device plughw:… or plug:…, which convert formats, channels and rates"
        let advice = fixes.isEmpty ? "use \(convert)" : "try \(fixes.joined(separator: " ")), or \(convert)"
        return "ALSA device '\(device)' does not accept this setup: \(problems); \(advice)"
    }

    /// A map of at most `maxChannels` entries that keeps what `map` carries: `M,H` for audio and haptics
    /// on two channels, `M+H` on one; `H` or `L,R`/`M` when only one kind is carried.
    package static func suggestedMap(for map: ChannelMap, maxChannels: Int) -> String {
        let haptic: Set<ChannelSource> = [.haptic, .leftHaptic, .rightHaptic, .monoHaptic]
        let audio: Set<ChannelSource> = [.left, .right, .mono, .leftHaptic, .rightHaptic, .monoHaptic]
        let hasHaptic = map.sources.contains { haptic.contains($0) }
        let hasAudio = map.sources.contains { audio.contains($0) }
        switch (hasHaptic, hasAudio) {
        case (true, true): return maxChannels >= 2 ? "M,H" : "M+H"
        case (true, false): return "H"
        default: return maxChannels >= 2 ? "L,R" : "M"
        }
    }

    /// The offered rate closest to `rate` (ties to the higher one), or the nearer end of `range`.
    package static func nearestRate(to rate: Int, offered: [Int], range: ClosedRange<Int>) -> Int {
        guard !offered.isEmpty else { return min(max(rate, range.lowerBound), range.upperBound) }
        return offered.min { abs($0 - rate) < abs($1 - rate) || (abs($0 - rate) == abs($1 - rate) && $0 > $1) } ?? rate
    }
}
