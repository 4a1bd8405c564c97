// Computes the spectrogram off the page's main thread, so the playhead and the controls stay smooth.
import { spectrogram } from "./spectrogram.js";

self.onmessage = (event) => {
  const { sequence, samples, sampleRate } = event.data;
  const result = spectrogram(samples, sampleRate);
  self.postMessage({ sequence, image: result.image, secondsPerColumn: result.secondsPerColumn }, [result.image.data.buffer]);
};
