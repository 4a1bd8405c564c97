extension CompiledPattern {
    /// The most voices one pass of the pattern needs at once (at rate 1, default controls; release tails
    /// and audio files included), and the index in `PatternData.events` of the event that starts when
    /// that many first sound; `(0, nil)` without events. More than the renderer's `maxVoices` means
    /// events are dropped (`RenderStatistics.voiceOverflowCount`).
    /// - Important: Thread safety: any thread. Real-time safe: no (it sorts).
    package var voicePeak: (voices: Int, eventIndex: Int?) {
        // `events` are sorted by start; a voice is free again at its end frame.
        let starts = events.map { Int(($0.time * sampleRate).rounded()) }
        let ends = zip(starts, events).map { $0 + $1.lengthFrames }.sorted()
        var peak = (voices: 0, eventIndex: Int?.none)
        var ended = 0
        for (order, start) in starts.enumerated() {
            while ended < ends.count && ends[ended] <= start { ended += 1 }
            let sounding = order + 1 - ended
            if sounding > peak.voices { peak = (sounding, events[order].index) }
        }
        return peak
    }
}
