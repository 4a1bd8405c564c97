// The sound files of AudioCustom events, fetched once each (GET /api/file) for their lanes' waveforms and lengths.

import { decodeWav } from "./wav.js";

/**
 * Fetches the sound of every AudioCustom item whose path is not in `sounds` yet.
 * @param {import("./api.js").StudioApi} api
 * @param {object[]} items the document's items (model.itemsOf)
 * @param {string} folder the pattern's folder relative to the root ("" or ending in "/"): where its paths start
 * @param {Map<string, object>} sounds path → {loading} | {samples (mono), sampleRate, seconds} | {error}
 * @param {() => void} loaded called after each sound arrives or fails
 */
export function loadSounds(api, items, folder, sounds, loaded) {
  for (const item of items) {
    if (item.type !== "AudioCustom" || !item.path || sounds.has(item.path)) continue;
    sounds.set(item.path, { loading: true });
    api.file(folder + item.path).then((bytes) => {
      const wav = decodeWav(bytes);
      const samples = new Float32Array(wav.frames);
      for (const channel of wav.channels) for (let i = 0; i < wav.frames; i++) samples[i] += channel[i] / wav.channels.length;
      sounds.set(item.path, { samples, sampleRate: wav.sampleRate, seconds: wav.frames / wav.sampleRate });
    }).catch((error) => {
      sounds.set(item.path, { error: error.message });
    }).finally(loaded);
  }
}
