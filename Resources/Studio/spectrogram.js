// The audio spectrogram for the studio page (no DOM but an OffscreenCanvas-like target): a short-time
// Fourier transform (Hann window) drawn with a logarithmic frequency axis and a dB colour scale.

/** In-place radix-2 FFT of `re`/`im` (length a power of two). */
function fft(re, im) {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) { [re[i], re[j]] = [re[j], re[i]]; [im[i], im[j]] = [im[j], im[i]]; }
  }
  for (let size = 2; size <= n; size <<= 1) {
    const half = size >> 1;
    const step = -2 * Math.PI / size;
    for (let start = 0; start < n; start += size) {
      for (let k = 0; k < half; k++) {
        const cos = Math.cos(step * k), sin = Math.sin(step * k);
        const a = start + k, b = a + half;
        const tr = re[b] * cos - im[b] * sin;
        const ti = re[b] * sin + im[b] * cos;
        re[b] = re[a] - tr; im[b] = im[a] - ti;
        re[a] += tr; im[a] += ti;
      }
    }
  }
}

/** Colour map from 0 (silence) to 1 (loudest): near-black → violet → orange → pale yellow. */
function colour(x) {
  const stops = [[0, 14, 16, 22], [0.35, 58, 28, 110], [0.65, 200, 70, 90], [0.85, 250, 160, 60], [1, 255, 240, 190]];
  for (let i = 1; i < stops.length; i++) {
    if (x <= stops[i][0]) {
      const [p0, r0, g0, b0] = stops[i - 1];
      const [p1, r1, g1, b1] = stops[i];
      const f = (x - p0) / (p1 - p0);
      return [r0 + (r1 - r0) * f, g0 + (g1 - g0) * f, b0 + (b1 - b0) * f];
    }
  }
  return stops[stops.length - 1].slice(1);
}

export const SPECTROGRAM_LOW_HZ = 20;

/**
 * Computes a spectrogram image of `samples`.
 * @param {Float32Array} samples mono audio
 * @param {number} sampleRate Hz
 * @param {number} maxColumns most time columns (the hop grows for long sounds; at least 256 samples)
 * @param {number} rows frequency rows, log-spaced from 20 Hz to the Nyquist frequency, row 0 at the top
 * @returns {{image: ImageData, secondsPerColumn: number}} or null for silence-free empty input
 */
export function spectrogram(samples, sampleRate, maxColumns = 2400, rows = 96) {
  const size = 1024;
  const hop = Math.max(256, Math.ceil(samples.length / maxColumns));
  const columns = Math.max(1, Math.ceil(samples.length / hop));
  const window = new Float32Array(size);
  for (let i = 0; i < size; i++) window[i] = 0.5 - 0.5 * Math.cos(2 * Math.PI * i / size);
  const nyquist = sampleRate / 2;
  const rowBins = new Int32Array(rows + 1);
  for (let r = 0; r <= rows; r++) {
    const hz = SPECTROGRAM_LOW_HZ * Math.pow(nyquist / SPECTROGRAM_LOW_HZ, 1 - r / rows);
    rowBins[r] = Math.min(size / 2, Math.max(1, Math.round(hz / sampleRate * size)));
  }
  const levels = new Float32Array(columns * rows);
  const re = new Float32Array(size), im = new Float32Array(size);
  for (let c = 0; c < columns; c++) {
    const centre = c * hop + hop / 2;
    const from = Math.round(centre - size / 2);
    for (let i = 0; i < size; i++) {
      const s = samples[from + i];
      re[i] = s === undefined ? 0 : s * window[i];
      im[i] = 0;
    }
    fft(re, im);
    for (let r = 0; r < rows; r++) {
      // rowBins runs from high (row 0) to low: take the strongest bin in the row's band.
      const high = rowBins[r], low = rowBins[r + 1];
      let power = 0;
      for (let b = low; b <= high; b++) power = Math.max(power, re[b] * re[b] + im[b] * im[b]);
      const db = 10 * Math.log10(power + 1e-12);
      levels[c * rows + r] = db;
    }
  }
  const image = new ImageData(columns, rows);
  // Absolute scale: a full-scale sine's bin (Hann window: amplitude × size / 4) is 0 dBFS; 90 dB below it is black.
  const fullScale = 20 * Math.log10(size / 4);
  const range = 90;
  for (let c = 0; c < columns; c++) {
    for (let r = 0; r < rows; r++) {
      const x = Math.min(1, Math.max(0, (levels[c * rows + r] - fullScale + range) / range));
      const [red, green, blue] = colour(x);
      const o = (r * columns + c) * 4;
      image.data[o] = red; image.data[o + 1] = green; image.data[o + 2] = blue; image.data[o + 3] = 255;
    }
  }
  return { image, secondsPerColumn: hop / sampleRate };
}
