// The studio's HTTP and WebSocket client (no DOM): every call the page makes goes through here, to the
// documented API (docs/studio-api.md). Events from the WebSocket are re-dispatched as DOM-free
// EventTarget events: "hello", "position", "document", "status", "diskChanged", "connection".

/** An API refusal: `status` is the HTTP status, `message` the server's one-line error, `body` its JSON. */
export class ApiError extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body ?? {};
  }
}

export class StudioApi extends EventTarget {
  /** @param {string} token the studio token (from the page URL); sent as a bearer header on every request */
  constructor(token) {
    super();
    this.token = token;
    this.socket = null;
    this.connected = false;
  }

  /**
   * One request. `body`: an object (sent as JSON), a string (sent as is) or an ArrayBuffer/Blob.
   * @returns {Promise<Response>} the response, when its status is 2xx
   * @throws {ApiError} for any other status (message from the server's `{"error"}`), or a network failure
   */
  async raw(method, path, body, signal) {
    const headers = {};
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    let payload = body;
    if (body !== undefined && typeof body === "object" && !(body instanceof ArrayBuffer) && !(body instanceof Blob)) {
      payload = JSON.stringify(body);
      headers["Content-Type"] = "application/json";
    } else if (typeof body === "string") {
      headers["Content-Type"] = "application/json";
    }
    let response;
    try {
      response = await fetch(path, { method, headers, body: payload, signal, credentials: "same-origin", cache: "no-store" });
    } catch (error) {
      if (error.name === "AbortError") throw error;
      throw new ApiError(0, "the studio server does not answer (was `thrum studio` stopped?)");
    }
    if (!response.ok) {
      let data = null;
      try { data = await response.json(); } catch { /* not JSON */ }
      throw new ApiError(response.status, data?.error ?? `${method} ${path}: HTTP ${response.status}`, data);
    }
    return response;
  }

  /** A request whose answer is JSON. */
  async json(method, path, body, signal) {
    const response = await this.raw(method, path, body, signal);
    return response.json();
  }

  status() { return this.json("GET", "/api/status"); }
  files() { return this.json("GET", "/api/files"); }
  open(path) { return this.json("POST", "/api/open", { path }); }
  /** @returns {Promise<{text: string, revision: number}>} */
  async pattern() {
    const response = await this.raw("GET", "/api/pattern");
    return { text: await response.text(), revision: Number(response.headers.get("X-Thrum-Revision")) };
  }
  /** Replaces the document; edits of one `gesture` (a slider drag, keys held) are one undo step. */
  putPattern(text, gesture = null) {
    return this.json("PUT", `/api/pattern${gesture ? `?gesture=${encodeURIComponent(gesture)}` : ""}`, text);
  }
  transport(fields) { return this.json("POST", "/api/transport", fields); }
  undo() { return this.json("POST", "/api/undo"); }
  redo() { return this.json("POST", "/api/redo"); }
  save(fields) { return this.json("POST", "/api/save", fields); }
  devices() { return this.json("GET", "/api/devices"); }
  settings() { return this.json("GET", "/api/settings"); }
  setSettings(fields) { return this.json("POST", "/api/settings", fields); }
  presets() { return this.json("GET", "/api/analysis/presets"); }
  analysis(fields) { return this.json("POST", "/api/analysis", fields); }
  compare() { return this.json("GET", "/api/compare"); }
  playCompare(exports, gap = 0.5) { return this.json("POST", "/api/compare", { exports, gap }); }

  /** The render of the current document as a WAV file's bytes. */
  async render({ channels = "L,R,H", sampleRate = null, exportName = null } = {}, signal) {
    const query = new URLSearchParams({ channels });
    if (sampleRate) query.set("sampleRate", String(sampleRate));
    if (exportName) query.set("export", exportName);
    const response = await this.raw("GET", `/api/render?${query}`, undefined, signal);
    return response.arrayBuffer();
  }

  /**
   * The engine's render as the least and greatest sample of each of `columns` columns over `start`…`end`
   * seconds, per channel (GET /api/peaks).
   */
  peaks({ channels = "L,R,H", start, end, columns, exportName = null }, signal) {
    const query = new URLSearchParams({ channels, start: String(start), columns: String(columns) });
    if (end !== undefined) query.set("end", String(end));
    if (exportName) query.set("export", exportName);
    return this.json("GET", `/api/peaks?${query}`, undefined, signal);
  }

  /** The bytes of a file under the root (a sound for the audio-file lane). */
  async file(path) {
    const response = await this.raw("GET", `/api/file?path=${encodeURIComponent(path)}`);
    return response.arrayBuffer();
  }

  /** Stores a sound file under the root. */
  uploadFile(path, bytes, overwrite = false) {
    return this.json("PUT", `/api/file?path=${encodeURIComponent(path)}${overwrite ? "&overwrite=1" : ""}`, bytes);
  }

  /** Opens the event WebSocket and keeps it open (reconnects after 1 s when it drops). */
  connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const url = `${scheme}//${location.host}/api/events${this.token ? `?token=${encodeURIComponent(this.token)}` : ""}`;
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => { this.connected = true; this.dispatchEvent(new CustomEvent("connection", { detail: { connected: true } })); };
    socket.onmessage = (message) => {
      let data;
      try { data = JSON.parse(message.data); } catch { return; }
      if (data && typeof data.type === "string") this.dispatchEvent(new CustomEvent(data.type, { detail: data }));
    };
    socket.onclose = () => {
      if (this.connected) this.dispatchEvent(new CustomEvent("connection", { detail: { connected: false } }));
      this.connected = false;
      setTimeout(() => this.connect(), 1000);
    };
  }
}
