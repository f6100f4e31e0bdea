// Built from static/page/ and static/board/ by tools/web-check/build.mjs: do not edit.
// ../../src/emergo/web/static/page/socket.js
var socketUrl = (path) => `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
function versionCheck(msg, known, isState, versionOf = (m) => m?.version, dedupe = false) {
  const version = versionOf(msg);
  if (typeof version !== "number" || known < 0) return "take";
  if (isState(msg)) return version < known ? "stale" : "take";
  if (dedupe && version <= known) return "stale";
  return version > known + 1 ? "gap" : "take";
}
var Socket = class {
  /** @param {string} path @param {SocketOptions} options */
  constructor(path, options) {
    this.path = path;
    this.options = options;
    this.version = -1;
    this.closed = false;
    this.retry = 0;
    this.resyncing = false;
    this.ws = null;
    this.opened = this.open();
  }
  /** @returns {Promise<void>} */
  open() {
    const ws = new WebSocket(socketUrl(this.path));
    this.ws = ws;
    this.resyncing = false;
    const isState = this.options.isState || ((m) => m.type === "state");
    const versionOf = this.options.versionOf || ((m) => m?.version);
    ws.addEventListener("message", (e) => {
      if (this.ws !== ws || this.closed) return;
      const msg = JSON.parse(String(e.data));
      if (this.options.versioned) {
        const version = versionOf(msg);
        if (this.resyncing && !isState(msg) && typeof version === "number") return;
        const verdict = versionCheck(msg, this.version, isState, versionOf, this.options.dedupe);
        if (verdict === "stale") return;
        if (verdict === "gap") return this.resync();
        if (isState(msg)) this.resyncing = false;
        if (typeof version === "number") this.version = Math.max(this.version, version);
      }
      this.options.onMessage(msg);
    });
    ws.addEventListener("close", (e) => {
      if (this.ws !== ws || this.closed) return;
      if (e.code === 4404 || !this.options.reconnect) {
        this.closed = true;
        this.options.onStatus?.("closed");
        return;
      }
      this.retry = Math.min(this.retry + 1, 10);
      this.options.onStatus?.("lost");
      setTimeout(() => {
        if (!this.closed && this.ws === ws) this.opened = this.open();
      }, 200 * this.retry);
    });
    const opening = new Promise((resolve, reject) => {
      ws.addEventListener("open", () => {
        this.retry = 0;
        if (this.ws === ws) this.options.onStatus?.("open");
        resolve();
      }, { once: true });
      ws.addEventListener("error", () => reject(new Error("cannot reach the server")), { once: true });
    });
    opening.catch(() => {
    });
    return opening;
  }
  /** A version was skipped: start again from the server's whole state. */
  resync() {
    if (this.options.resyncMessage && this.send(this.options.resyncMessage)) {
      this.resyncing = true;
      return;
    }
    const old = this.ws;
    this.ws = null;
    old?.close();
    this.opened = this.open();
  }
  get connected() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }
  /** Send a message now; false when not connected. @param {Record<string, unknown>} msg */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }
  close() {
    this.closed = true;
    this.ws?.close();
    this.ws = null;
  }
};

// ../../src/emergo/web/static/page/format.js
var title = (color) => color[0].toUpperCase() + color.slice(1);
function statusText(data) {
  if (data.outcome) return `Game over: ${data.outcome.result}, ${data.outcome.reason}`;
  const who = title(data.turn);
  if (data.phase === "capture") {
    const best = data.moves[0] ? data.moves[0].captured || 0 : 0;
    const tied = data.moves.length > 1 ? `; ${data.moves.length} routes tie: choose one landing by landing` : "";
    return `${who} must capture ${best} ${best === 1 ? "man" : "men"} (R8, R11): only the capturing pieces can be chosen${tied}`;
  }
  if (data.phase === "enter") {
    const attacked = data.attacked ? " (under attack: any vacant square, R15)" : "";
    return `${who} to enter${data.shadow ? ` a shadowpiece of ${data.entrySize}` : " a man"}: ${data.moves.length} squares may be entered${attacked}`;
  }
  return `${who} to step a piece (R17)`;
}
function moveNumber(ply, firstTurn) {
  const slot = ply - 1 + (firstTurn === "white" ? 0 : 1);
  return `${Math.floor(slot / 2) + 1}${slot % 2 ? "..." : "."}`;
}
var whiteMoves = (ply, firstTurn) => (ply - 1 + (firstTurn === "white" ? 0 : 1)) % 2 === 0;
function clockText(seconds) {
  const t = Math.max(0, seconds);
  if (t < 10) return `0:0${t.toFixed(1)}`;
  const whole = Math.ceil(t);
  if (whole >= 86400) return `${Math.floor(whole / 86400)}d ${Math.floor(whole % 86400 / 3600)}h`;
  const h = Math.floor(whole / 3600);
  const m = Math.floor(whole % 3600 / 60);
  const s = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}
function otherTurn(position) {
  const words = position.split(" ");
  const k = words[0] === "w" || words[0] === "b" ? 0 : 1;
  if (words[k] !== "w" && words[k] !== "b") return null;
  words[k] = words[k] === "w" ? "b" : "w";
  return words.join(" ");
}

// ../../src/emergo/web/static/page/online-terms.js
var UNLIMITED_MS = 2147483647;
function termsFields(form) {
  const out = { variant: form.variant, rated: form.rated, color: form.color };
  if (form.speed === "live") {
    out["clock.limit"] = Math.round(form.minutes * 60);
    out["clock.increment"] = Math.round(form.increment);
  } else if (form.speed === "correspondence") {
    out.days = form.days;
  }
  return out;
}
function timeControlText(tc) {
  if (!tc || tc.type === "unlimited") return "Unlimited";
  if (tc.type === "correspondence") return `${tc.daysPerTurn} day${tc.daysPerTurn === 1 ? "" : "s"} a move`;
  return tc.show || `${minutes(tc.limit)}+${tc.increment}`;
}
function minutes(seconds) {
  const m = seconds / 60;
  return (
    /** @type {Record<string, string>} */
    { "0.25": "¼", "0.5": "½", "0.75": "¾" }[String(m)] || String(Math.round(m * 100) / 100)
  );
}
var variantName = (key) => key === "hex" ? "Hex" : key;
var movesOf = (state) => state.moves ? state.moves.split(" ").filter(Boolean) : [];
function sharedPlies(a, b) {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}
function resultOf(state) {
  if (state.status === "started" || state.status === "created") return null;
  const winner = state.winner || null;
  const result = state.status === "aborted" ? "*" : winner === "white" ? "1-0" : winner === "black" ? "0-1" : "1/2-1/2";
  const reason = state.reason || (state.status === "aborted" ? "the game was aborted" : state.status);
  return { result, termination: state.status, reason, winner };
}
var resultWords = (r) => r.result === "*" ? `Aborted: ${r.reason}` : `${r.result} (${r.reason})`;
function clockOf(state, full, at) {
  if (state.wtime >= UNLIMITED_MS && state.btime >= UNLIMITED_MS) return null;
  const base = full.clock ? full.clock.initial / 1e3 : (full.daysPerTurn || 1) * 86400;
  const control = full.clock ? `${minutes(full.clock.initial / 1e3)}+${full.clock.increment / 1e3}` : `${full.daysPerTurn} days a move`;
  return { white: state.wtime / 1e3, black: state.btime / 1e3, running: state.clockRunning, at, base, control };
}
function offerOf(state) {
  if (state.wdraw || state.bdraw) return { kind: "draw", by: state.wdraw ? "white" : "black" };
  if (state.wtakeback || state.btakeback) return { kind: "takeback", by: state.wtakeback ? "white" : "black" };
  return null;
}
var other = (c) => c === "white" ? "black" : "white";

export {
  Socket,
  title,
  statusText,
  moveNumber,
  whiteMoves,
  clockText,
  otherTurn,
  termsFields,
  timeControlText,
  variantName,
  movesOf,
  sharedPlies,
  resultOf,
  resultWords,
  clockOf,
  offerOf,
  other
};
