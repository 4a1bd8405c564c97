// Transport and output: play, pause, stop, seek and scrub, loop region, rate, on the engine through
// POST /api/transport (the playhead follows the engine's pushed positions), or in the browser (WebAudio of
// the engine's render) when there is no usable device or the user asks for it. Also the Output dialog.

import { BrowserAudition } from "./audition.js";

const $ = (id) => document.getElementById(id);

export class Transport {
  constructor(api, state, timeline, hooks) {
    this.api = api;
    this.state = state;
    this.timeline = timeline;
    this.hooks = hooks;
    this.mode = "engine";          // "engine" | "browser"
    this.userMode = "engine";      // what the user chose; "engine" falls back to "browser" without a device
    this.audition = new BrowserAudition();
    this.audition.onEnded = () => this.showPlaying(false);
    this.playing = false;
    this.engineAnchor = { position: 0, at: 0 };
    this.rate = 1;
    this.loop = { enabled: false, start: 0, end: 0 };
    this.seekBusy = false;
    this.seekNext = null;
    this.duration = 0;
    this.compareExport = null;
    $("play-button").addEventListener("click", () => this.toggle());
    $("stop-button").addEventListener("click", () => this.stopAll());
    $("home-button").addEventListener("click", () => this.seek(0, false));
    $("loop-button").addEventListener("click", () => this.toggleLoop());
    const slider = $("rate-slider");
    slider.addEventListener("input", () => this.showRate(2 ** Number(slider.value)));
    slider.addEventListener("change", () => this.setRate(2 ** Number(slider.value)));
    slider.addEventListener("dblclick", () => { slider.value = "0"; this.setRate(1); });
    $("output-button").addEventListener("click", () => this.openOutput());
    $("output-cancel").addEventListener("click", () => $("output-dialog").close());
    $("output-form").addEventListener("submit", (event) => { event.preventDefault(); this.applyOutput(); });
    $("haptic-side").addEventListener("change", () => this.audition.setSide($("haptic-side").value));
    requestAnimationFrame(() => this.frame());
  }

  /** Pattern seconds of the playhead now. */
  get position() {
    if (this.mode === "browser") return this.audition.position;
    if (!this.playing) return this.engineAnchor.position;
    // Between pushed positions (60 Hz), run on at the rate for at most 50 ms.
    const elapsed = Math.min((performance.now() - this.engineAnchor.at) / 1000, 0.05);
    let t = this.engineAnchor.position + elapsed * this.rate;
    const end = this.loop.end > 0 ? this.loop.end : this.duration;
    if (this.loop.enabled && end > this.loop.start && t > end) t = end;
    // Nor past the end: a short pattern's last pushed position plus 50 ms would page the view past it.
    if (this.duration > 0 && t > this.duration) t = this.duration;
    return t;
  }

  frame() {
    const t = this.position;
    if (this.mode === "browser" && this.playing !== this.audition.playing) this.showPlaying(this.audition.playing);
    if (t !== this.timeline.position) {
      this.timeline.movePlayhead(t);
      if (this.playing) this.timeline.follow(t);
    }
    $("position-readout").textContent = `${t.toFixed(3)} s`;
    requestAnimationFrame(() => this.frame());
  }

  showDuration(seconds) {
    this.duration = seconds;
    $("duration-readout").textContent = `${seconds.toFixed(3)} s`;
  }

  setRender(render) { this.audition.setRender(render); }

  showPlaying(playing) {
    this.playing = playing;
    document.documentElement.classList.toggle("playing", playing);
    $("play-icon").setAttribute("d", playing ? "M4 2.5h3v11H4zM9 2.5h3v11H9z" : "M4 2.5v11l9-5.5z");
    $("play-button").setAttribute("aria-label", playing ? "Pause (Space)" : "Play (Space)");
  }

  showLoop() {
    const button = $("loop-button");
    button.setAttribute("aria-pressed", String(this.loop.enabled));
    this.timeline.loop = { ...this.loop };
    this.timeline.invalidate();
  }

  showRate(rate) {
    $("rate-readout").textContent = `${rate.toFixed(2)}×`;
    $("rate-slider").setAttribute("aria-valuetext", `${rate.toFixed(2)} times`);
  }

  /** Takes the engine's status (GET /api/status or a pushed one). */
  applyStatus(status) {
    this.rate = status.rate ?? 1;
    this.loop = { enabled: !!status.loop, start: status.loopStart ?? 0, end: status.loopEnd ?? 0 };
    if (this.mode === "engine" && !this.acting) {
      this.engineAnchor = { position: status.position ?? 0, at: performance.now() };
      this.showPlaying(!!status.playing && !status.paused);
    }
    if (document.activeElement !== $("rate-slider")) {
      $("rate-slider").value = String(Math.log2(this.rate));
      this.showRate(this.rate);
    }
    this.deviceError = status.deviceError ?? (status.device ? null : "no output device");
    this.chooseMode();
    this.showLoop();
    if (status.duration !== undefined) this.showDuration(Math.max(status.duration, this.timeline.duration));
  }

  chooseMode() {
    const mode = this.userMode === "browser" || this.deviceError ? "browser" : "engine";
    if (mode !== this.mode) {
      if (this.mode === "browser") this.audition.stop();
      this.mode = mode;
      this.showPlaying(false);
    }
    const dot = $("output-dot");
    const summary = $("output-summary");
    const settings = this.settings ?? {};
    if (mode === "browser") {
      dot.className = "dot browser";
      summary.textContent = this.deviceError && this.userMode === "engine" ? "Browser audition (no device)" : "Browser audition";
    } else {
      dot.className = "dot ok";
      summary.textContent = `${settings.device ?? this.state.status?.device ?? "device"} · ${settings.channels ?? ""} · ${settings.profile ?? ""}`;
    }
    $("rate-slider").disabled = mode === "browser";
    $("rate-slider").title = mode === "browser" ? "The browser audition plays at rate 1 (WebAudio would change the pitch); the engine plays any rate" : "Rate (double-click: 1×)";
  }

  onPosition(message) {
    if (this.mode !== "engine" || this.acting) return;
    this.engineAnchor = { position: message.position, at: performance.now() };
    this.showPlaying(!!message.playing && !message.paused);
    this.compareExport = message.export ?? null;
    document.dispatchEvent(new CustomEvent("studio-export", { detail: this.compareExport }));
  }

  async send(fields) {
    // Until the server answers, pushed messages were sent before the action: they must not undo what it shows.
    this.acting = (this.acting ?? 0) + 1;
    try {
      const status = await this.api.transport(fields);
      this.hooks.refreshStatus?.();
      return status;
    } catch (error) {
      if (error.status === 503) {
        this.deviceError = error.message;
        this.chooseMode();
        this.hooks.toast(`${error.message} — auditioning in the browser instead.`, true);
      } else if (error.status === 409) {
        this.hooks.toast(error.message, true);
      } else {
        this.hooks.fail(error);
      }
      return null;
    } finally {
      this.acting -= 1;
    }
  }

  toggle() { return this.playing ? this.pause() : this.play(); }

  async play() {
    if (this.mode === "browser") {
      this.audition.setLoop(this.loop);
      if (!this.audition.play()) this.hooks.toast("Nothing to play yet: the document has no render.", true);
      this.showPlaying(this.audition.playing);
      return;
    }
    this.showPlaying(true);
    this.engineAnchor = { position: this.engineAnchor.position, at: performance.now() };
    const status = await this.send({ action: "play" });
    if (!status) this.showPlaying(false);
  }

  async pause() {
    if (this.mode === "browser") { this.audition.pause(); this.showPlaying(false); return; }
    this.engineAnchor = { position: this.position, at: performance.now() };
    this.showPlaying(false);
    await this.send({ action: "pause" });
  }

  /** Stops everything: playback, a compare run, the browser audition (Esc). */
  async stopAll() {
    this.audition.stop();
    this.showPlaying(false);
    this.engineAnchor = { position: 0, at: performance.now() };
    if (this.mode === "engine" || this.compareExport) await this.send({ action: "stop" });
  }

  /** Moves the playhead; while scrubbing, at most one request is in flight and the latest position wins. */
  async seek(t, scrubbing) {
    if (this.mode === "browser") { this.audition.seek(t); return; }
    this.engineAnchor = { position: t, at: performance.now() };
    this.timeline.movePlayhead(t);
    if (this.seekBusy) { this.seekNext = t; return; }
    this.seekBusy = true;
    await this.send({ action: "seek", position: t });
    this.seekBusy = false;
    if (this.seekNext !== null) { const next = this.seekNext; this.seekNext = null; this.seek(next, scrubbing); }
  }

  async toggleLoop() {
    this.loop.enabled = !this.loop.enabled;
    this.showLoop();
    if (this.mode === "browser") { this.audition.setLoop(this.loop); return; }
    await this.send({ loop: this.loop.enabled });
  }

  /** A loop region dragged on the loop strip: turns looping on. */
  async setLoopRegion(start, end) {
    this.loop = { enabled: true, start: Math.round(start * 1000) / 1000, end: Math.round(end * 1000) / 1000 };
    this.showLoop();
    if (this.mode === "browser") { this.audition.setLoop(this.loop); return; }
    await this.send({ loop: true, loopStart: this.loop.start, loopEnd: this.loop.end });
  }

  async setRate(rate) {
    this.rate = rate;
    this.showRate(rate);
    if (this.mode === "engine") await this.send({ rate: Math.round(rate * 1000) / 1000 });
  }

  // --- output dialog ------------------------------------------------------------------------------------

  async loadSettings() {
    try {
      this.settings = await this.api.settings();
      this.deviceError = this.settings.deviceError ?? this.deviceError;
      this.chooseMode();
    } catch (error) { this.hooks.fail(error); }
  }

  async openOutput() {
    const dialog = $("output-dialog");
    $("output-message").textContent = "";
    try {
      const [settings, devices] = await Promise.all([this.api.settings(), this.api.devices().catch(() => ({ devices: [] }))]);
      this.settings = settings;
      const select = $("device-select");
      const names = devices.devices.map((d) => d.name);
      if (settings.device && !names.includes(settings.device)) names.unshift(settings.device);
      select.replaceChildren(...names.map((name) => {
        const d = devices.devices.find((x) => x.name === name);
        return new Option(d?.description ? `${name} — ${d.description.split("\n")[0]}` : name, name, false, name === settings.device);
      }));
      $("channels-input").value = settings.channels ?? "";
      const profiles = $("profile-select");
      profiles.replaceChildren(...(settings.profiles ?? ["default", "lra", "speaker"]).map((p) => new Option(p, p, false, p === settings.profile)));
      if (settings.deviceError) $("output-message").textContent = `The device cannot be opened: ${settings.deviceError}. The page auditions in the browser.`;
    } catch (error) { $("output-message").textContent = error.message; }
    for (const radio of document.querySelectorAll('input[name="audition"]')) radio.checked = radio.value === this.userMode;
    dialog.showModal();
  }

  async applyOutput() {
    this.userMode = document.querySelector('input[name="audition"]:checked').value;
    this.audition.setSide($("haptic-side").value);
    const wanted = { device: $("device-select").value, channels: $("channels-input").value.trim(), profile: $("profile-select").value };
    const s = this.settings ?? {};
    if (wanted.device !== s.device || wanted.channels !== s.channels || wanted.profile !== s.profile) {
      try {
        this.settings = await this.api.setSettings(wanted);
        this.deviceError = this.settings.deviceError ?? null;
        if (this.deviceError) { $("output-message").textContent = `The device cannot be opened: ${this.deviceError}`; this.chooseMode(); return; }
      } catch (error) { $("output-message").textContent = error.message; return; }
    }
    this.chooseMode();
    $("output-dialog").close();
    this.hooks.refreshStatus?.();
  }
}
