// Built from static/page/ and static/board/ by tools/web-check/build.mjs: do not edit.
// ../../src/emergo/web/static/page/api.js
var ApiError = class extends Error {
  /** @param {string} message @param {number} status @param {Record<string, unknown>} body */
  constructor(message, status, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
};
var always = {};
function useCsrf(token) {
  if (token) always["x-csrf-token"] = token;
}
async function api(path, body, method) {
  const init = { method: method || (body === void 0 ? "GET" : "POST"), headers: { ...always } };
  if (body !== void 0) {
    init.headers = { ...always, "content-type": "application/json" };
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data;
  try {
    data = await response.json();
  } catch {
    data = { error: `the server answered ${response.status}` };
  }
  if (!response.ok) {
    const d = (
      /** @type {Record<string, unknown>} */
      data
    );
    throw new ApiError(String(d.error || response.statusText), response.status, d);
  }
  return data;
}

// ../../src/emergo/web/static/page/dom.js
function $(id) {
  const el2 = document.getElementById(id);
  if (!el2) throw new Error(`no element #${id}`);
  return el2;
}
var input = (id) => (
  /** @type {HTMLInputElement} */
  $(id)
);
var select = (id) => (
  /** @type {HTMLSelectElement} */
  $(id)
);
var buttonEl = (id) => (
  /** @type {HTMLButtonElement} */
  $(id)
);
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== void 0) e.textContent = text;
  return e;
}
function button(label, action, cls) {
  const b = (
    /** @type {HTMLButtonElement} */
    el("button", cls, label)
  );
  b.type = "button";
  b.addEventListener("click", action);
  return b;
}
function say(text, error = true) {
  const m = $("message");
  m.textContent = text;
  m.classList.toggle("info", !error);
}
var errorText = (e) => e instanceof Error ? e.message : String(e);

// ../../src/emergo/web/static/page/socket.js
var socketUrl = (path) => `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
function socketTarget(path) {
  const at = path.indexOf("?");
  if (at < 0) return { path, protocols: void 0 };
  const params = new URLSearchParams(path.slice(at + 1));
  const csrf = params.get("csrf");
  if (!csrf) return { path, protocols: void 0 };
  params.delete("csrf");
  const rest = params.toString();
  return { path: path.slice(0, at) + (rest ? `?${rest}` : ""), protocols: ["emergo", `csrf.${csrf}`] };
}
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
    const target = socketTarget(this.path);
    const ws = new WebSocket(socketUrl(target.path), target.protocols);
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

// ../../src/emergo/web/static/page/settings.js
var settings = { view: "diamond", names: "oblique", theme: "light", coordinates: true, animation: true, flipped: false, sound: true };
var listeners = /* @__PURE__ */ new Set();
var BROWSER_KEY = "emergo-settings";
var keep = {
  load: () => api("/api/settings"),
  /** @param {Partial<Settings>} change */
  save: (change) => api("/api/settings", change, "PUT")
};
function keepSettingsInBrowser() {
  const read = () => {
    try {
      return JSON.parse(localStorage.getItem(BROWSER_KEY) || "{}");
    } catch {
      return {};
    }
  };
  keep = {
    load: async () => read(),
    save: async (change) => localStorage.setItem(BROWSER_KEY, JSON.stringify({ ...read(), ...change }))
  };
}
function onSettings(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}
var boardSettings = () => ({
  view: settings.view,
  names: settings.names,
  coordinates: settings.coordinates,
  flipped: settings.flipped,
  animation: { enabled: settings.animation, jump: 220 }
});
function applySettings() {
  document.documentElement.dataset.theme = settings.theme;
  const pressed = [
    ["view", settings.view === "checker"],
    ["flip", settings.flipped],
    ["coords", settings.coordinates],
    ["names", settings.names === "checker"],
    ["anim", settings.animation],
    ["theme", settings.theme === "dark"],
    ["sound", settings.sound]
  ];
  for (const [id, on] of pressed) document.getElementById(id)?.setAttribute("aria-pressed", String(on));
  for (const f of listeners) f();
}
function changeSettings(change, save = true) {
  Object.assign(settings, change);
  applySettings();
  if (save) keep.save(change).catch(() => {
  });
}
async function loadSettings(params) {
  try {
    Object.assign(settings, await keep.load());
  } catch {
  }
  for (
    const key of
    /** @type {(keyof Settings)[]} */
    ["view", "names", "theme"]
  ) {
    const value = params.get(key);
    if (value) Object.assign(settings, { [key]: value });
  }
  if (params.has("flip")) settings.flipped = params.get("flip") === "1";
  if (params.has("animation")) settings.animation = params.get("animation") === "1";
  if (params.has("sound")) settings.sound = params.get("sound") === "1";
}

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
function factsText(data) {
  if (data.outcome) return statusText(data);
  const who = title(data.turn);
  if (data.phase === "capture") {
    const best = data.moves[0] ? data.moves[0].captured || 0 : 0;
    return `${who} to capture ${best} ${best === 1 ? "man" : "men"} (R8, R11)`;
  }
  if (data.phase === "enter") return `${who} to enter${data.shadow ? ` a shadowpiece of ${data.entrySize}` : " a man"}${data.attacked ? " (under attack, R15)" : ""}`;
  return statusText(data);
}
function durationText(seconds) {
  if (seconds <= 0) return "no time";
  const unit = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (seconds < 60) return unit(Math.ceil(seconds), "second");
  const minutes2 = Math.floor(seconds / 60);
  const days = Math.floor(minutes2 / 1440);
  const hours = Math.floor(minutes2 % 1440 / 60);
  if (days) return unit(days, "day") + (hours ? ` ${unit(hours, "hour")}` : "");
  if (hours) return unit(hours, "hour");
  return unit(minutes2 % 60, "minute");
}
function moveNumber(ply, firstTurn) {
  const slot = ply - 1 + (firstTurn === "white" ? 0 : 1);
  return `${Math.floor(slot / 2) + 1}${slot % 2 ? "..." : "."}`;
}
var whiteMoves = (ply, firstTurn) => (ply - 1 + (firstTurn === "white" ? 0 : 1)) % 2 === 0;
function clockText(seconds) {
  const t = Math.max(0, seconds);
  if (t < 10) return `0:0${t.toFixed(1)}`;
  if (t >= 86400) return `${Math.floor(t / 86400)}d ${Math.floor(t % 86400 / 3600)}h`;
  const whole = Math.ceil(t);
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
function ruleOf(r) {
  const cited = /\((R\d+[a-z]?)\)/.exec(r.reason);
  return cited ? cited[1] : "";
}
function resultWords(r) {
  const loser = r.winner ? r.winner === "white" ? "Black" : "White" : "";
  const wins = r.winner ? `${r.winner === "white" ? "White" : "Black"} wins: ` : "";
  const why = r.reason.replace(/\s*\(R\d+[a-z]?\)/g, "").trim();
  switch (r.termination) {
    case "aborted":
      return "Aborted: the game ended before both sides moved (no result)";
    case "mate":
      return `${wins}${loser} has no pieces left and no men in hand`;
    case "stalemate":
      return "Draw: the player to move cannot move";
    case "resign":
      return `${wins}${loser} resigned`;
    case "outoftime":
      return `${wins}${loser} ran out of time`;
    case "timeout":
      return r.winner ? `${wins}${loser} left the game` : "Draw: a player left the game and the other called it a draw";
    case "draw":
      if (/agreement/.test(why)) return "Draw by agreement";
      if (/three times/.test(why)) return "Draw: the same position came three times";
      return "Draw";
    default: {
      const text = why.replace(/:\s*draw$/i, "");
      return `${wins || (r.result === "1/2-1/2" ? "Draw: " : "")}${text}`;
    }
  }
}
var resultLine = (r) => r.result === "*" ? resultWords(r) : `${r.result.replace("1/2-1/2", "½-½")} · ${resultWords(r)}`;
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
function abortLeft(state, at, now) {
  const e = state.expiration;
  if (!e || resultOf(state)) return null;
  return Math.max(0, (e.millisToMove - e.idleMillis - (now - at)) / 1e3);
}
function abortWords(seconds, turn, you) {
  const who = turn === you ? "you" : turn === "white" ? "White" : "Black";
  return `${durationText(seconds)} for ${who} to play the first move, or the game is aborted`;
}
function rematchFields(full, you) {
  const out = { variant: full.variant.key, rated: !!full.rated, color: other(you) };
  if (full.clock) {
    out["clock.limit"] = Math.round(full.clock.initial / 1e3);
    out["clock.increment"] = Math.round(full.clock.increment / 1e3);
  } else if (full.daysPerTurn) out.days = full.daysPerTurn;
  return out;
}

// ../../src/emergo/web/static/page/sitewide.js
var PING_MS = 25e3;
var DISMISSED = "emergo-dismissed-challenges";
var DECLINE_CHOICES = [
  ["generic", "no reason given"],
  ["later", "Not now"],
  ["tooFast", "Too fast"],
  ["tooSlow", "Too slow"],
  ["timeControl", "Not this time control"],
  ["rated", "Rated only"],
  ["casual", "Casual only"],
  ["variant", "Not this board"]
];
function challengeWords(c) {
  const who = c.challenger ? c.challenger.name : "someone";
  const colour = c.color === "random" ? "random colours" : `you play ${c.color === "white" ? "Black" : "White"}`;
  return `${who} challenges you: ${variantName(c.variant.key)} · ${timeControlText(c.timeControl)} · ${c.rated ? "Rated" : "Casual"} · ${colour}`;
}
var Sitewide = class {
  /** @param {string} me @param {string} csrf */
  constructor(me, csrf) {
    this.me = me;
    this.lobby = !!document.getElementById("lobby");
    const gameRoot = document.getElementById("game");
    this.gameId = gameRoot?.dataset.game || "";
    this.playsHere = !!gameRoot?.dataset.you;
    this.leaving = false;
    this.challengeNotes = /* @__PURE__ */ new Map();
    this.box = el("div", "toasts");
    this.box.id = "toasts";
    this.box.setAttribute("role", "region");
    this.box.setAttribute("aria-label", "Notices");
    this.box.setAttribute("aria-live", "polite");
    const panel = document.getElementById("game-panel");
    if (panel) panel.after(this.box);
    else document.body.append(this.box);
    const path = `/ws/online/site?csrf=${encodeURIComponent(csrf)}`;
    this.socket = new Socket(path, { reconnect: true, onMessage: (msg) => this.message(msg) });
    setInterval(() => this.socket.send({ t: "ping" }), PING_MS);
  }
  /** @param {any} msg */
  message(msg) {
    if (msg.t === "unread") this.unread(Number(msg.unread) || 0);
    else if (msg.t === "challenges" && !this.lobby) this.challenges(msg.in || []);
    else if (msg.t === "event" && msg.event) this.event(msg.event);
  }
  /** The header's count. @param {number} n */
  unread(n) {
    for (
      const badge of
      /** @type {NodeListOf<HTMLElement>} */
      document.querySelectorAll("[data-unread]")
    ) {
      badge.textContent = n > 99 ? "99+" : String(n);
      badge.hidden = n === 0;
      badge.setAttribute("aria-label", `${n} unread`);
    }
  }
  /** @param {any} event */
  event(event) {
    const game = event.game || {};
    if (event.type === "gameStart" && game.gameId) this.started(String(game.gameId));
    else if (event.type === "gameFinish" && game.gameId && game.gameId !== this.gameId && !this.lobby) {
      this.note(`game-${game.gameId}`, "A game of yours has ended.", [this.link("See the game", game.gameId)]);
    } else if (event.type === "challengeDeclined" && event.challenge && !this.lobby) {
      const c = (
        /** @type {Challenge} */
        event.challenge
      );
      const who = c.destUser ? c.destUser.name : "Your opponent";
      this.note(`declined-${c.id}`, `${who} declined your challenge${c.declineReason ? `: “${c.declineReason}”` : "."}`, []);
    }
  }
  /** A game of yours started: go to it, unless you play another game on this page. @param {string} id */
  async started(id) {
    if (id === this.gameId || this.lobby || this.leaving) return;
    if (this.playsHere) {
      try {
        const playing = await api("/api/account/playing");
        const here = (playing.nowPlaying || []).some((g) => g.gameId === this.gameId);
        if (here) {
          this.note(`game-${id}`, "A new game of yours has started.", [this.link("Go to the game", id)]);
          return;
        }
      } catch {
      }
    }
    this.open(id);
  }
  /** @param {string} id */
  open(id) {
    if (this.leaving) return;
    this.leaving = true;
    this.note(`game-${id}`, "Your game has started: opening it …", [this.link("Open the game", id)]);
    location.assign(`/game/${encodeURIComponent(id)}`);
  }
  /** @param {string} text @param {string} gameId */
  link(text, gameId) {
    const a = (
      /** @type {HTMLAnchorElement} */
      el("a", "button primary", text)
    );
    a.href = `/game/${encodeURIComponent(gameId)}`;
    return a;
  }
  /** The open challenges to you: one note each (until answered or dismissed). @param {Challenge[]} open */
  challenges(open) {
    const dismissed = dismissedIds();
    const ids = new Set(open.map((c) => c.id));
    for (const [id, note] of this.challengeNotes) {
      if (!ids.has(id)) {
        note.remove();
        this.challengeNotes.delete(id);
      }
    }
    for (const c of open) {
      if (this.challengeNotes.has(c.id) || dismissed.includes(c.id)) continue;
      const reason = (
        /** @type {HTMLSelectElement} */
        el("select", "reason")
      );
      reason.setAttribute("aria-label", "The reason to decline");
      reason.title = "The reason the challenger reads";
      for (const [key, text] of DECLINE_CHOICES) reason.append(new Option(text, key));
      const note = this.note(`challenge-${c.id}`, challengeWords(c), [
        button("Accept", () => this.answer(c, "accept", note), "primary"),
        button("Decline", () => this.answer(c, "decline", note, reason.value)),
        reason
      ], () => keepDismissed(c.id));
      note.classList.add("challenge-note");
      note.dataset.challenge = c.id;
      this.challengeNotes.set(c.id, note);
    }
  }
  /** @param {Challenge} c @param {"accept"|"decline"} action @param {HTMLElement} note @param {string} [reason] */
  async answer(c, action, note, reason) {
    try {
      const answer = await api(`/api/challenge/${encodeURIComponent(c.id)}/${action}`, action === "decline" ? { reason } : {});
      note.remove();
      this.challengeNotes.delete(c.id);
      if (action === "accept" && answer.gameId) this.open(answer.gameId);
    } catch (e) {
      const body = (
        /** @type {any} */
        e.body
      );
      note.querySelector(".text").textContent = body && body.words || errorText(e);
    }
  }
  /**
   * A note in the corner (one per key: a newer one replaces it), closed by its × button.
   * @param {string} key @param {string} text @param {HTMLElement[]} actions @param {() => void} [onClose]
   */
  note(key, text, actions, onClose) {
    this.box.querySelector(`[data-key="${CSS.escape(key)}"]`)?.remove();
    const note = el("div", "toast");
    note.dataset.key = key;
    note.setAttribute("role", "status");
    const close = button("×", () => {
      note.remove();
      onClose?.();
    }, "close");
    close.setAttribute("aria-label", "Close");
    const acts = el("div", "acts");
    acts.append(...actions);
    note.append(el("p", "text", text), acts, close);
    this.box.append(note);
    return note;
  }
};
function dismissedIds() {
  try {
    const list = JSON.parse(sessionStorage.getItem(DISMISSED) || "[]");
    return Array.isArray(list) ? list.map(String) : [];
  } catch {
    return [];
  }
}
function keepDismissed(id) {
  try {
    sessionStorage.setItem(DISMISSED, JSON.stringify([...dismissedIds(), id].slice(-50)));
  } catch {
  }
}
function startSitewide() {
  const header = (
    /** @type {HTMLElement|null} */
    document.querySelector(".site-top .who[data-me]")
  );
  if (!header || !header.dataset.me || !header.dataset.csrf) return null;
  return new Sitewide(header.dataset.me, header.dataset.csrf);
}

// ../../src/emergo/web/static/page/online.js
function pageData(root) {
  const d = root.dataset;
  return { ...d, me: d.me || "", csrf: d.csrf || "", profiles: d.profiles === "1" };
}
async function initOnline(data) {
  keepSettingsInBrowser();
  await loadSettings(new URLSearchParams(location.search));
  applySettings();
  const csrf = data ? data.csrf : document.querySelector(".site-top .who")?.getAttribute("data-csrf") || "";
  useCsrf(csrf);
  startSitewide();
  document.getElementById("theme")?.addEventListener("click", () => changeSettings({ theme: settings.theme === "dark" ? "light" : "dark" }));
  document.getElementById("sound")?.addEventListener("click", () => changeSettings({ sound: !settings.sound }));
}
function personEl(person, profiles) {
  const box = el("span", "person");
  if (!person || !person.name) {
    box.textContent = "?";
    return box;
  }
  if (person.title) box.append(el("span", "title", person.title), " ");
  const deleted = person.name === "(deleted)";
  if (profiles && !deleted) {
    const a = (
      /** @type {HTMLAnchorElement} */
      el("a", "name-link", person.name)
    );
    a.href = `/@/${encodeURIComponent(person.name)}`;
    box.append(a);
  } else box.append(el("span", "name-text", person.name));
  if (typeof person.rating === "number") {
    const rating = el("span", "rating", ` ${person.rating}${person.provisional ? "?" : ""}`);
    if (person.provisional) rating.title = "provisional: too few rated games yet";
    box.append(rating);
  }
  if (typeof person.ratingDiff === "number") {
    const d = person.ratingDiff;
    box.append(el("span", `rating-diff ${d > 0 ? "up" : d < 0 ? "down" : "same"}`, ` ${d > 0 ? "+" : d < 0 ? "−" : "±"}${Math.abs(d)}`));
  }
  return box;
}
var socketPath = (path, data) => data.csrf ? `${path}?csrf=${encodeURIComponent(data.csrf)}` : path;

export {
  api,
  $,
  input,
  select,
  buttonEl,
  el,
  button,
  say,
  errorText,
  Socket,
  settings,
  onSettings,
  boardSettings,
  changeSettings,
  title,
  statusText,
  factsText,
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
  ruleOf,
  resultWords,
  resultLine,
  clockOf,
  offerOf,
  other,
  abortLeft,
  abortWords,
  rematchFields,
  pageData,
  initOnline,
  personEl,
  socketPath
};
