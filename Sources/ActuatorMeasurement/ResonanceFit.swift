// The actuator's model fitted to the measured response: a second-order resonance (band-pass, as a linear
// resonant actuator; high-pass, as a wideband voice coil) with a gain and a pure delay, which is the device's
// part of the loop's latency; the resonance's group delay is the actuator's part.
import Glibc

/// The shape of the actuator's second-order response.
package enum ResonanceModel: String, Sendable, CaseIterable {
    /// (s / Qω0) / (s²/ω0² + s/Qω0 + 1): a peak at f0 (a linear resonant actuator).
    case bandpass
    /// (s²/ω0²) / (s²/ω0² + s/Qω0 + 1): flat above f0 (a wideband voice coil).
    case highpass

    /// The model's response at `frequency` for resonance `f0` (Hz) and quality `q`, gain 1, no delay.
    func response(at frequency: Double, f0: Double, q: Double) -> Complex {
        let x = frequency / f0
        let denominator = Complex(1 - x * x, x / q)
        let numerator = self == .bandpass ? Complex(0, x / q) : Complex(-x * x, 0)
        return numerator / denominator
    }
}

/// A fitted resonance: gain × model × e^(−2πifτ).
struct ResonanceFit {
    var model: ResonanceModel
    /// Hz.
    var f0: Double
    var q: Double
    /// Signed gain (negative: the sensor is wired inverted).
    var gain: Double
    /// The pure delay, seconds.
    var delay: Double
    /// The weighted mean square of the residuals (log magnitude and phase).
    var cost: Double

    func response(at frequency: Double) -> Complex {
        model.response(at: frequency, f0: f0, q: q) * gain * Complex.unit(-2 * Double.pi * frequency * delay)
    }

    /// The actuator's group delay at `frequency` (the pure delay left out), seconds.
    func groupDelay(at frequency: Double) -> Double {
        let step = frequency * 0.001
        let before = model.response(at: frequency - step, f0: f0, q: q).phase
        let after = model.response(at: frequency + step, f0: f0, q: q).phase
        var difference = after - before
        while difference > Double.pi { difference -= 2 * Double.pi }
        while difference < -Double.pi { difference += 2 * Double.pi }
        return -difference / (2 * Double.pi * 2 * step)
    }

    /// The best fit of either model to `measured` at `frequencies` with `weights` (0…1, the share of the
    /// point that is signal rather than noise); nil when fewer than 8 points carry weight.
    static func fit(frequencies: [Double], measured: [Complex], weights: [Double]) -> ResonanceFit? {
        guard weights.filter({ $0 > 0.5 }).count >= 8 else { return nil }
        return ResonanceModel.allCases.compactMap { fit($0, frequencies, measured, weights) }.min { $0.cost < $1.cost }
    }

    private static func fit(_ model: ResonanceModel, _ f: [Double], _ h: [Complex], _ w: [Double]) -> ResonanceFit? {
        let logMagnitude = h.map { log(max($0.magnitude, 1e-30)) }
        // 1. The magnitude alone on a grid of f0 and Q, the gain in closed form.
        var best = (cost: Double.infinity, f0: 0.0, q: 0.0, logGain: 0.0)
        let weightSum = w.reduce(0, +)
        for i in 0..<160 {
            let f0 = 8 * pow(250.0, Double(i) / 159)  // 8 Hz … 2 kHz
            for j in 0..<60 {
                let q = 0.25 * pow(240.0, Double(j) / 59)  // 0.25 … 60
                var difference = [Double](repeating: 0, count: f.count)
                var mean = 0.0
                for k in f.indices {
                    difference[k] = logMagnitude[k] - log(max(model.response(at: f[k], f0: f0, q: q).magnitude, 1e-30))
                    mean += w[k] * difference[k]
                }
                mean /= weightSum
                var cost = 0.0
                for k in f.indices { cost += w[k] * (difference[k] - mean) * (difference[k] - mean) }
                if cost < best.cost { best = (cost, f0, q, mean) }
            }
        }
        // 2. The delay and the sign: the delay that lines the phase residuals up best.
        let residual = f.indices.map { h[$0].phase - model.response(at: f[$0], f0: best.f0, q: best.q).phase }
        var bestDelay = (strength: -1.0, delay: 0.0, angle: 0.0)
        var delay = -0.005
        while delay <= 0.25 {
            var re = 0.0
            var im = 0.0
            for k in f.indices {
                let angle = residual[k] + 2 * Double.pi * f[k] * delay
                re += w[k] * cos(angle)
                im += w[k] * sin(angle)
            }
            let strength = re * re + im * im
            if strength > bestDelay.strength { bestDelay = (strength, delay, atan2(im, re)) }
            delay += 0.00001
        }
        let sign: Double = abs(bestDelay.angle) > Double.pi / 2 ? -1 : 1
        // 3. Everything together (Levenberg–Marquardt on log magnitude and phase).
        var parameters = [best.logGain, log(best.f0), log(best.q), bestDelay.delay]
        func residuals(_ p: [Double]) -> [Double] {
            var r: [Double] = []
            r.reserveCapacity(2 * f.count)
            for k in f.indices {
                let m = model.response(at: f[k], f0: exp(p[1]), q: exp(p[2])) * (sign * exp(p[0]))
                    * Complex.unit(-2 * Double.pi * f[k] * p[3])
                let ratio = h[k] / m
                let weight = w[k].squareRoot()
                r.append(weight * log(max(ratio.magnitude, 1e-30)))
                r.append(weight * ratio.phase)
            }
            return r
        }
        parameters = LevenbergMarquardt.minimize(residuals, from: parameters, steps: [1e-4, 1e-5, 1e-5, 1e-7])
        let final = residuals(parameters)
        let cost = final.reduce(0) { $0 + $1 * $1 } / weightSum
        return ResonanceFit(
            model: model, f0: exp(parameters[1]), q: exp(parameters[2]), gain: sign * exp(parameters[0]),
            delay: parameters[3], cost: cost)
    }
}

/// Levenberg–Marquardt least squares with a forward-difference Jacobian; small problems only.
enum LevenbergMarquardt {
    static func minimize(_ residuals: ([Double]) -> [Double], from start: [Double], steps: [Double], iterations: Int = 60) -> [Double] {
        var p = start
        var r = residuals(p)
        var cost = r.reduce(0) { $0 + $1 * $1 }
        var lambda = 1e-3
        let n = p.count
        for _ in 0..<iterations {
            var jacobian = [[Double]](repeating: [], count: n)
            for j in 0..<n {
                var q = p
                q[j] += steps[j]
                let rq = residuals(q)
                jacobian[j] = zip(rq, r).map { ($0 - $1) / steps[j] }
            }
            var a = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
            var g = [Double](repeating: 0, count: n)
            for i in 0..<n {
                for j in 0..<n { a[i][j] = zip(jacobian[i], jacobian[j]).reduce(0) { $0 + $1.0 * $1.1 } }
                g[i] = -zip(jacobian[i], r).reduce(0) { $0 + $1.0 * $1.1 }
            }
            var improved = false
            for _ in 0..<10 {
                var damped = a
                for i in 0..<n { damped[i][i] *= 1 + lambda }
                guard let step = solve(damped, g) else { break }
                let candidate = zip(p, step).map { $0 + $1 }
                let rc = residuals(candidate)
                let candidateCost = rc.reduce(0) { $0 + $1 * $1 }
                if candidateCost < cost {
                    let gain = cost - candidateCost
                    p = candidate
                    r = rc
                    cost = candidateCost
                    lambda = max(lambda / 3, 1e-9)
                    improved = gain > cost * 1e-12
                    break
                }
                lambda *= 4
            }
            if !improved { break }
        }
        return p
    }

    /// Solves a·x = b by Gaussian elimination with partial pivoting; nil when singular.
    static func solve(_ a: [[Double]], _ b: [Double]) -> [Double]? {
        var m = a
        var v = b
        let n = b.count
        for column in 0..<n {
            guard let pivot = (column..<n).max(by: { abs(m[$0][column]) < abs(m[$1][column]) }), abs(m[pivot][column]) > 1e-300
            else { return nil }
            m.swapAt(column, pivot)
            v.swapAt(column, pivot)
            for row in (column + 1)..<n {
                let factor = m[row][column] / m[column][column]
                for k in column..<n { m[row][k] -= factor * m[column][k] }
                v[row] -= factor * v[column]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            var sum = v[row]
            for k in (row + 1)..<n { sum -= m[row][k] * x[k] }
            x[row] = sum / m[row][row]
        }
        return x
    }
}
