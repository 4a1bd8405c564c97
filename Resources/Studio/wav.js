// WAV decoding for the studio page (no DOM). Reads RIFF/RF64 WAVE with 32- or 64-bit float or 16/24/32-bit
// integer PCM, plain or WAVE_FORMAT_EXTENSIBLE: what GET /api/render (32-bit float) and GET /api/audio send.

const FORMAT_PCM = 1;
const FORMAT_FLOAT = 3;
const FORMAT_EXTENSIBLE = 0xfffe;

/**
 * Decodes a WAV file.
 * @param {ArrayBuffer} buffer the whole file
 * @returns {{sampleRate: number, channels: Float32Array[], frames: number}} one array per channel, samples in −1…1
 * @throws {Error} naming what is wrong when the file is not a WAV this reader handles
 */
export function decodeWav(buffer) {
  const view = new DataView(buffer);
  const tag = (offset) => String.fromCharCode(view.getUint8(offset), view.getUint8(offset + 1), view.getUint8(offset + 2), view.getUint8(offset + 3));
  if (buffer.byteLength < 12 || !["RIFF", "RF64"].includes(tag(0)) || tag(8) !== "WAVE") {
    throw new Error("not a WAV file (no RIFF/WAVE header)");
  }
  let offset = 12;
  let format = null;
  let dataOffset = -1;
  let dataBytes = 0;
  let rf64DataBytes = null;
  while (offset + 8 <= buffer.byteLength) {
    const id = tag(offset);
    let size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === "ds64") {
      rf64DataBytes = Number(view.getBigUint64(body + 8, true));
    } else if (id === "fmt ") {
      let code = view.getUint16(body, true);
      const channelCount = view.getUint16(body + 2, true);
      const sampleRate = view.getUint32(body + 4, true);
      const bits = view.getUint16(body + 14, true);
      if (code === FORMAT_EXTENSIBLE && size >= 40) code = view.getUint16(body + 24, true);
      format = { code, channelCount, sampleRate, bits };
    } else if (id === "data") {
      if (size === 0xffffffff && rf64DataBytes !== null) size = rf64DataBytes;
      dataOffset = body;
      dataBytes = Math.min(size, buffer.byteLength - body);
      break;
    }
    offset = body + size + (size & 1);
  }
  if (!format) throw new Error("WAV file without a fmt chunk");
  if (dataOffset < 0) throw new Error("WAV file without a data chunk");
  const { code, channelCount, sampleRate, bits } = format;
  const bytesPerSample = bits / 8;
  if (channelCount < 1 || !Number.isInteger(bytesPerSample)) throw new Error(`unsupported WAV layout (${channelCount} channels, ${bits} bits)`);
  const frames = Math.floor(dataBytes / (bytesPerSample * channelCount));
  const channels = Array.from({ length: channelCount }, () => new Float32Array(frames));
  if (code === FORMAT_FLOAT && bits === 32) {
    // Fast path: read the data in place when it is 4-byte aligned (else copy once), then de-interleave.
    const count = frames * channelCount;
    const interleaved = dataOffset % 4 === 0 ? new Float32Array(buffer, dataOffset, count)
      : new Float32Array(buffer.slice(dataOffset, dataOffset + count * 4));
    deinterleave(interleaved, channels, frames);
  } else if (code === FORMAT_FLOAT && bits === 64) {
    const interleaved = new Float64Array(buffer.slice(dataOffset, dataOffset + frames * channelCount * 8));
    deinterleave(interleaved, channels, frames);
  } else if (code === FORMAT_PCM && [16, 24, 32].includes(bits)) {
    const scale = 1 / 2 ** (bits - 1);
    let position = dataOffset;
    for (let frame = 0; frame < frames; frame++) {
      for (let channel = 0; channel < channelCount; channel++) {
        let value;
        if (bits === 16) value = view.getInt16(position, true);
        else if (bits === 32) value = view.getInt32(position, true);
        else value = (view.getUint8(position) | (view.getUint8(position + 1) << 8) | (view.getInt8(position + 2) << 16));
        channels[channel][frame] = value * scale;
        position += bytesPerSample;
      }
    }
  } else {
    throw new Error(`unsupported WAV sample format (format ${code}, ${bits} bits)`);
  }
  return { sampleRate, channels, frames };
}

function deinterleave(interleaved, channels, frames) {
  const count = channels.length;
  if (count === 1) { channels[0].set(interleaved.subarray(0, frames)); return; }
  for (let channel = 0; channel < count; channel++) {
    const out = channels[channel];
    for (let frame = 0, i = channel; frame < frames; frame++, i += count) out[frame] = interleaved[i];
  }
}

/**
 * Minimum and maximum of each column of a time window, for drawing a waveform.
 * @param {Float32Array} samples one channel
 * @param {number} sampleRate Hz
 * @param {number} start window start in seconds
 * @param {number} secondsPerColumn column width in seconds (> 0)
 * @param {number} columns how many columns
 * @returns {Float32Array} 2 × columns values: min, max, min, max, … (0 where the window has no samples)
 */
export function columnPeaks(samples, sampleRate, start, secondsPerColumn, columns) {
  const peaks = new Float32Array(columns * 2);
  for (let column = 0; column < columns; column++) {
    let from = Math.floor((start + column * secondsPerColumn) * sampleRate);
    let to = Math.floor((start + (column + 1) * secondsPerColumn) * sampleRate);
    if (to <= from) to = from + 1;
    from = Math.max(0, from);
    to = Math.min(samples.length, to);
    let low = 0;
    let high = 0;
    for (let i = from; i < to; i++) {
      const value = samples[i];
      if (value < low) low = value;
      if (value > high) high = value;
    }
    peaks[column * 2] = low;
    peaks[column * 2 + 1] = high;
  }
  return peaks;
}

/**
 * Peaks of `columns` columns of `secondsPerColumn` from `start`, made from coarser or shifted peaks (min, max
 * pairs of columns of `sourceWidth` seconds from `sourceStart`): each column takes the extremes of the source
 * columns it overlaps (0 where there are none). Equal spacing and aligned starts give the source back.
 * @returns {Float32Array} 2 × columns values: min, max, …
 */
export function regroupPeaks(source, sourceStart, sourceWidth, start, secondsPerColumn, columns) {
  const peaks = new Float32Array(columns * 2);
  const count = source.length / 2;
  for (let column = 0; column < columns; column++) {
    const from = Math.max(0, Math.floor((start + column * secondsPerColumn - sourceStart) / sourceWidth + 1e-6));
    const to = Math.min(count, Math.ceil((start + (column + 1) * secondsPerColumn - sourceStart) / sourceWidth - 1e-6));
    let low = 0;
    let high = 0;
    for (let i = from; i < to; i++) {
      if (source[i * 2] < low) low = source[i * 2];
      if (source[i * 2 + 1] > high) high = source[i * 2 + 1];
    }
    peaks[column * 2] = low;
    peaks[column * 2 + 1] = high;
  }
  return peaks;
}
