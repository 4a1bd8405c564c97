/// The object the playback thread pulls audio from, one period at a time.
///
/// A render source is *owned by the playback thread* while playback runs: ``ALSAPlayback/start(source:onFailure:)``
/// takes it as a `sending` argument, so the caller cannot keep using it concurrently. To talk to a running
/// source, give it atomics or a lock-free ring created beforehand and keep the other end.
///
/// - Important: Real-time rules apply to ``render(into:frameCount:channelCount:)``: no allocation or
///   freeing (including dropping the last reference to a class, growing an `Array`/`String`, capturing
///   closures), no locks, no logging, no I/O, no `await`. Only atomics, bounded loops and writes into
///   memory allocated beforehand.
package protocol ALSARenderSource: AnyObject {
    /// Fills `frameCount` interleaved frames of `channelCount` channels (float, -1…1) into `buffer`.
    ///
    /// The buffer is pre-filled with silence (zeros) before each call, so a source that has nothing to
    /// play may return at once. Called on the playback thread only, exactly once per period, with
    /// `frameCount` equal to ``ALSAPlayback/periodFrames``.
    /// - Parameters:
    ///   - buffer: `frameCount × channelCount` floats, interleaved (frame 0 ch 0, frame 0 ch 1, …).
    ///   - frameCount: frames to render.
    ///   - channelCount: channels per frame.
    func render(into buffer: UnsafeMutablePointer<Float>, frameCount: Int, channelCount: Int)
}
