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
async function api(path, body, method) {
  const init = { method: method || (body === void 0 ? "GET" : "POST"), headers: {} };
  if (body !== void 0) {
    init.headers = { "content-type": "application/json" };
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

// ../../src/emergo/web/static/page/settings.js
var settings = { view: "diamond", names: "oblique", theme: "light", coordinates: true, animation: true, flipped: false, sound: true };
var listeners = /* @__PURE__ */ new Set();
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
  for (const [id, on] of pressed) $(id).setAttribute("aria-pressed", String(on));
  for (const f of listeners) f();
}
function changeSettings(change, keep = true) {
  Object.assign(settings, change);
  applySettings();
  if (keep) api("/api/settings", change, "PUT").catch(() => {
  });
}
async function loadSettings(params) {
  try {
    Object.assign(settings, await api("/api/settings"));
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

// ../../src/emergo/web/static/page/saved.js
var actions = null;
var asked = 0;
function initSaved(a) {
  actions = a;
  $("refresh-games").addEventListener("click", () => refreshSaved());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refreshSaved();
  });
}
async function refreshSaved() {
  const mine = ++asked;
  let games;
  let studies;
  try {
    [games, studies] = await Promise.all([api("/api/games"), api("/api/studies").catch(() => ({ studies: [] }))]);
  } catch {
    return;
  }
  if (mine !== asked || !actions) return;
  const a = actions;
  const list = $("games");
  list.replaceChildren();
  for (const g of games.games) {
    const li = el("li");
    li.dataset.game = String(g.id);
    const result = g.result === "*" ? "in progress" : `${g.result}${g.termination ? ` (${g.termination.replace("-", " ")})` : ""}`;
    li.append(el("span", "what", `#${g.id} ${g.white} vs ${g.black} · ${g.variant} · ${result}`));
    li.append(button(g.result === "*" ? "Resume" : "Open", () => a.resume(g.id), "small"));
    li.append(button("Replay", () => a.replay(g.id), "small"));
    const link = (
      /** @type {HTMLAnchorElement} */
      el("a", "button small", "Download")
    );
    link.href = `/api/games/${g.id}/record`;
    li.append(link);
    li.append(button("Delete", async () => {
      await api(`/api/games/${g.id}`, void 0, "DELETE").catch(() => {
      });
      a.deleted("game", g.id);
      refreshSaved();
    }, "small"));
    list.append(li);
  }
  for (const st of studies.studies) {
    const li = el("li");
    li.dataset.study = String(st.id);
    li.append(el("span", "what", `Study #${st.id} · ${st.variant} · ${st.nodes} ${st.nodes === 1 ? "move" : "moves"}`));
    li.append(button("Open", () => a.openStudy(st.id), "small"));
    li.append(button("Delete", async () => {
      await api(`/api/studies/${st.id}`, void 0, "DELETE").catch(() => {
      });
      a.deleted("study", st.id);
      refreshSaved();
    }, "small"));
    list.append(li);
  }
}

// ../../src/emergo/web/static/page/format.js
var title = (color) => color[0].toUpperCase() + color.slice(1);
var resultText = (o) => `${o.result} (${o.reason})`;
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
function lineNumbers(ply, firstTurn, count) {
  const out = [];
  for (let k = 0; k < count; k++) out.push(k === 0 || whiteMoves(ply + k, firstTurn) ? moveNumber(ply + k, firstTurn) : "");
  return out;
}
function clockText(seconds) {
  const t = Math.max(0, seconds);
  if (t < 10) return `0:0${t.toFixed(1)}`;
  const whole = Math.ceil(t);
  const h = Math.floor(whole / 3600);
  const m = Math.floor(whole % 3600 / 60);
  const s = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}
var recordDate = (day) => `${day.getFullYear()}.${String(day.getMonth() + 1).padStart(2, "0")}.${String(day.getDate()).padStart(2, "0")}`;
function otherTurn(position) {
  const words = position.split(" ");
  const k = words[0] === "w" || words[0] === "b" ? 0 : 1;
  if (words[k] !== "w" && words[k] !== "b") return null;
  words[k] = words[k] === "w" ? "b" : "w";
  return words.join(" ");
}
var startPosition = (variant, men) => `${variant === "9x9" ? "" : `${variant} `}w ${men}/${men}`;

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
  settings,
  onSettings,
  boardSettings,
  applySettings,
  changeSettings,
  loadSettings,
  initSaved,
  refreshSaved,
  title,
  resultText,
  statusText,
  moveNumber,
  whiteMoves,
  lineNumbers,
  clockText,
  recordDate,
  otherTurn,
  startPosition
};
