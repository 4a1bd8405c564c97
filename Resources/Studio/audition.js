// Browser audition: plays the engine's render of the document with WebAudio when there is no usable device
// or when the user asks for it. The haptic channel goes to the side the user picks (as `--channels M,H` or
// `H,M`), or into both sides, or nowhere. Rate stays 1: WebAudio would change the pitch, the engine does not.

export class BrowserAudition {
  constructor() {
    this.context = null;
    this.buffer = null;
    this.render = null;
    this.side = "right";
    this.source = null;
    this.startedAt = 0;     // context time when `offset` was at the start of the buffer
    this.offset = 0;        // pattern seconds at startedAt
    this.paused = 0;
    this.playing = false;
    this.loop = { enabled: false, start: 0, end: 0 };
    this.onEnded = () => {};
  }

  /** Takes a new render ({sampleRate, channels: {L, R, H}}); a playing audition continues with it from where it is. */
  setRender(render) {
    this.render = render;
    this.buffer = null;
    if (this.playing) this.play(this.position);
  }

  setSide(side) {
    this.side = side;
    this.buffer = null;
    if (this.playing) this.play(this.position);
  }

  makeBuffer() {
    if (!this.context) this.context = new AudioContext({ latencyHint: "interactive" });
    const { sampleRate, channels } = this.render;
    const frames = (channels.L ?? channels.H).length;
    const buffer = this.context.createBuffer(2, Math.max(1, frames), sampleRate);
    const left = buffer.getChannelData(0), right = buffer.getChannelData(1);
    const L = channels.L ?? new Float32Array(frames), R = channels.R ?? L, H = channels.H ?? new Float32Array(frames);
    for (let i = 0; i < frames; i++) {
      const mono = (L[i] + R[i]) * 0.5;
      switch (this.side) {
        case "right": left[i] = mono; right[i] = H[i]; break;
        case "left": left[i] = H[i]; right[i] = mono; break;
        case "both": left[i] = L[i] + H[i]; right[i] = R[i] + H[i]; break;
        default: left[i] = L[i]; right[i] = R[i];
      }
    }
    return buffer;
  }

  /** Pattern seconds now. */
  get position() {
    if (!this.playing) return this.paused;
    let t = this.offset + (this.context.currentTime - this.startedAt);
    const [a, b] = this.loopSpan();
    if (this.loop.enabled && b > a && t >= b) t = a + ((t - a) % (b - a));
    return Math.min(t, this.buffer ? this.buffer.duration : t);
  }

  loopSpan() {
    const end = this.loop.end > 0 ? this.loop.end : (this.buffer?.duration ?? 0);
    return [this.loop.start, end];
  }

  setLoop(loop) {
    const position = this.position;
    this.loop = { ...loop };
    if (this.playing) this.play(position);
  }

  /** Starts (or restarts) at `from` pattern seconds. */
  play(from = this.paused) {
    if (!this.render) return false;
    this.stopSource();
    if (!this.buffer) this.buffer = this.makeBuffer();
    this.context.resume();
    const source = this.context.createBufferSource();
    source.buffer = this.buffer;
    const [a, b] = this.loopSpan();
    if (this.loop.enabled && b > a) {
      source.loop = true;
      source.loopStart = a;
      source.loopEnd = Math.min(b, this.buffer.duration);
      if (from >= b) from = a;
    }
    if (from >= this.buffer.duration) from = 0;
    source.connect(this.context.destination);
    source.onended = () => {
      if (this.source !== source) return;
      this.playing = false;
      this.paused = 0;
      this.onEnded();
    };
    this.startedAt = this.context.currentTime;
    this.offset = from;
    source.start(0, from);
    this.source = source;
    this.playing = true;
    return true;
  }

  pause() {
    this.paused = this.position;
    this.stopSource();
    this.playing = false;
  }

  stop() {
    this.stopSource();
    this.playing = false;
    this.paused = 0;
  }

  seek(t) {
    if (this.playing) this.play(t); else this.paused = t;
  }

  stopSource() {
    if (!this.source) return;
    const source = this.source;
    this.source = null;
    try { source.stop(); } catch { /* already stopped */ }
    source.disconnect();
  }
}
