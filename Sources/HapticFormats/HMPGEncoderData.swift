import AHAPCodec
extension HMPGEncoder {
    /// The data packets of `document` (prepared by `HMPGPreparation`) by packet window (window w covers ticks
    /// w × `packetTicks` ..< (w + 1) × `packetTicks`): for each band and window, the effects with keyframes in
    /// the window, each with only those keyframes, its position relative to the window's start and its id
    /// (so that the decoder continues the effect); references whose position is in the window; each wavelet
    /// block in a packet of its own.
    static func dataPackets(_ document: HJIFDocument, packetTicks: Int) -> [Int: [BitWriter]] {
        var windows: [Int: [BitWriter]] = [:]
        var bandID = 0
        for perception in document.perceptions {
            for channel in perception.channels {
                for band in channel.bands {
                    let header = { (random: Bool) -> BitWriter in
                        var out = BitWriter()
                        out.write(random ? 0 : 1, 1)
                        out.write(perception.id, 8)
                        out.write(channel.id, 16)
                        out.write(bandID, 8)
                        return out
                    }
                    if band.type == .waveletWave {
                        for effect in band.effects where effect.type == .basis {
                            var out = header(true)
                            out.write(1, 16)
                            out.write(effect.id ?? 0, 16)
                            out.write(HJIFEffectType.basis.rawValue, 2)
                            semantic(effect.semantic, into: &out)
                            let stream = effect.waveletStream ?? []
                            out.write(stream.count, 16)
                            for byte in stream { out.write(Int(byte), 8) }
                            windows[max(effect.position, 0) / packetTicks, default: []].append(packet(.data, out))
                        }
                    } else {
                        for (window, effects) in bandWindows(band, packetTicks: packetTicks) {
                            var out = header(effects.allSatisfy(\.random))
                            out.write(effects.count, 16)
                            for effect in effects { out.append(effect.bits) }
                            windows[window, default: []].append(packet(.data, out))
                        }
                    }
                    bandID += 1
                }
            }
        }
        return windows
    }

    /// The effects of a (non-wavelet) band by window: their bits, and whether each starts with its first
    /// keyframe (a random access point).
    static func bandWindows(_ band: HJIFBand, packetTicks: Int) -> [Int: [(bits: BitWriter, random: Bool)]] {
        var windows: [Int: [(bits: BitWriter, random: Bool)]] = [:]
        for effect in band.effects {
            switch effect.type {
            case .reference:
                let window = effect.position / packetTicks
                var out = BitWriter()
                out.write(effect.id ?? 0, 16)
                out.write(HJIFEffectType.reference.rawValue, 2)
                out.write(effect.position - window * packetTicks, 25)
                windows[window, default: []].append((out, true))
            case .basis:
                var byWindow: [Int: [HJIFKeyframe]] = [:]
                var firstWindow = Int.max
                for keyframe in effect.keyframes {
                    let window = (effect.position + (keyframe.position ?? 0)) / packetTicks
                    byWindow[window, default: []].append(keyframe)
                    firstWindow = min(firstWindow, window)
                }
                for (window, keyframes) in byWindow {
                    var out = BitWriter()
                    out.write(effect.id ?? 0, 16)
                    out.write(HJIFEffectType.basis.rawValue, 2)
                    out.write(effect.position - window * packetTicks, 25)
                    semantic(effect.semantic, into: &out)
                    out.write(keyframes.count, 16)
                    if band.type == .vectorialWave {
                        out.quantised(effect.phase ?? 0, 16, 0, HMPGFormat.maxPhase)
                        out.write((effect.baseSignal ?? .sine).rawValue, 4)
                    }
                    for keyframe in keyframes { write(keyframe, band: band.type, into: &out) }
                    windows[window, default: []].append((out, window == firstWindow))
                }
            case .composite:
                break  // Flattened by HMPGPreparation.
            }
        }
        return windows
    }

    static func write(_ keyframe: HJIFKeyframe, band: HJIFBandType, into out: inout BitWriter) {
        switch band {
        case .transient:
            out.quantised(keyframe.amplitude ?? 0, 8, -1, 1)
            out.write(keyframe.position ?? 0, 16)
            out.write(keyframe.frequency ?? 0, 16)
        case .curve:
            out.quantised(keyframe.amplitude ?? 0, 8, -1, 1)
            out.write(keyframe.position ?? 0, 16)
        case .vectorialWave:
            out.write((keyframe.frequency == nil ? 0 : 2) | (keyframe.amplitude == nil ? 0 : 1), 2)
            if let amplitude = keyframe.amplitude { out.quantised(amplitude, 8, -1, 1) }
            out.write(keyframe.position ?? 0, 16)
            if let frequency = keyframe.frequency { out.write(frequency, 16) }
        case .waveletWave:
            break
        }
    }
}
