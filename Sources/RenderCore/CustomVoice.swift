// AudioCustom voices: an audio file played through the voice's envelope, transposed by varispeed, low-passed
// and panned (docs/decisions.md "Audio events"). Render thread only: no allocation, no libm (fastExp2, sinCycles).

import ThrumModel

extension Voice {
    /// The sample of channel `channel` at file frame `index`: wrapped into the file when looping, else 0
    /// outside it (so interpolation near the ends fades towards silence instead of reading out of bounds).
    @inline(__always)
    func fileSample(_ data: UnsafePointer<Float>, _ index: Int, _ channel: Int) -> Float {
        var k = index
        if k < 0 || k >= fileFrames {
            guard loop else { return 0 }
            k %= fileFrames
            if k < 0 { k += fileFrames }
        }
        return data[k &* channels &+ channel]
    }

    /// Channel `channel` at the read position: the sample itself at a whole frame, else a 4-point cubic
    /// (Catmull-Rom) interpolation between the frames around it.
    @inline(__always)
    func read(_ data: UnsafePointer<Float>, _ channel: Int, at pos: Int, _ frac: Double) -> Float {
        if frac == 0 && pos < fileFrames { return data[pos &* channels &+ channel] }
        let x0 = fileSample(data, pos - 1, channel)
        let x1 = fileSample(data, pos, channel)
        let x2 = fileSample(data, pos + 1, channel)
        let x3 = fileSample(data, pos + 2, channel)
        let t = Float(frac)
        return x1 + 0.5 * t * (x2 - x0 + t * (2 * x0 - 5 * x1 + 4 * x2 - x3 + t * (3 * (x1 - x2) + x3 - x0)))
    }

    /// Frames of output left at age `a`, reading at `speed` file frames per frame: to EventDuration, and
    /// (not looping) to the file's end; with which end comes first (`natural`: the file's own).
    @inline(__always)
    func framesLeft(at a: Int, pos: Int, frac: Double, speed: Double) -> (frames: Int, natural: Bool) {
        let toDuration = durationFrames > 0 ? durationFrames - a : Int.max
        guard !loop else { return (toDuration, false) }
        let toFileEnd = Int(((Double(fileFrames - pos) - frac) / speed).rounded(.up))
        return toFileEnd <= toDuration ? (toFileEnd, true) : (toDuration, false)
    }

    /// AudioCustom: the file (looping if asked) through the envelope, at 2^pitch times natural speed, the
    /// tone's low-pass, constant-power pan (of each channel of a stereo file). Sets `end` when it is over.
    ///
    /// Envelope: the attack was set at the onset (a de-click ramp, or t(x) following the attack control when
    /// the event gives AttackTime); the release begins when the frames left reach its length — t(x) (release
    /// x + control) when the event gives ReleaseTime, else the de-click ramp of the end it comes to — and
    /// reaches 0 exactly at that end.
    @inline(__always)
    mutating func renderCustom(
        frame: Int, count: Int, lanes: UnsafePointer<Lane>, left: UnsafeMutablePointer<Float>,
        right: UnsafeMutablePointer<Float>, gainScale: Float
    ) {
        guard let data = samples else {
            age += count
            return
        }
        let vc = lanes[ControlLane.audioVolume.rawValue]
        let panc = lanes[ControlLane.audioPan.rawValue]
        let pc = lanes[ControlLane.audioPitch.rawValue]
        let bc = lanes[ControlLane.audioBrightness.rawValue]
        let constant = vc.slope == 0 && panc.slope == 0 && pc.slope == 0 && bc.slope == 0
        let ramping = timesRamp(lanes)
        var t = times(lanes, at: frame)
        if attackGiven { envelope.follow(t, at: age) }
        let stereo = channels == 2
        var pos = position
        var frac = fraction
        var yl = lowpass
        var yr = lowpassRight
        var vol: Float = 0
        var speed = 1.0
        var coefficient: Float = 1
        // Gains of the file's left (or only) channel and of its right channel on the two buses.
        var gainsL = (left: Float(0), right: Float(0))
        var gainsR = (left: Float(0), right: Float(0))
        var rendered = count
        for i in 0..<count {
            let a = age + i
            let f = frame + i
            if i == 0 || !constant {
                vol = min(max(volume * vc.at(f), 0), 1)
                let p = min(max(pitch + pc.at(f), -1), 1)
                speed = p == 0 ? 1 : Double(fastExp2(p))
                let b = min(max(brightness + bc.at(f), 0), 1)
                coefficient = lowpassBase + (1 - lowpassBase) * (b * b)
                let pn = min(max(pan + panc.at(f), -1), 1)
                if stereo {
                    gainsL = panGains(min(max(2 * pn - 1, -1), 1))
                    gainsR = panGains(min(max(2 * pn + 1, -1), 1))
                } else {
                    gainsL = panGains(pn)
                }
            }
            if ramping {
                t = times(lanes, at: f)
                if attackGiven { envelope.follow(t, at: a) }
            }
            let (leftFrames, natural) = framesLeft(at: a, pos: pos, frac: frac, speed: speed)
            if useEnvelope, leftFrames > 0, envelope.stage == .attack || envelope.stage == .hold {
                let ramp = min(
                    releaseGiven ? t.release : natural ? Int((Double(endRamp) / speed).rounded()) : cutRamp, rampLimit)
                if leftFrames <= ramp { envelope.fall(.release, at: a, from: envelope.level(a), frames: leftFrames) }
            }
            while a >= envelope.stageEnd && envelope.stage != .done { envelope.advance(at: a, times: t) }
            if leftFrames <= 0 || envelope.stage == .done {
                end = a
                rendered = i
                break
            }
            let g = vol * envelope.level(a) * fade(a) * gainScale
            let xl = read(data, 0, at: pos, frac)
            yl = coefficient >= 1 ? xl : yl + coefficient * (xl - yl)
            if stereo {
                let xr = read(data, 1, at: pos, frac)
                yr = coefficient >= 1 ? xr : yr + coefficient * (xr - yr)
                left[i] += (yl * gainsL.left + yr * gainsR.left) * g
                right[i] += (yl * gainsL.right + yr * gainsR.right) * g
            } else {
                let s = yl * g
                left[i] += s * gainsL.left
                right[i] += s * gainsL.right
            }
            if speed == 1 {
                pos += 1
            } else {
                frac += speed
                let whole = Int(frac)
                pos += whole
                frac -= Double(whole)
            }
            if loop && pos >= fileFrames { pos %= fileFrames }
        }
        position = pos
        fraction = frac
        lowpass = yl
        lowpassRight = yr
        age += rendered
    }
}
