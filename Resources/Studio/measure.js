// The Measure panel (issue 37): runs `thrum measure` through POST /api/measure, shows the figures and the
// response (magnitude in dB over a log frequency axis, the resonance and the −3 dB band marked), and saves the
// profile the measurement makes (POST /api/measure/profile). docs/studio.md, "Measure".

const $ = (id) => document.getElementById(id);

export class MeasurePanel {
  /** @param {import("./api.js").StudioApi} api @param {{toast: Function}} ui */
  constructor(api, ui) {
    this.api = api;
    this.ui = ui;
    this.result = null;
    this.listed = false;
    $("measure-run").addEventListener("click", () => this.run());
    $("measure-save").addEventListener("click", () => this.save());
    new ResizeObserver(() => this.draw()).observe($("measure-canvas"));
  }

  /** Called when the panel is shown: the playback devices as suggestions (once). */
  async show() {
    if (this.listed) return;
    this.listed = true;
    try {
      const { devices } = await this.api.json("GET", "/api/devices");
      $("measure-devices").replaceChildren(...devices.map((device) => new Option(device.description, device.name)));
    } catch {
      this.listed = false;
    }
  }

  request() {
    const body = { input: $("measure-input").value.trim(), duration: Number($("measure-duration").value) };
    const output = $("measure-output").value.trim();
    const channels = $("measure-channels").value.trim();
    if (output) body.output = output;
    if (channels) body.channels = channels;
    return body;
  }

  async run() {
    const body = this.request();
    const status = $("measure-status");
    if (!body.input) {
      status.textContent = "Name the input the sensor is on.";
      $("measure-input").focus();
      return;
    }
    $("measure-run").disabled = true;
    $("measure-save").disabled = true;
    status.textContent = `Measuring… (about ${Math.round(body.duration + 6)} s; playback stops)`;
    try {
      this.result = await this.api.json("POST", "/api/measure", body);
      status.textContent = this.result.doubtful ? `Doubtful: ${this.result.warnings[0]}` : "Measured.";
      $("measure-save").disabled = this.result.doubtful;
      this.showFigures();
      this.draw();
    } catch (error) {
      status.textContent = error.message;
    } finally {
      $("measure-run").disabled = false;
    }
  }

  async save() {
    const path = $("measure-profile-path").value.trim();
    let answer;
    try {
      answer = await this.api.json("POST", "/api/measure/profile", { path });
    } catch (error) {
      if (error.status !== 409 || error.body.conflict !== "exists" || !window.confirm(`${path} exists. Replace it?`)) {
        $("measure-status").textContent = error.message;
        return;
      }
      answer = await this.api.json("POST", "/api/measure/profile", { path, overwrite: true });
    }
    this.ui.toast(`Saved ${answer.path}: equalised over ${Math.round(answer.lowHz)}–${Math.round(answer.highHz)} Hz, `
      + `actuator latency ${answer.latencyMs.toFixed(2)} ms. Choose it in Output to play with it.`);
  }

  showFigures() {
    const r = this.result;
    const rows = [
      ["Latency (DAC → ADC)", `median ${r.latency.median_ms.toFixed(2)} ms, p99 ${r.latency.p99_ms.toFixed(2)} ms, jitter ${r.latency.jitter_ms.toFixed(3)} ms`],
      ["of which", `device ${r.latency.device_ms.toFixed(2)} ms + actuator ${r.latency.actuator_ms.toFixed(2)} ms (at ${Math.round(r.latency.at_hz)} Hz)`],
      ["Resonance", `${r.resonance_hz.toFixed(1)} Hz, Q ${r.q.toFixed(2)} (${r.model})`],
      ["−3 dB band", `${r.band_hz[0].toFixed(1)}–${r.band_hz[1].toFixed(1)} Hz`],
      ["Distortion, noise", `${r.thd_percent.toFixed(2)} % THD at f0; noise floor ${r.noise_floor_dbfs.toFixed(1)} dBFS; SNR ${r.snr_db.toFixed(1)} dB`],
    ];
    const body = $("measure-figures").tBodies[0];
    body.replaceChildren(...rows.map(([name, value]) => {
      const row = document.createElement("tr");
      const head = document.createElement("th");
      const cell = document.createElement("td");
      head.textContent = name;
      cell.textContent = value;
      row.append(head, cell);
      return row;
    }));
    $("measure-figures").hidden = false;
  }

  draw() {
    const canvas = $("measure-canvas");
    const scale = window.devicePixelRatio || 1;
    canvas.width = Math.max(1, canvas.clientWidth * scale);
    canvas.height = Math.max(1, canvas.clientHeight * scale);
    const g = canvas.getContext("2d");
    g.setTransform(scale, 0, 0, scale, 0, 0);
    const width = canvas.clientWidth, height = canvas.clientHeight;
    g.clearRect(0, 0, width, height);
    const style = getComputedStyle(document.documentElement);
    g.font = "11px sans-serif";
    g.fillStyle = style.getPropertyValue("--dim") || "#888";
    if (!this.result) {
      g.fillText("The response appears here after a measurement.", 12, 20);
      return;
    }
    const points = this.result.response.filter((p) => p.magnitude_db !== null);
    const low = Math.log10(points[0].hz), high = Math.log10(points[points.length - 1].hz);
    const top = Math.ceil(Math.max(...points.map((p) => p.magnitude_db)) / 10) * 10;
    const bottom = top - 60;
    const x = (hz) => 40 + (Math.log10(hz) - low) / (high - low) * (width - 50);
    const y = (db) => 10 + (top - Math.max(bottom, db)) / (top - bottom) * (height - 30);
    g.strokeStyle = style.getPropertyValue("--border") || "#444";
    for (let db = bottom; db <= top; db += 10) {
      g.beginPath(); g.moveTo(40, y(db)); g.lineTo(width - 10, y(db)); g.stroke();
      g.fillText(`${db} dB`, 2, y(db) + 4);
    }
    for (const hz of [20, 50, 100, 200, 500, 1000]) {
      if (Math.log10(hz) < low || Math.log10(hz) > high) continue;
      g.fillText(`${hz} Hz`, Math.min(x(hz) - 12, width - 52), height - 4);
    }
    const [bandLow, bandHigh] = this.result.band_hz;
    g.fillStyle = "rgba(120, 160, 255, 0.12)";
    g.fillRect(x(bandLow), 10, x(bandHigh) - x(bandLow), height - 30);
    g.strokeStyle = style.getPropertyValue("--accent") || "#4af";
    g.lineWidth = 2;
    g.beginPath();
    points.forEach((p, i) => (i ? g.lineTo(x(p.hz), y(p.magnitude_db)) : g.moveTo(x(p.hz), y(p.magnitude_db))));
    g.stroke();
    g.lineWidth = 1;
    g.setLineDash([4, 3]);
    g.beginPath(); g.moveTo(x(this.result.resonance_hz), 10); g.lineTo(x(this.result.resonance_hz), height - 20); g.stroke();
    g.setLineDash([]);
    g.fillStyle = style.getPropertyValue("--dim") || "#888";
    g.fillText(`f0 ${this.result.resonance_hz.toFixed(1)} Hz`, x(this.result.resonance_hz) + 4, 22);
  }
}
