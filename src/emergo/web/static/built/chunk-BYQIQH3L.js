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

// ../../src/emergo/web/static/page/settings.js
var settings = { view: "diamond", names: "oblique", theme: "light", coordinates: true, animation: true, flipped: false, sound: true };
var listeners = /* @__PURE__ */ new Set();
var keep = {
  load: () => api("/api/settings"),
  /** @param {Partial<Settings>} change */
  save: (change) => api("/api/settings", change, "PUT")
};
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
    const key2 of
    /** @type {(keyof Settings)[]} */
    ["view", "names", "theme"]
  ) {
    const value = params.get(key2);
    if (value) Object.assign(settings, { [key2]: value });
  }
  if (params.has("flip")) settings.flipped = params.get("flip") === "1";
  if (params.has("animation")) settings.animation = params.get("animation") === "1";
  if (params.has("sound")) settings.sound = params.get("sound") === "1";
}

// ../../src/emergo/web/static/page/confirm.js
var pending = null;
function answer(yes) {
  const done = pending;
  pending = null;
  $("confirm").hidden = true;
  if (done) done(yes);
}
function initConfirm() {
  $("confirm-yes").addEventListener("click", () => answer(true));
  $("confirm-no").addEventListener("click", () => answer(false));
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && pending) answer(false);
  });
}
function ask(question, yes, no = "Cancel") {
  if (pending) answer(false);
  $("confirm-text").textContent = question;
  $("confirm-yes").textContent = yes;
  $("confirm-no").textContent = no;
  $("confirm").hidden = false;
  $("confirm-yes").focus({ preventScroll: true });
  return new Promise((resolve) => {
    pending = resolve;
  });
}
function dismiss() {
  if (pending) answer(false);
  $("confirm").hidden = true;
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
function scoreWords(score) {
  if (score === "draw") return "Draw";
  const m = /^([+-])win(\d+)$/.exec(score);
  if (!m) return null;
  return `${m[1] === "+" ? "White" : "Black"} wins in ${plies(Number(m[2]))}`;
}
var plies = (n) => `${n} ${n === 1 ? "ply" : "plies"}`;
function moveNumber(ply, firstTurn) {
  const slot = ply - 1 + (firstTurn === "white" ? 0 : 1);
  return `${Math.floor(slot / 2) + 1}${slot % 2 ? "..." : "."}`;
}
var whiteMoves = (ply, firstTurn) => (ply - 1 + (firstTurn === "white" ? 0 : 1)) % 2 === 0;
function lineNumbers(ply, firstTurn, count2) {
  const out = [];
  for (let k = 0; k < count2; k++) out.push(k === 0 || whiteMoves(ply + k, firstTurn) ? moveNumber(ply + k, firstTurn) : "");
  return out;
}
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
var recordDate = (day) => `${day.getFullYear()}.${String(day.getMonth() + 1).padStart(2, "0")}.${String(day.getDate()).padStart(2, "0")}`;
function otherTurn(position) {
  const words = position.split(" ");
  const k = words[0] === "w" || words[0] === "b" ? 0 : 1;
  if (words[k] !== "w" && words[k] !== "b") return null;
  words[k] = words[k] === "w" ? "b" : "w";
  return words.join(" ");
}
var startPosition = (variant, men) => `${variant === "9x9" ? "" : `${variant} `}w ${men}/${men}`;

// ../../src/emergo/web/static/page/setup.js
function chosenSetup() {
  const opponent = select("opponent").value;
  const color = select("color").value;
  let other = { kind: "engine", level: Number(select("level").value) };
  if (opponent === "movetime") other = { kind: "engine", movetime: Number(select("movetime").value) };
  if (opponent === "human") other = { kind: "human", name: color === "white" ? "Black" : "White" };
  const me = { kind: "human", name: opponent === "human" ? title(color) : "You" };
  const body = { white: color === "white" ? me : other, black: color === "white" ? other : me };
  const clock = select("clock").value;
  if (clock === "fischer") body.clock = { kind: "fischer", base: Number(input("clock-base").value) * 60, increment: Number(input("clock-inc").value) };
  else if (clock === "per-move") body.clock = { kind: "per-move", base: Number(input("clock-move").value) };
  return body;
}
function sameSetup(state) {
  const player = (p) => {
    if (p.kind === "human") return { kind: "human", name: p.name };
    return p.movetime ? { kind: "engine", movetime: p.movetime } : { kind: "engine", level: p.level };
  };
  const body = { white: player(state.players.white), black: player(state.players.black) };
  const c = state.clock;
  if (c) body.clock = c.kind === "fischer" ? { kind: "fischer", base: c.base, increment: c.increment } : { kind: "per-move", base: c.base };
  return body;
}
function wireSetup() {
  document.getElementById("new-game")?.addEventListener("submit", (e) => e.preventDefault());
  select("clock").addEventListener("change", () => {
    const v = select("clock").value;
    input("clock-base").closest("label")?.toggleAttribute("hidden", v !== "fischer");
    input("clock-inc").closest("label")?.toggleAttribute("hidden", v !== "fischer");
    input("clock-move").closest("label")?.toggleAttribute("hidden", v !== "per-move");
  });
  select("opponent").addEventListener("change", () => {
    const v = select("opponent").value;
    select("level").hidden = v !== "engine";
    select("movetime").hidden = v !== "movetime";
  });
}

// ../../src/emergo/web/static/board/geometry.js
var S = 36;
var D_HEX = 1.4 * S;
var num = (x) => Math.round(x * 100) / 100;
function layout(input2) {
  const { size: n, flipped } = input2;
  const hexagon = input2.shape === "hexagon";
  const view = hexagon ? "hexagon" : input2.view;
  const byName = new Map(input2.squares.map((s) => [s.name, s]));
  const byUV = new Map(input2.squares.map((s) => [`${s.u},${s.v}`, s.name]));
  const margin = input2.coordinates ? 0.95 * S : 0.3 * S;
  const half = hexagon ? ((n - 1) / 2 + 0.8) * D_HEX : view === "checker" ? n * S / 2 : n * S / Math.SQRT2;
  const c = half + margin;
  const frame = { width: 2 * c, height: 2 * c, cx: c, cy: c };
  const mid = (n + 1) / 2;
  function at(f, r) {
    let df = f - mid;
    let dr = r - mid;
    if (flipped) {
      df = -df;
      dr = -dr;
    }
    if (view === "checker") return { x: c + df * S, y: c - dr * S };
    const k = S / Math.SQRT2;
    return { x: c + (df - dr) * k, y: c - (df + dr) * k };
  }
  const oblique = (u, v) => at(u + v - mid, v - u + mid);
  function hexPoint(u, v) {
    let du = u - mid;
    let dv = v - mid;
    if (flipped) {
      du = -du;
      dv = -dv;
    }
    return { x: c + (dv - du / 2) * D_HEX, y: c + du * D_HEX * Math.sqrt(3) / 2 };
  }
  const polygon = (pts) => pts.map((p) => `${num(p.x)},${num(p.y)}`).join(" ");
  const cell = (f, r) => polygon([at(f - 0.5, r - 0.5), at(f + 0.5, r - 0.5), at(f + 0.5, r + 0.5), at(f - 0.5, r + 0.5)]);
  function point(name) {
    const sq = byName.get(name);
    if (!sq) return { x: 0, y: 0 };
    return hexagon ? hexPoint(sq.u, sq.v) : at(sq.file, sq.rank);
  }
  function outline(name) {
    const sq = byName.get(name);
    if (!sq) return "";
    if (!hexagon) return cell(sq.file, sq.rank);
    const p = hexPoint(sq.u, sq.v);
    const r = D_HEX / Math.sqrt(3);
    return polygon([0, 1, 2, 3, 4, 5].map((k) => (k * 60 + 30) * Math.PI / 180).map((a) => ({ x: p.x + r * Math.cos(a), y: p.y + r * Math.sin(a) })));
  }
  const radius = hexagon ? 0.43 * D_HEX : view === "diamond" ? 0.54 * S : 0.42 * S;
  function middle(a, b) {
    const p = byName.get(a);
    const q = byName.get(b);
    if (!p || !q) return null;
    return byUV.get(`${(p.u + q.u) / 2},${(p.v + q.v) / 2}`) || null;
  }
  function cells() {
    const dark = /* @__PURE__ */ new Map();
    for (const sq of input2.squares) dark.set(`${sq.file},${sq.rank}`, sq.name);
    const out = [];
    for (let f = 1; f <= n; f++) for (let r = 1; r <= n; r++) out.push({ points: cell(f, r), square: dark.get(`${f},${r}`) || null });
    return out;
  }
  const edge = () => polygon([at(0.5, 0.5), at(n + 0.5, 0.5), at(n + 0.5, n + 0.5), at(0.5, n + 0.5)]);
  function lines() {
    const out = [];
    if (hexagon || view === "checker" && input2.names === "checker") return out;
    for (const family of ["u", "v"]) {
      for (let i = 1; i <= n; i++) {
        const line = input2.squares.filter((s) => (family === "u" ? s.u : s.v) === i);
        if (!line.length) continue;
        line.sort((a, b) => family === "u" ? a.v - b.v : a.u - b.u);
        const first = line[0];
        const last = line[line.length - 1];
        const [du, dv] = family === "u" ? [0, 0.3] : [0.3, 0];
        out.push({ a: oblique(first.u - du, first.v - dv), b: oblique(last.u + du, last.v + dv) });
      }
    }
    return out;
  }
  function labels() {
    if (!input2.coordinates || !input2.squares.length) return [];
    const out = [];
    const letters = "abcdefghi";
    if (hexagon) {
      for (let u = 1; u <= n; u++) {
        const vs = input2.squares.filter((s) => s.u === u).map((s) => s.v);
        out.push({ p: hexPoint(u, Math.min(...vs) - 0.85), text: letters[u - 1] });
      }
      for (let v = 1; v <= n; v++) {
        const us = input2.squares.filter((s) => s.v === v).map((s) => s.u);
        out.push({ p: v < mid ? hexPoint(Math.min(...us) - 0.85, v - 0.42) : hexPoint(Math.max(...us) + 0.85, v + 0.42), text: String(v) });
      }
    } else if (input2.names === "checker") {
      const edge2 = flipped ? n + 0.85 : 0.15;
      for (let i = 1; i <= n; i++) {
        out.push({ p: at(i, edge2), text: letters[i - 1] });
        out.push({ p: at(edge2, i), text: String(i) });
      }
    } else if (view === "checker") {
      for (const sq of input2.squares) {
        const p = at(sq.file - 0.3 * (flipped ? -1 : 1), sq.rank + 0.28 * (flipped ? -1 : 1));
        out.push({ p, text: sq.name, small: true });
      }
    } else {
      const m = 0.85;
      for (let u = 1; u <= n; u++) {
        const vs = input2.squares.filter((s) => s.u === u).map((s) => s.v);
        if (u <= mid) out.push({ p: oblique(u, Math.min(...vs) - m), text: letters[u - 1] });
        if (u >= mid) out.push({ p: oblique(u, Math.max(...vs) + m), text: letters[u - 1] });
      }
      for (let v = 1; v <= n; v++) {
        const us = input2.squares.filter((s) => s.v === v).map((s) => s.u);
        if (v <= mid) out.push({ p: oblique(Math.max(...us) + m, v), text: String(v) });
        if (v >= mid) out.push({ p: oblique(Math.min(...us) - m, v), text: String(v) });
      }
    }
    return out;
  }
  function neighbour(from, dx, dy) {
    const here = point(from);
    let best = null;
    let bestScore = Infinity;
    for (const sq of input2.squares) {
      const p = point(sq.name);
      const along = (p.x - here.x) * dx + (p.y - here.y) * dy;
      if (along <= 1) continue;
      const across = Math.abs((p.x - here.x) * dy - (p.y - here.y) * dx);
      const score = along + 2 * across;
      if (score < bestScore) {
        bestScore = score;
        best = sq.name;
      }
    }
    return best;
  }
  return { view, hexagon, frame, radius, byName, point, outline, middle, cells, edge, lines, labels, neighbour };
}

// ../../src/emergo/web/static/board/dom.js
var SVG_NS = "http://www.w3.org/2000/svg";
function svg(tag, attrs = {}, parent) {
  const el2 = (
    /** @type {SVGElement} */
    document.createElementNS(SVG_NS, tag)
  );
  for (const [k, v] of Object.entries(attrs)) el2.setAttribute(k, String(v));
  if (parent) parent.appendChild(el2);
  return el2;
}
function html(tag, cls, parent) {
  const el2 = document.createElement(tag);
  if (cls) el2.className = cls;
  if (parent) parent.appendChild(el2);
  return el2;
}

// ../../src/emergo/web/static/board/routes.js
function candidates(moves, prefix) {
  return moves.filter((m) => m.kind !== "enter" && prefix.every((s, i) => m.path[i] === s));
}
function destinations(moves, prefix) {
  if (!prefix.length) return [];
  return [...new Set(candidates(moves, prefix).map((m) => m.path[prefix.length]).filter(Boolean))];
}
var startsMove = (moves, square) => moves.some((m) => m.kind !== "enter" && m.path[0] === square);
var entryAt = (moves, square) => moves.find((m) => m.kind === "enter" && m.path[0] === square) || null;
function advance(moves, prefix) {
  for (; ; ) {
    const cands = candidates(moves, prefix);
    if (cands.length === 1 && prefix.length > 1) return { type: "play", move: cands[0] };
    const next = destinations(moves, prefix);
    if (next.length !== 1 || cands.length < 2 || cands.some((m) => m.path.length <= prefix.length + 1)) break;
    prefix = [...prefix, next[0]];
  }
  return { type: "route", prefix };
}
function click(moves, prefix, square, label = (s) => s) {
  const entry = entryAt(moves, square);
  if (entry) return { type: "play", move: entry };
  if (prefix.length) {
    const next = candidates(moves, prefix).filter((m) => m.path[prefix.length] === square);
    if (next.length) return advance(moves, [...prefix, square]);
    if (square === prefix[0]) return { type: "cancel" };
    const at = prefix.indexOf(square, 1);
    if (at > 0) {
      const dests = destinations(moves, prefix).map(label).sort();
      return { type: "keep", note: `${label(square)} is on every route: now ${dests.length > 1 ? `choose ${dests.slice(0, -1).join(", ")} or ${dests[dests.length - 1]}` : dests[0] || "go on"}` };
    }
    const later = candidates(moves, prefix).filter((m) => m.path.indexOf(square, prefix.length) > 0);
    const ways = new Set(later.map((m) => m.path.slice(0, m.path.indexOf(square, prefix.length) + 1).join()));
    if (ways.size === 1) return advance(moves, later[0].path.slice(0, later[0].path.indexOf(square, prefix.length) + 1));
    if (ways.size > 1) return { type: "ambiguous", square };
  }
  if (startsMove(moves, square)) return advance(moves, [square]);
  return prefix.length ? { type: "cancel" } : { type: "none" };
}
function sameRoute(moves, move) {
  const key2 = move.path.join();
  return moves.find((m) => m.kind === move.kind && m.path.join() === key2) || null;
}

// ../../src/emergo/web/static/board/premove.js
var noPremove = () => ({ enabled: false, dests: [], current: null });
function settle(current, moves) {
  return current ? sameRoute(moves, current) : null;
}
var premoveSquares = (current) => current ? [...new Set(current.path)] : [];
function inputMoves(state) {
  if (state.viewOnly) return { moves: [], premove: false };
  if (state.movable) return { moves: state.movable.moves, premove: false };
  if (state.premovable.enabled) return { moves: state.premovable.dests, premove: true };
  return { moves: [], premove: false };
}

// ../../src/emergo/web/static/board/state.js
function defaults() {
  return {
    view: "diamond",
    flipped: false,
    coordinates: true,
    names: "oblique",
    size: 9,
    shape: "diamond",
    squares: [],
    pieces: {},
    lastMove: null,
    movable: null,
    premovable: noPremove(),
    drawable: { enabled: true, shapes: [], autoShapes: [], eraseOnClick: true },
    viewOnly: false,
    animation: { enabled: true, jump: 220 },
    events: {}
  };
}
var NESTED = (
  /** @type {const} */
  ["premovable", "drawable", "animation"]
);
function configure(state, config) {
  const { animate: _animate, ...rest } = config;
  void _animate;
  const changed = {
    squares: !!rest.squares,
    position: "pieces" in rest || "movable" in rest,
    frame: ["squares", "size", "shape", "view", "names", "flipped", "coordinates"].some((k) => k in rest)
  };
  for (const [k, v] of Object.entries(rest)) {
    if (NESTED.includes(
      /** @type {any} */
      k
    ) && v && typeof v === "object") {
      Object.assign(
        /** @type {any} */
        state[k],
        v
      );
    } else {
      state[k] = v;
    }
  }
  return changed;
}

// ../../src/emergo/web/static/board/shapes.js
function brushOf(e) {
  const shift = e.shiftKey || e.ctrlKey;
  const alt = e.altKey || e.metaKey;
  return shift && alt ? "yellow" : shift ? "red" : alt ? "blue" : "green";
}
var key = (s) => s.path ? s.path.join(">") : `${s.orig}>${s.dest || ""}`;
var sameSquares = (a, b) => key(a) === key(b);
function toggle(shapes, shape) {
  const old = shapes.find((s) => sameSquares(s, shape));
  if (!old) return [...shapes, shape];
  const others = shapes.filter((s) => s !== old);
  return old.brush === shape.brush ? others : [...others, shape];
}
function arrow(points, width, startGap = 0) {
  const pts = points.map((p) => ({ ...p }));
  const n = pts.length;
  const headLength = 2.4 * width;
  const a = pts[n - 2];
  const b = pts[n - 1];
  const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  const ux = (b.x - a.x) / len;
  const uy = (b.y - a.y) / len;
  const tip = { x: b.x - ux * 0.15 * headLength, y: b.y - uy * 0.15 * headLength };
  const base = { x: tip.x - ux * headLength, y: tip.y - uy * headLength };
  const side = { x: -uy * 1.1 * width, y: ux * 1.1 * width };
  pts[n - 1] = base;
  if (startGap) {
    const c = pts[1];
    const l0 = Math.hypot(c.x - pts[0].x, c.y - pts[0].y) || 1;
    pts[0] = { x: pts[0].x + (c.x - pts[0].x) / l0 * startGap, y: pts[0].y + (c.y - pts[0].y) / l0 * startGap };
  }
  return { shaft: pts, head: [tip, { x: base.x + side.x, y: base.y + side.y }, { x: base.x - side.x, y: base.y - side.y }] };
}
var pointsText = (pts) => pts.map((p) => `${num(p.x)},${num(p.y)}`).join(" ");
var shapeSquares = (s) => s.path ? s.path : s.dest && s.dest !== s.orig ? [s.orig, s.dest] : [s.orig];

// ../../src/emergo/web/static/board/anim.js
var ease = (f) => f < 0.5 ? 2 * f * f : 1 - 2 * (1 - f) * (1 - f);
function plan(move, points, jump, lift) {
  const legs = Math.max(0, points.length - 1);
  const capture = move.kind === "capture";
  return {
    duration: legs * jump,
    /** @param {number} ms time since the start @returns {Frame} */
    at(ms) {
      const t = Math.max(0, ms) / jump;
      const leg = Math.min(Math.floor(t), legs - 1);
      if (legs === 0 || t >= legs) {
        const end = points[points.length - 1] || { x: 0, y: 0 };
        return { x: end.x, y: end.y, leg: legs, passed: capture ? legs : 0 };
      }
      const f = t - leg;
      const e = ease(f);
      const a = points[leg];
      const b = points[leg + 1];
      const up = capture ? Math.sin(Math.PI * f) * lift : 0;
      return { x: a.x + (b.x - a.x) * e, y: a.y + (b.y - a.y) * e - up, leg, passed: capture ? leg + (f > 0.5 ? 1 : 0) : 0 };
    }
  };
}
function play(p, draw) {
  const start = performance.now();
  return new Promise((resolve) => {
    function step(now) {
      const ms = now - start;
      draw(p.at(ms));
      if (ms >= p.duration) resolve();
      else requestAnimationFrame(step);
    }
    requestAnimationFrame(step);
  });
}

// ../../src/emergo/web/static/board/render.js
var LAYERS = (
  /** @type {const} */
  ["cells", "lines", "coords", "marks", "route", "pieces", "numbers", "input", "shapes", "anim"]
);
function makeLayers(root) {
  const layers = (
    /** @type {any} */
    {}
  );
  for (const name of LAYERS) {
    layers[name] = svg("g", { class: name }, root);
    if (!["cells", "marks", "pieces"].includes(name)) layers[name].setAttribute("pointer-events", "none");
  }
  return layers;
}
function tint(L, name, cls, parent) {
  const points = L.outline(name);
  if (points) svg("polygon", { points, class: cls, "data-square": name }, parent);
}
function circle(L, name, r, cls, parent, tag = true) {
  const p = L.point(name);
  const attrs = { cx: num(p.x), cy: num(p.y), r: num(r), class: cls };
  return svg("circle", tag ? { ...attrs, "data-square": name } : attrs, parent);
}
function drawFrame(root, layers, L, state) {
  root.setAttribute("viewBox", `0 0 ${num(L.frame.width)} ${num(L.frame.height)}`);
  layers.cells.replaceChildren();
  layers.lines.replaceChildren();
  layers.coords.replaceChildren();
  if (L.hexagon) {
    for (const sq of state.squares) svg("polygon", { points: L.outline(sq.name), class: `cell hex hex${(sq.u + sq.v) % 3}`, "data-square": sq.name }, layers.cells);
  } else {
    for (const c of L.cells()) {
      const el2 = svg("polygon", { points: c.points, class: c.square ? "cell dark" : "cell light" }, layers.cells);
      if (c.square) el2.setAttribute("data-square", c.square);
    }
    svg("polygon", { points: L.edge(), class: "edge" }, layers.cells);
  }
  for (const { a, b } of L.lines()) svg("line", { x1: num(a.x), y1: num(a.y), x2: num(b.x), y2: num(b.y) }, layers.lines);
  for (const { p, text, small } of L.labels()) {
    const size = (small ? 0.24 : 0.38) * S;
    const t = svg("text", { x: num(p.x), y: num(p.y + 0.36 * size), "font-size": num(size), class: small ? "inside" : "" }, layers.coords);
    t.textContent = text;
  }
}
function drawMarks(layer, L, state, ui) {
  layer.replaceChildren();
  const last = state.lastMove;
  if (last) for (const name of new Set(last.path)) tint(L, name, "last", layer);
  for (const name of premoveSquares(state.premovable.current)) tint(L, name, "premove", layer);
  if (ui.prefix.length) tint(L, ui.prefix[0], ui.premove ? "selected premove-selected" : "selected", layer);
  if (ui.cursor && ui.showCursor) tint(L, ui.cursor, "cursor", layer);
  const movable = state.movable;
  if (!movable || state.viewOnly) return;
  const r = L.radius;
  const entering = movable.moves.some((m) => m.kind === "enter");
  for (const m of movable.moves) if (m.kind === "enter") circle(L, m.path[0], 0.22 * r, "dest entry", layer);
  if (entering) {
    for (const name of Object.keys(movable.forbidden || {})) {
      const p = L.point(name);
      const d = 0.16 * r;
      const g = svg("g", { class: "forbidden", "data-square": name }, layer);
      svg("path", { d: `M${num(p.x - d)},${num(p.y - d)}L${num(p.x + d)},${num(p.y + d)}M${num(p.x - d)},${num(p.y + d)}L${num(p.x + d)},${num(p.y - d)}` }, g);
    }
  }
  if (!ui.prefix.length) {
    for (const name of new Set(movable.moves.filter((m) => m.kind !== "enter").map((m) => m.path[0]))) {
      circle(L, name, r + 0.06 * S, movable.required ? "movable capture" : "movable", layer);
    }
  }
}
function drawRoute(layers, L, last) {
  layers.route.replaceChildren();
  layers.numbers.replaceChildren();
  if (!last) return;
  const r = L.radius;
  if (last.kind === "enter") {
    circle(L, last.path[0], r + 0.09 * S, "last-ring", layers.route, false);
    return;
  }
  const pts = last.path.map(L.point);
  svg("polyline", { points: pointsText(pts), class: "last-path" }, layers.route);
  svg("circle", { cx: num(pts[0].x), cy: num(pts[0].y), r: num(0.13 * S), class: "last-start" }, layers.route);
  if (last.kind !== "capture") return;
  const landings = /* @__PURE__ */ new Map();
  last.path.slice(1).forEach((name, i) => landings.set(name, [...landings.get(name) || [], i + 1]));
  for (const [name, ns] of landings) {
    const p = L.point(name);
    const x = p.x - 0.72 * r;
    const y = p.y - 0.72 * r;
    const text = ns.join("·");
    const w = Math.max(0.36 * S, 0.2 * S * text.length + 0.16 * S);
    const g = svg("g", { class: "landing", "data-landing": text, "data-for": name }, layers.numbers);
    svg("rect", { x: num(x - w / 2), y: num(y - 0.18 * S), width: num(w), height: num(0.36 * S), rx: num(0.18 * S) }, g);
    const t = svg("text", { x: num(x), y: num(y + 0.1 * S), "font-size": num(0.28 * S) }, g);
    t.textContent = text;
  }
}
function pieceElement(L, piece, name, label) {
  const r = L.radius;
  const g = svg("g", { class: `piece ${piece.owner}`, "data-square": name, "data-stack": `${piece.caps}/${piece.prisoners}` });
  const other = piece.owner === "white" ? "black" : "white";
  if (piece.caps + piece.prisoners > 1) svg("circle", { cx: 0, cy: num(0.2 * r), r: num(r), class: `disc rim ${piece.prisoners ? other : piece.owner}` }, g);
  svg("circle", { cx: 0, cy: 0, r: num(r), class: `disc ${piece.owner}` }, g);
  svg("circle", { cx: 0, cy: 0, r: num(0.74 * r), class: "inner" }, g);
  if (piece.caps + piece.prisoners > 1) {
    const size = (piece.caps < 10 ? 1.15 : 0.95) * r;
    const t = svg("text", { x: 0, y: num(0.36 * size), "font-size": num(size), class: `count ${piece.owner}` }, g);
    t.textContent = String(piece.caps);
  }
  if (piece.prisoners) {
    const b = 0.66 * r;
    svg("circle", { cx: num(b), cy: num(b), r: num(0.5 * r), class: `disc badge ${other}` }, g);
    const size = (piece.prisoners < 10 ? 0.66 : 0.56) * r;
    const t = svg("text", { x: num(b), y: num(b + 0.36 * size), "font-size": num(size), class: `count ${other}` }, g);
    t.textContent = String(piece.prisoners);
  }
  const title2 = svg("title", {}, g);
  title2.textContent = `${label}: ${piece.caps} ${piece.owner}${piece.prisoners ? ` over ${piece.prisoners} ${other}` : ""}`;
  return g;
}
function drawPieces(layer, L, state, ui, label) {
  layer.replaceChildren();
  for (const [name, piece] of Object.entries(state.pieces)) {
    const p = L.point(name);
    const g = pieceElement(L, piece, name, label(name));
    g.setAttribute("transform", `translate(${num(p.x)},${num(p.y)})`);
    if (ui.prefix[0] === name) g.classList.add("lifted");
    layer.appendChild(g);
  }
}
function drawInput(layer, L, ui) {
  layer.replaceChildren();
  const r = L.radius;
  const cls = ui.premove ? " premove-dest" : "";
  if (ui.prefix.length > 1) svg("polyline", { points: pointsText(ui.prefix.map(L.point)), class: `partial${ui.premove ? " premove" : ""}` }, layer);
  const capture = candidates(ui.moves, ui.prefix).some((m) => m.kind === "capture");
  for (const name of destinations(ui.moves, ui.prefix)) {
    circle(L, name, capture ? 0.5 * r : 0.28 * r, capture ? `dest landing-dest${cls}` : `dest${cls}`, layer);
  }
}
function drawShapes(layer, L, user, auto, drawing) {
  layer.replaceChildren();
  const r = L.radius;
  const one = (s, kind) => {
    const squares = shapeSquares(s).filter((name) => L.byName.has(name));
    if (!squares.length) return;
    const cls = `shape ${kind} brush-${s.brush}`;
    if (squares.length === 1) {
      circle(L, squares[0], 0.92 * r, cls, layer).setAttribute("data-shape", squares[0]);
      return;
    }
    const width = (kind === "auto" && s.brush.startsWith("pale") ? 0.16 : 0.22) * S;
    const { shaft, head } = arrow(squares.map(L.point), width);
    const g = svg("g", { class: cls, "data-shape": squares.join(">") }, layer);
    svg("polyline", { points: pointsText(shaft), "stroke-width": num(width) }, g);
    svg("polygon", { points: pointsText(head) }, g);
    if (s.label) {
      const p = L.point(squares[squares.length - 1]);
      const t = svg("text", { x: num(p.x + 0.5 * r), y: num(p.y - 0.5 * r), "font-size": num(0.3 * S), class: "shape-label" }, g);
      t.textContent = s.label;
    }
  };
  for (const s of auto) one(s, "auto");
  for (const s of user) one(s, "user");
  if (drawing) one(drawing, "current");
}

// ../../src/emergo/web/static/board/tip.js
var cap = (c) => c[0].toUpperCase() + c.slice(1);
function makeTip(element) {
  const tip = html("div", "eg-tip", element);
  tip.hidden = true;
  tip.setAttribute("role", "status");
  function hide() {
    tip.hidden = true;
    delete tip.dataset.square;
  }
  function show(L, square, label, piece, reason) {
    tip.replaceChildren();
    if (!piece && !reason) return hide();
    html("div", "eg-tip-title", tip).textContent = label;
    if (piece) {
      const other = piece.owner === "white" ? "black" : "white";
      html("div", "eg-tip-stack", tip).textContent = `${piece.caps} ${cap(piece.owner)}` + (piece.prisoners ? ` over ${piece.prisoners} ${cap(other)}` : "") + " (bottom to top)";
      const column = html("div", "eg-column", tip);
      column.setAttribute("aria-hidden", "true");
      for (let i = 0; i < piece.prisoners; i++) html("span", `man ${other}`, column);
      for (let i = 0; i < piece.caps; i++) html("span", `man ${piece.owner}`, column);
    }
    if (reason) html("div", "eg-tip-reason", tip).textContent = reason;
    const p = L.point(square);
    tip.style.left = `${100 * p.x / L.frame.width}%`;
    tip.style.top = `${100 * (p.y + L.radius) / L.frame.height}%`;
    tip.dataset.square = square;
    tip.classList.toggle("above", p.y >= L.frame.height * 0.6);
    tip.hidden = false;
  }
  return { show, hide, shown: () => tip.hidden ? null : tip.dataset.square || null };
}

// ../../src/emergo/web/static/board/input.js
function bindInput(root, core) {
  let drag = null;
  let drawing = false;
  let pointerFocus = false;
  root.addEventListener("contextmenu", (e) => e.preventDefault());
  root.addEventListener("pointerdown", (e) => {
    const square = core.squareAt(e.clientX, e.clientY);
    if (e.button === 2) {
      e.preventDefault();
      if (square && core.drawing.start(square, e)) {
        drawing = true;
        root.setPointerCapture(e.pointerId);
      }
      return;
    }
    if (e.button !== 0) return;
    core.drawing.erase();
    if (!square) return;
    pointerFocus = true;
    root.focus({ preventScroll: true });
    pointerFocus = false;
    core.cursor.set(square, false);
    e.preventDefault();
    const again = core.selected() === square;
    if (!core.isDest(square) && !core.busy() && core.pick(square)) {
      drag = { square, x: e.clientX, y: e.clientY, moved: false, again };
      root.setPointerCapture(e.pointerId);
      return;
    }
    core.click(square);
  });
  root.addEventListener("pointermove", (e) => {
    if (drawing) {
      core.drawing.move(core.squareAt(e.clientX, e.clientY));
      return;
    }
    if (drag) {
      if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) > 5) {
        drag.moved = true;
        core.ghost.lift(drag.square);
      }
      const q = drag.moved ? core.toPicture(e.clientX, e.clientY) : null;
      if (q) core.ghost.move(q.x, q.y);
      return;
    }
    if (e.pointerType === "mouse") core.hover(core.squareAt(e.clientX, e.clientY));
  });
  root.addEventListener("pointerleave", () => {
    if (!drag && !drawing) core.hover(null);
  });
  root.addEventListener("pointerup", (e) => {
    if (drawing) {
      drawing = false;
      core.drawing.end();
      return;
    }
    if (!drag) return;
    const d = drag;
    drag = null;
    core.ghost.drop();
    const target = d.moved ? core.squareAt(e.clientX, e.clientY) : null;
    if (target && target !== d.square) core.click(target);
    else if (!d.moved && d.again) core.click(d.square);
  });
  root.addEventListener("pointercancel", () => {
    drag = null;
    drawing = false;
    core.ghost.drop();
  });
  const KEYS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
  root.addEventListener("keydown", (e) => {
    if (e.key in KEYS) {
      core.cursor.step(...KEYS[e.key]);
      e.preventDefault();
      e.stopPropagation();
    } else if ((e.key === "Enter" || e.key === " ") && core.cursor.get()) {
      const square = (
        /** @type {string} */
        core.cursor.get()
      );
      core.cursor.set(square, true);
      core.click(square);
      e.preventDefault();
      e.stopPropagation();
    } else if (e.key === "Escape") {
      core.cancel();
    }
  });
  root.addEventListener("focus", () => {
    if (!pointerFocus) core.cursor.set(core.cursor.get(), true);
  });
  root.addEventListener("blur", () => core.cursor.set(core.cursor.get(), false));
}

// ../../src/emergo/web/static/board/index.js
function Board(element, config) {
  const state = defaults();
  const ui = { prefix: [], moves: [], premove: false, cursor: null, showCursor: false, drawing: null };
  let L = layout(state);
  let frameKey = "";
  let shown = null;
  let generation = 0;
  element.classList.add("eg-board");
  element.replaceChildren();
  const root = (
    /** @type {SVGSVGElement} */
    svg("svg", { role: "application", tabindex: 0 }, element)
  );
  root.setAttribute("aria-roledescription", "board");
  root.setAttribute("aria-label", "Emergo board: arrow keys move the cursor, Enter chooses, Escape cancels");
  const layers = makeLayers(root);
  const tip = makeTip(element);
  const label = (name) => {
    const sq = L.byName.get(name);
    return sq ? state.names === "checker" ? sq.checker : sq.name : name;
  };
  function redraw() {
    const key2 = [state.squares.length && state.squares[0].name, state.squares.length, state.size, state.shape, state.view, state.names, state.flipped, state.coordinates].join();
    if (key2 !== frameKey) {
      frameKey = key2;
      L = layout(state);
      element.dataset.view = L.view;
      element.dataset.flipped = String(state.flipped);
      drawFrame(root, layers, L, state);
    }
    element.classList.toggle("keyboard", ui.showCursor);
    const im = inputMoves(state);
    ui.moves = shown ? [] : im.moves;
    ui.premove = im.premove;
    const view = shown ? { ...state, ...shown, movable: null } : state;
    drawMarks(layers.marks, L, view, ui);
    drawRoute(layers, L, view.lastMove);
    drawPieces(layers.pieces, L, view, ui, label);
    drawInput(layers.input, L, ui);
    drawShapes(layers.shapes, L, state.drawable.shapes, state.drawable.autoShapes, ui.drawing);
  }
  function refusal(square) {
    const movable = state.movable;
    if (!movable || ui.premove) return "";
    if (ui.prefix.includes(square) || destinations(ui.moves, ui.prefix).includes(square)) return "";
    const reason = (movable.forbidden || {})[square];
    if (reason) return state.names === "checker" ? reason.checker : reason.oblique;
    if (movable.required && state.pieces[square] && !startsMove(movable.moves, square)) return movable.required;
    return "";
  }
  function showTip(square, sticky) {
    const reason = refusal(square);
    const piece = state.pieces[square];
    if (!sticky && !reason && !piece) return tip.hide();
    tip.show(L, square, label(square), piece, reason);
  }
  function finish(move) {
    ui.prefix = [];
    if (ui.premove) {
      state.premovable.current = move;
      redraw();
      if (state.events.premove) state.events.premove(move);
      return;
    }
    if (state.events.move) state.events.move(move, { premove: false });
    redraw();
  }
  function select2(square) {
    ui.prefix = [];
    if (state.events.select) state.events.select(square);
    if (square) {
      const action = advance(ui.moves, [square]);
      if (action.type === "play") return finish(action.move);
      if (action.type === "route") ui.prefix = action.prefix;
    }
    redraw();
  }
  function click2(square) {
    if (state.events.square && state.events.square(square)) return;
    if (shown || state.viewOnly) return showTip(square, true);
    if (ui.premove && state.premovable.current && !ui.prefix.length) cancelPremove();
    const action = click(ui.moves, ui.prefix, square, label);
    switch (action.type) {
      case "play":
        return finish(action.move);
      case "route":
        ui.prefix = action.prefix;
        if (action.prefix.length === 1 && state.events.select) state.events.select(square);
        return redraw();
      case "keep":
        if (state.events.refused && !ui.premove) state.events.refused(square, action.note, true);
        return;
      case "ambiguous":
        if (state.events.refused) state.events.refused(square, `several routes reach ${label(square)}: choose the landings one by one`, true);
        return;
      case "cancel":
        select2(null);
        break;
      default:
        break;
    }
    const reason = refusal(square);
    showTip(square, true);
    if (reason && state.events.refused) state.events.refused(square, reason);
  }
  function cancelPremove() {
    const current = state.premovable.current;
    if (!current) return;
    state.premovable.current = null;
    if (state.events.premoveCancel) state.events.premoveCancel(current);
    redraw();
  }
  function playPremove() {
    const current = state.premovable.current;
    if (!current) return false;
    state.premovable.current = null;
    const move = state.movable && !state.viewOnly ? settle(current, state.movable.moves) : null;
    if (move) {
      if (state.events.move) state.events.move(move, { premove: true });
    } else if (state.events.premoveCancel) state.events.premoveCancel(current);
    redraw();
    return !!move;
  }
  function setShapes(shapes) {
    state.drawable.shapes = shapes;
    if (state.events.shapes) state.events.shapes(shapes);
    redraw();
  }
  function squareAt(x, y) {
    const el2 = document.elementFromPoint(x, y);
    const hit = el2 && root.contains(el2) ? el2.closest("[data-square]") : null;
    return hit ? hit.getAttribute("data-square") : null;
  }
  function toPicture(x, y) {
    const m = root.getScreenCTM();
    if (!m) return null;
    const p = root.createSVGPoint();
    p.x = x;
    p.y = y;
    const q = p.matrixTransform(m.inverse());
    return { x: q.x, y: q.y };
  }
  let ghost = null;
  let hovered = (
    /** @type {string|null} */
    null
  );
  bindInput(root, {
    squareAt,
    toPicture,
    click: click2,
    pick(square) {
      if (!startsMove(ui.moves, square)) return false;
      if (ui.premove && state.premovable.current) cancelPremove();
      if (!(ui.prefix.length === 1 && ui.prefix[0] === square)) select2(square);
      return ui.prefix[0] === square;
    },
    selected: () => ui.prefix.length ? ui.prefix[0] : null,
    isDest: (square) => destinations(ui.moves, ui.prefix).includes(square),
    busy: () => !!shown,
    hover(square) {
      if (square === hovered) return;
      hovered = square;
      if (square) showTip(square, false);
      else tip.hide();
    },
    cancel() {
      select2(null);
      cancelPremove();
      tip.hide();
    },
    cursor: {
      get: () => ui.cursor,
      set(square, visible) {
        const was = ui.showCursor;
        ui.cursor = square || ui.cursor || ui.moves[0]?.path[0] || state.squares[0]?.name || null;
        ui.showCursor = visible;
        if (visible || was) redraw();
      },
      step(dx, dy) {
        const next = ui.cursor ? L.neighbour(ui.cursor, dx, dy) : state.squares[0]?.name || null;
        ui.showCursor = true;
        if (next) {
          ui.cursor = next;
          showTip(next, false);
        }
        redraw();
      }
    },
    drawing: {
      start(square, e) {
        if (!state.drawable.enabled) return false;
        cancelPremove();
        tip.hide();
        ui.drawing = { orig: square, brush: brushOf(e) };
        redraw();
        return true;
      },
      move(square) {
        if (!ui.drawing) return;
        const dest = square && square !== ui.drawing.orig ? square : void 0;
        if (dest === ui.drawing.dest) return;
        ui.drawing = { ...ui.drawing, dest };
        drawShapes(layers.shapes, L, state.drawable.shapes, state.drawable.autoShapes, ui.drawing);
      },
      end() {
        const shape = ui.drawing;
        ui.drawing = null;
        if (shape) setShapes(toggle(state.drawable.shapes, shape));
      },
      erase() {
        if (state.drawable.eraseOnClick && state.drawable.shapes.length) setShapes([]);
      }
    },
    ghost: {
      lift(square) {
        const original = layers.pieces.querySelector(`[data-square="${square}"]`);
        if (!original) return;
        ghost = /** @type {SVGElement} */
        original.cloneNode(true);
        ghost.removeAttribute("data-square");
        ghost.classList.add("ghost");
        layers.anim.appendChild(ghost);
        original.classList.add("dragging");
      },
      move(x, y) {
        if (ghost) ghost.setAttribute("transform", `translate(${num(x)},${num(y)})`);
      },
      drop() {
        ghost = null;
        layers.anim.replaceChildren();
        redraw();
      }
    }
  });
  function animate(before, beforeLast, move) {
    const mine = generation;
    const piece = before[move.path[0]];
    if (!piece) return redraw();
    shown = { pieces: before, lastMove: beforeLast };
    redraw();
    const g = pieceElement(L, piece, move.path[0], label(move.path[0]));
    g.removeAttribute("data-square");
    g.classList.add("ghost");
    layers.anim.appendChild(g);
    layers.pieces.querySelector(`[data-square="${move.path[0]}"]`)?.classList.add("dragging");
    let flashed = 0;
    const p = plan(move, move.path.map(L.point), state.animation.jump, 0.35 * S);
    play(p, (f) => {
      if (mine !== generation) return;
      g.setAttribute("transform", `translate(${num(f.x)},${num(f.y)})`);
      for (; flashed < f.passed; flashed++) {
        const jumped = L.middle(move.path[flashed], move.path[flashed + 1]);
        if (jumped) layers.pieces.querySelector(`[data-square="${jumped}"]`)?.classList.add("hit");
      }
    }).then(() => {
      g.remove();
      if (mine !== generation) return;
      shown = null;
      redraw();
    });
  }
  function set(cfg) {
    generation++;
    const before = shown ? shown.pieces : state.pieces;
    const beforeLast = shown ? shown.lastMove : state.lastMove;
    shown = null;
    layers.anim.replaceChildren();
    const changed = configure(state, cfg);
    if (changed.position) {
      ui.prefix = [];
      tip.hide();
      hovered = null;
    }
    const move = cfg.lastMove;
    if (cfg.animate && cfg.pieces && move && move.kind !== "enter" && state.animation.enabled) {
      if (changed.frame) redraw();
      animate(before, beforeLast, move);
      return;
    }
    redraw();
  }
  set(config);
  return {
    set,
    state,
    select: select2,
    click: click2,
    cancelMove: () => select2(null),
    playPremove,
    cancelPremove,
    setShapes,
    setAutoShapes(shapes) {
      state.drawable.autoShapes = shapes;
      redraw();
    },
    point: (square) => L.point(square),
    redraw,
    destroy() {
      generation++;
      element.replaceChildren();
      element.classList.remove("eg-board");
    }
  };
}

// ../../src/emergo/web/static/page/tree.js
var ids = 0;
function newNode(parent, move) {
  return { id: ++ids, move, parent, children: [], ply: parent ? parent.ply + 1 : 0, data: null, review: null, comment: "", mark: "", shapes: [] };
}
var Tree = class _Tree {
  /** @param {string} start @param {"white"|"black"} firstTurn */
  constructor(start, firstTurn) {
    this.start = start;
    this.firstTurn = firstTurn;
    this.root = newNode(null, null);
    this.nodes = [this.root];
    this.ply = 0;
  }
  /** A tree holding one line. @param {string} start @param {"white"|"black"} firstTurn @param {MoveInfo[]} moves */
  static line(start, firstTurn, moves) {
    const tree = new _Tree(start, firstTurn);
    let n = tree.root;
    for (const move of moves) n = tree.child(n, move);
    tree.follow(tree.root);
    return tree;
  }
  get here() {
    return this.nodes[this.ply];
  }
  /** The moves of the line shown. */
  get moves() {
    return this.nodes.slice(1).map((n) => (
      /** @type {MoveInfo} */
      n.move
    ));
  }
  /** The last node of the line shown. */
  get end() {
    return this.nodes[this.nodes.length - 1];
  }
  /** Make the line through `node` the one shown, and show `node`. @param {TreeNode} node */
  follow(node) {
    const nodes = [];
    for (let n = (
      /** @type {TreeNode|null} */
      node
    ); n; n = n.parent) nodes.unshift(n);
    for (let n = node; n.children.length; n = n.children[0]) nodes.push(n.children[0]);
    this.nodes = nodes;
    this.ply = node.ply;
  }
  /** The child of `node` with this move (the one there, or a new one, after the others). @param {TreeNode} node @param {MoveInfo} move */
  child(node, move) {
    let c = node.children.find((n) => n.move && n.move.text === move.text);
    if (!c) {
      c = newNode(node, move);
      node.children.push(c);
    }
    return c;
  }
  /** The moves from the root to `node`, as texts. @param {TreeNode} node */
  static path(node) {
    const texts = [];
    for (let n = (
      /** @type {TreeNode|null} */
      node
    ); n && n.move; n = n.parent) texts.unshift(n.move.text);
    return texts;
  }
  /** The main line's nodes after the root. */
  mainLine() {
    const nodes = [];
    for (let n = this.root; n.children.length; n = n.children[0]) nodes.push(n.children[0]);
    return nodes;
  }
  /** Is `node` off the main line? @param {TreeNode} node */
  static inVariation(node) {
    for (let m = node; m.parent; m = m.parent) if (m.parent.children[0] !== m) return true;
    return false;
  }
  /** The other moves played where `node` was: the previous (-1) or next (+1). @param {TreeNode} node @param {number} step */
  static sibling(node, step) {
    const siblings = node.parent ? node.parent.children : [];
    if (siblings.length < 2) return null;
    const k = siblings.indexOf(node);
    return siblings[(k + step + siblings.length) % siblings.length];
  }
  /** Move the variation holding `node` one level up; false on the main line. @param {TreeNode} node */
  promote(node) {
    let n = node;
    while (n.parent && n.parent.children[0] === n) n = n.parent;
    if (!n.parent) return false;
    const siblings = n.parent.children;
    siblings.splice(siblings.indexOf(n), 1);
    siblings.unshift(n);
    this.follow(node);
    return true;
  }
  /** Remove `node` and every move after it; its parent is shown. @param {TreeNode} node */
  remove(node) {
    const parent = node.parent;
    if (!parent) return false;
    parent.children.splice(parent.children.indexOf(node), 1);
    this.follow(parent);
    return true;
  }
  /** The tree as a study stores it (docs/web.md): moves as texts, comments and marks. @param {TreeNode} [node] @returns {StudyNode[]} */
  toJson(node = this.root) {
    return node.children.map((c) => {
      const out = { move: (
        /** @type {MoveInfo} */
        c.move.text
      ), children: this.toJson(c) };
      if (c.comment) out.comment = c.comment;
      if (c.mark) out.mark = c.mark;
      return out;
    });
  }
  /** Grow the tree from a study's nodes (their moves as the server's move data). @param {TreeNode} parent @param {any[]} nodes */
  grow(parent, nodes) {
    for (const n of nodes) {
      const child = this.child(parent, n.move);
      child.comment = n.comment || "";
      child.mark = n.mark || "";
      this.grow(child, n.children || []);
    }
  }
  /** The main line's hand-written comments and marks by ply, as the record export takes them. */
  annotations() {
    const comments = {};
    const marks = {};
    if (this.root.comment) comments[0] = this.root.comment;
    for (const n of this.mainLine()) {
      if (n.comment) comments[n.ply] = n.comment;
      if (n.mark) marks[n.ply] = n.mark;
    }
    return { comments, marks };
  }
};

// ../../src/emergo/web/static/page/movelist.js
function MoveList(box, options) {
  const text = (move) => options.names() === "checker" ? move.checker : move.text;
  function moveButton(tree, node, main) {
    const b = (
      /** @type {HTMLButtonElement} */
      el("button", main ? "main" : "var")
    );
    b.type = "button";
    b.dataset.ply = String(node.ply);
    b.dataset.node = String(node.id);
    b.setAttribute("role", "listitem");
    b.textContent = text(
      /** @type {MoveInfo} */
      node.move
    );
    const mark = node.mark || (node.review ? node.review.mark : "");
    if (mark) b.append(el("span", `mark${node.mark ? " own" : ""}`, mark));
    if (node.review) {
      b.title = node.review.comment;
      if (node.review.kind) b.classList.add(node.review.kind);
    }
    if (node === tree.here) {
      b.classList.add("current");
      b.setAttribute("aria-current", "step");
    }
    b.addEventListener("click", () => options.go(node));
    return b;
  }
  const number = (tree, node) => el("span", "no", moveNumber(node.ply, tree.firstTurn));
  function variation(tree, into, node) {
    into.append(number(tree, node), " ", moveButton(tree, node, false));
    if (node.comment) into.append(" ", el("span", "comment", node.comment));
    let n = node;
    let numbered = !!node.comment;
    while (n.children.length) {
      const [first, ...others] = n.children;
      into.append(" ");
      if (numbered || whiteMoves(first.ply, tree.firstTurn)) into.append(number(tree, first), " ");
      into.append(moveButton(tree, first, false));
      if (first.comment) into.append(" ", el("span", "comment", first.comment));
      for (const other of others) {
        const inner = el("span", "paren");
        variation(tree, inner, other);
        into.append(" ", inner);
      }
      numbered = others.length > 0 || !!first.comment;
      n = first;
    }
  }
  function draw(tree) {
    box.replaceChildren();
    if (tree.root.comment) box.append(el("div", "comment full", tree.root.comment));
    let n = tree.root;
    let numbered = true;
    while (n.children.length) {
      const [first, ...others] = n.children;
      const label = moveNumber(first.ply, tree.firstTurn).replace("...", ".");
      const white = whiteMoves(first.ply, tree.firstTurn);
      if (white) box.append(el("span", "no", label));
      else if (numbered) box.append(el("span", "no", label), el("span", "skip", "…"));
      box.append(moveButton(tree, first, true));
      const breaks = others.length > 0 || !!first.comment;
      if (breaks && white) box.append(el("span", "skip", "…"));
      if (first.comment) box.append(el("div", "comment full", first.comment));
      if (others.length) {
        const block = el("div", "variation");
        for (const other of others) {
          const row = el("div", "vline");
          variation(tree, row, other);
          block.append(row);
        }
        box.append(block);
      }
      numbered = breaks;
      n = first;
    }
    const current = (
      /** @type {HTMLElement|null} */
      box.querySelector(".current")
    );
    if (current) keepInView(box, current);
    else box.scrollTop = 0;
  }
  return { draw };
}
function keepInView(box, item) {
  const b = box.getBoundingClientRect();
  const i = item.getBoundingClientRect();
  if (i.top < b.top) box.scrollTop -= b.top - i.top;
  else if (i.bottom > b.bottom) box.scrollTop += i.bottom - b.bottom;
}

// ../../src/emergo/web/static/page/players.js
function drawPlayers(data, game = {}) {
  const [top, bottom] = settings.flipped ? ["white", "black"] : ["black", "white"];
  bar(
    $("player-top"),
    /** @type {"white"|"black"} */
    top,
    data,
    game
  );
  bar(
    $("player-bottom"),
    /** @type {"white"|"black"} */
    bottom,
    data,
    game
  );
  if (game.clock) drawClocks(game.clock, !!data.outcome);
}
function bar(box, color, data, game) {
  const hand = data.hands[color];
  const toMove = (game.toMove === void 0 ? data.turn : game.toMove) === color && !data.outcome;
  box.className = `player ${color}${toMove ? " to-move" : ""}`;
  box.dataset.hand = String(hand);
  const disc = el("span", `hand ${color}`, String(hand));
  disc.title = `${title(color)}: ${hand} in hand`;
  const who = game.names ? `${game.names[color]} (${title(color)})` : title(color);
  const name = el("span", "name", `${who}${toMove ? " to move" : ""}`);
  const person = game.people && game.people[color];
  if (person) name.replaceChildren(person, ` (${title(color)})${toMove ? " to move" : ""}`);
  const note = el("span", "note", `${hand} in hand`);
  if (toMove && data.shadow) note.textContent += `: enters all ${data.entrySize} as one shadowpiece (R14)`;
  box.replaceChildren(disc, name, note);
  if (game.clock) {
    const clock = el("span", "clock");
    clock.dataset.color = color;
    box.append(clock);
  }
}
function clockLeft(c, color) {
  const left = c[
    /** @type {"white"|"black"} */
    color
  ];
  return c.running === color ? left - (performance.now() - c.at) / 1e3 : left;
}
var isLow = (c, left) => left < Math.min(10, c.base * 0.2);
function drawClocks(c, over) {
  for (const e of document.querySelectorAll(".player .clock")) {
    const box = (
      /** @type {HTMLElement} */
      e
    );
    const color = box.dataset.color || "white";
    const left = clockLeft(c, color);
    box.textContent = clockText(left);
    box.classList.toggle("running", c.running === color);
    box.classList.toggle("low", isLow(c, left) && !over);
    box.classList.toggle("flag", left <= 0);
    box.title = `${title(color)}'s clock (${c.control})`;
  }
}

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

// ../../src/emergo/web/static/page/engine.js
function drawLines(lines, ply, firstTurn, pick) {
  const list = $("lines");
  list.replaceChildren();
  const bar2 = $("evalbar");
  const sorted = [...lines].sort((a, b) => a.multipv - b.multipv);
  if (!sorted.length) {
    $("eval").textContent = "";
    bar2.classList.add("empty");
    return [];
  }
  const best = sorted[0];
  const exact = best.source === "tablebase" ? scoreWords(best.score) : null;
  $("eval").textContent = exact ? `${exact} (tables)` : `${best.score} (White's view), depth ${best.depth}, ${best.nodes} nodes, ${best.time.toFixed(1)} s`;
  bar2.classList.remove("empty");
  const share = 50 + 50 * Math.tanh(best.centimen / 400);
  $("evalfill").style.height = `${settings.flipped ? 100 - share : share}%`;
  for (const line of sorted) {
    const li = el("li");
    const tables = line.source === "tablebase";
    const score = el("span", "score", `${line.score}/${tables ? "tb" : line.depth}`);
    if (tables) score.title = `${scoreWords(line.score) || line.score}, by the endgame tables`;
    li.append(score);
    const numbers = lineNumbers(ply, firstTurn, line.pv.length);
    line.pv.forEach((move, k) => {
      if (numbers[k]) li.append(el("span", "no", numbers[k]), " ");
      const b = button(settings.names === "checker" ? move.checker : move.text, () => pick && pick(line, k));
      b.title = pick ? "Play the line up to here" : "";
      li.append(b, " ");
    });
    list.append(li);
  }
  const shapes = [];
  for (const line of sorted.slice(0, 3)) {
    const move = line.pv[0];
    if (!move) continue;
    const brush = line === best ? "blue" : "paleBlue";
    shapes.push(move.kind === "enter" ? { orig: move.path[0], brush } : { orig: move.path[0], path: move.path, brush });
  }
  return shapes;
}
var clearLines = () => drawLines([], 1, "white", null);
function Analyst(on) {
  let socket = null;
  let id = 0;
  const lines = /* @__PURE__ */ new Map();
  let running = false;
  function connect() {
    if (socket && !socket.closed) return socket;
    const s = new Socket("/ws/analyse", {
      onMessage(msg) {
        if ((msg.type === "info" || msg.type === "done") && msg.id !== id) return;
        if (msg.type === "info") {
          lines.set(msg.line.multipv, msg.line);
          on.info([...lines.values()]);
        } else if (msg.type === "done") {
          for (const l of msg.lines) lines.set(l.multipv, l);
          running = false;
          on.done([...lines.values()]);
        } else if (msg.type === "error") {
          running = false;
          on.error(msg.error);
        }
      },
      onStatus(status) {
        if (status !== "open" && running) {
          running = false;
          on.done([...lines.values()]);
        }
      }
    });
    socket = s;
    return s;
  }
  return {
    get running() {
      return running;
    },
    /** @param {Record<string, unknown>} request pos, moves, multipv, time or infinite */
    async start(request) {
      const s = connect();
      await s.opened;
      lines.clear();
      running = true;
      s.send({ type: "start", id: ++id, ...request });
    },
    stop() {
      if (socket) socket.send({ type: "stop" });
      running = false;
    },
    close() {
      socket?.close();
      socket = null;
      running = false;
    }
  };
}

// ../../src/emergo/web/static/page/sound.js
var context = null;
var buffers = /* @__PURE__ */ new Map();
var count = 0;
function load(name) {
  let b = buffers.get(name);
  if (!b) {
    const ctx = (
      /** @type {AudioContext} */
      context
    );
    b = fetch(`/static/sounds/${name}.wav`).then((r) => r.arrayBuffer()).then((data) => ctx.decodeAudioData(data)).catch(() => null);
    buffers.set(name, b);
  }
  return b;
}
function playSound(name) {
  if (!settings.sound) return;
  count++;
  document.documentElement.dataset.sound = `${name} ${count}`;
  try {
    context = context || new AudioContext();
    if (context.state === "suspended") context.resume().catch(() => {
    });
  } catch {
    return;
  }
  const ctx = context;
  load(name).then((buffer) => {
    if (!buffer || !settings.sound) return;
    const source = ctx.createBufferSource();
    source.buffer = buffer;
    source.connect(ctx.destination);
    source.start();
  });
}

export {
  api,
  $,
  input,
  select,
  buttonEl,
  el,
  say,
  errorText,
  settings,
  onSettings,
  boardSettings,
  applySettings,
  changeSettings,
  loadSettings,
  initConfirm,
  ask,
  dismiss,
  initSaved,
  refreshSaved,
  title,
  resultText,
  statusText,
  plies,
  recordDate,
  otherTurn,
  startPosition,
  chosenSetup,
  sameSetup,
  wireSetup,
  Board,
  Tree,
  MoveList,
  drawPlayers,
  clockLeft,
  isLow,
  drawClocks,
  Socket,
  drawLines,
  clearLines,
  Analyst,
  playSound
};
