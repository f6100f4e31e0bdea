// Built from static/page/ and static/board/ by tools/web-check/build.mjs: do not edit.
import {
  $,
  Socket,
  abortLeft,
  abortWords,
  api,
  boardSettings,
  buttonEl,
  changeSettings,
  clockOf,
  clockText,
  el,
  errorText,
  factsText,
  initOnline,
  input,
  moveNumber,
  movesOf,
  offerOf,
  onSettings,
  other,
  otherTurn,
  pageData,
  personEl,
  rematchFields,
  resultLine,
  resultOf,
  resultWords,
  ruleOf,
  say,
  settings,
  sharedPlies,
  socketPath,
  statusText,
  timeControlText,
  title,
  variantName,
  whiteMoves
} from "./chunk-H4UDQUBU.js";

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
  const other2 = piece.owner === "white" ? "black" : "white";
  if (piece.caps + piece.prisoners > 1) svg("circle", { cx: 0, cy: num(0.2 * r), r: num(r), class: `disc rim ${piece.prisoners ? other2 : piece.owner}` }, g);
  svg("circle", { cx: 0, cy: 0, r: num(r), class: `disc ${piece.owner}` }, g);
  svg("circle", { cx: 0, cy: 0, r: num(0.74 * r), class: "inner" }, g);
  if (piece.caps + piece.prisoners > 1) {
    const size = (piece.caps < 10 ? 1.15 : 0.95) * r;
    const t = svg("text", { x: 0, y: num(0.36 * size), "font-size": num(size), class: `count ${piece.owner}` }, g);
    t.textContent = String(piece.caps);
  }
  if (piece.prisoners) {
    const b = 0.66 * r;
    svg("circle", { cx: num(b), cy: num(b), r: num(0.5 * r), class: `disc badge ${other2}` }, g);
    const size = (piece.prisoners < 10 ? 0.66 : 0.56) * r;
    const t = svg("text", { x: num(b), y: num(b + 0.36 * size), "font-size": num(size), class: `count ${other2}` }, g);
    t.textContent = String(piece.prisoners);
  }
  const title2 = svg("title", {}, g);
  title2.textContent = `${label}: ${piece.caps} ${piece.owner}${piece.prisoners ? ` over ${piece.prisoners} ${other2}` : ""}`;
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
      const other2 = piece.owner === "white" ? "black" : "white";
      html("div", "eg-tip-stack", tip).textContent = `${piece.caps} ${cap(piece.owner)}` + (piece.prisoners ? ` over ${piece.prisoners} ${cap(other2)}` : "") + " (bottom to top)";
      const column = html("div", "eg-column", tip);
      column.setAttribute("aria-hidden", "true");
      for (let i = 0; i < piece.prisoners; i++) html("span", `man ${other2}`, column);
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
  function select(square) {
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
        select(null);
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
      if (!(ui.prefix.length === 1 && ui.prefix[0] === square)) select(square);
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
      select(null);
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
    select,
    click: click2,
    cancelMove: () => select(null),
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
  function moveButton(tree, node, main2) {
    const b = (
      /** @type {HTMLButtonElement} */
      el("button", main2 ? "main" : "var")
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
      for (const other2 of others) {
        const inner = el("span", "paren");
        variation(tree, inner, other2);
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
        for (const other2 of others) {
          const row = el("div", "vline");
          variation(tree, row, other2);
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

// ../../src/emergo/web/static/page/chat.js
var MAX_LINES = 200;
var Chat = class {
  /** @param {ChatParts} parts */
  constructor(parts) {
    this.parts = parts;
    this.room = null;
    this.playerChat = true;
    this.player = false;
    this.signedIn = false;
    this.over = false;
    parts.form.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = parts.input.value.trim();
      if (!text || !this.room) return;
      parts.send(this.room, text);
      parts.input.value = "";
    });
    parts.open.addEventListener("change", () => parts.setOpen(parts.open.checked));
  }
  /**
   * Who reads and writes what: after the page's whole state.
   * @param {{player: boolean, signedIn: boolean, over: boolean, playerChat: boolean, lines?: ChatLine[]}} how
   */
  reset(how) {
    this.player = how.player;
    this.signedIn = how.signedIn;
    this.over = how.over;
    this.playerChat = how.playerChat;
    if (how.lines) {
      this.parts.lines.replaceChildren();
      for (const line of how.lines) this.add(line);
    }
    this.show();
  }
  show() {
    const { form, note, toggle: toggle2, open } = this.parts;
    this.room = !this.signedIn ? null : this.player ? this.playerChat ? "player" : null : "spectator";
    form.hidden = !this.room;
    toggle2.hidden = !this.player || this.over;
    open.checked = this.playerChat;
    if (!this.signedIn) note.textContent = "Log in to chat.";
    else if (this.player && !this.playerChat) note.textContent = "The players' chat is off.";
    else if (this.player && !this.over) note.textContent = "Your opponent reads this; spectators do not.";
    else if (!this.player) note.textContent = "The spectators' room: the players read it after the game.";
    else note.textContent = "";
    this.parts.input.placeholder = this.room === "player" ? "Say something to your opponent" : "Say something to the spectators";
  }
  /** The players' room opened or closed. @param {boolean} open */
  setRoom(open) {
    this.playerChat = open;
    this.show();
  }
  /** A line, written as text. @param {ChatLine} line */
  add(line) {
    const box = this.parts.lines;
    if (box.querySelector(`[data-id="${Number(line.id)}"]`)) return;
    const item = el("li", `line ${line.room === "spectator" ? "spectator" : "player"}`);
    item.dataset.id = String(Number(line.id));
    if (this.player && line.room === "spectator") item.title = "from the spectators' room";
    item.append(el("span", "user", line.username), " ", el("span", "text", line.text));
    box.append(item);
    while (box.children.length > MAX_LINES) box.firstElementChild?.remove();
    keepInView(box, item);
  }
  /** A line removed by a moderator. @param {number} id */
  remove(id) {
    this.parts.lines.querySelector(`[data-id="${Number(id)}"]`)?.remove();
  }
};

// ../../src/emergo/web/static/page/game.js
var PING_MS = 4e3;
var GameController = class {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.data = pageData(root);
    this.id = String(root.dataset.game);
    this.you = root.dataset.you === "white" || root.dataset.you === "black" ? root.dataset.you : null;
    this.full = null;
    this.state = null;
    this.stateAt = 0;
    this.moves = [];
    this.infos = [];
    this.positions = [];
    this.tree = new Tree("w 12/12", "white");
    this.firstTurn = "white";
    this.people = void 0;
    this.geometry = null;
    this.clock = null;
    this.lowWarned = false;
    this.spectators = 0;
    this.claimAt = null;
    this.gone = false;
    this.pending = false;
    this.unsure = null;
    this.declined = null;
    this.commandId = 0;
    this.sent = 0;
    this.commands = /* @__PURE__ */ new Map();
    this.lag = 0;
    this.pingAt = 0;
    this.request = 0;
    this.want = null;
    this.prefetching = false;
    this.rematchSent = null;
    this.rematchOffer = null;
    this.events = null;
    this.premoves = /* @__PURE__ */ new Map();
    this.queue = Promise.resolve();
    this.moveList = MoveList($("moves"), { names: () => settings.names, go: (node) => this.gotoNode(node) });
    this.board = Board($("board"), {
      ...boardSettings(),
      viewOnly: !this.you,
      events: {
        move: (move, how) => {
          if (how && how.premove) this.premoveSaid("");
          this.sendMove(move);
        },
        refused: (_square, reason, hint) => say(reason, !hint),
        select: () => say(""),
        premove: (move) => this.premoveSaid(`premove ${this.moveText(move)}: played at once if it is legal when your turn comes (Escape or a click cancels it)`),
        premoveCancel: () => this.premoveSaid("")
      }
    });
    this.chat = new Chat({
      lines: $("chat-lines"),
      form: (
        /** @type {HTMLFormElement} */
        $("chat-form")
      ),
      input: input("chat-text"),
      note: $("chat-note"),
      toggle: $("chat-switch"),
      open: input("chat-open"),
      send: (room, text) => this.command({ t: "chat", room, text }, "chat"),
      setOpen: (open) => this.command({ t: "chat-room", open }, "chat-room")
    });
    onSettings(() => {
      this.board.set(boardSettings());
      if (this.state) this.show(false);
    });
    this.wire();
    setInterval(() => this.tick(), 100);
    this.socket = new Socket(socketPath(`/ws/online/game/${encodeURIComponent(this.id)}`, this.data), {
      versioned: true,
      reconnect: true,
      dedupe: true,
      isState: (m) => m.t === "full",
      versionOf: (m) => m.t === "full" || m.t === "v" ? m.v : void 0,
      resyncMessage: { t: "resync" },
      onMessage: (msg) => {
        const at = performance.now();
        this.queue = this.queue.then(() => this.message(msg, at)).catch((e) => say(errorText(e)));
      },
      onStatus: (status) => {
        if (status === "lost" && !(this.unsure && !this.unsure.sent)) say("connection lost: reconnecting ...", false);
        else if (status === "open" && $("message").textContent.startsWith("connection lost")) say("");
        else if (status === "closed") say("this game is not on the server");
      }
    });
    setInterval(() => this.ping(), PING_MS);
  }
  /** Say (or clear) the premove's message; clearing leaves any other message. @param {string} text */
  premoveSaid(text) {
    if (text) say(text, false);
    else if ($("message").textContent.startsWith("premove ")) say("");
  }
  /** @param {MoveInfo} move */
  moveText(move) {
    return settings.names === "checker" ? move.checker : move.text;
  }
  wire() {
    initConfirm();
    $("flip").addEventListener("click", () => changeSettings({ flipped: !settings.flipped }, false));
    $("first").addEventListener("click", () => this.goto(0));
    $("back").addEventListener("click", () => this.goto(this.shownPly() - 1));
    $("forward").addEventListener("click", () => this.goto(this.shownPly() + 1));
    $("last").addEventListener("click", () => this.goto(this.moves.length));
    $("resign").addEventListener("click", async () => {
      if (await ask("Resign the game?", "Resign")) this.command({ t: "resign" }, "resign");
    });
    $("abort").addEventListener("click", async () => {
      if (await ask("Abort the game? It ends without a result.", "Abort")) this.command({ t: "abort" }, "abort");
    });
    $("draw").addEventListener("click", async () => {
      if (await ask("Offer a draw?", "Offer draw")) this.command({ t: "draw-yes", v: this.socket.version }, "draw");
    });
    $("takeback").addEventListener("click", () => this.command({ t: "takeback-yes", v: this.socket.version }, "takeback"));
    $("offer-yes").addEventListener("click", () => this.answerOffer(true));
    $("offer-no").addEventListener("click", () => this.answerOffer(false));
    $("claim-victory").addEventListener("click", () => this.command({ t: "claim-victory" }, "claim"));
    $("claim-draw").addEventListener("click", () => this.command({ t: "claim-draw" }, "claim"));
    $("rematch").addEventListener("click", () => this.rematch());
    $("rematch-yes").addEventListener("click", () => this.answerRematch("accept"));
    $("rematch-no").addEventListener("click", () => this.answerRematch("decline"));
    document.addEventListener("keydown", (e) => {
      const target = (
        /** @type {HTMLElement} */
        e.target
      );
      if (target.closest("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === "ArrowLeft") this.goto(this.shownPly() - 1);
      else if (e.key === "ArrowRight") this.goto(this.shownPly() + 1);
      else if (e.key === "Home") this.goto(0);
      else if (e.key === "End") this.goto(this.moves.length);
      else if (e.key === "f") changeSettings({ flipped: !settings.flipped }, false);
      else return;
      e.preventDefault();
    });
  }
  // --- the server's messages ------------------------------------------------------------------
  /** @param {any} msg @param {number} at when it came (performance.now()) */
  async message(msg, at) {
    switch (msg.t) {
      case "full":
        return this.whole(msg, at);
      case "v":
        for (const event of msg.events || []) this.event(event);
        if (msg.state) await this.update(msg.state, at, false);
        return;
      case "chat":
        return this.chat.add(msg.line);
      case "chatRemoved":
        return this.chat.remove(msg.id);
      case "chatRoom":
        return this.chat.setRoom(!!msg.open);
      case "crowd":
        this.spectators = Number(msg.spectators) || 0;
        return this.showInfo();
      case "opponentGone":
        this.gone = !!msg.gone;
        this.claimAt = msg.gone && typeof msg.claimInSeconds === "number" ? at + msg.claimInSeconds * 1e3 : null;
        return this.showClaim();
      case "ack":
        if (this.commands.get(msg.id) === "move") this.unsure = null;
        this.commands.delete(msg.id);
        return;
      case "error":
        return this.refused(msg);
      case "pong":
        if (this.pingAt) this.lag = Math.min(1, (performance.now() - this.pingAt) / 2e3);
        this.pingAt = 0;
        return;
      default:
        return;
    }
  }
  /** The whole state: at once, after a reconnection, after a resync. @param {any} msg @param {number} at */
  async whole(msg, at) {
    const first = !this.full;
    this.full = msg.game;
    this.you = msg.you === "white" || msg.you === "black" ? msg.you : null;
    this.spectators = Number(msg.spectators) || 0;
    if (!this.geometry || this.geometry.variant !== this.full.variant.key) {
      this.geometry = await api(`/api/geometry?variant=${encodeURIComponent(this.full.variant.key)}`);
      this.board.set({ squares: this.geometry.squares, size: this.geometry.size, shape: this.geometry.shape, viewOnly: !this.you });
    }
    if (first && this.you) changeSettings({ flipped: this.you === "black" }, false);
    this.people = { white: personEl(this.full.white, this.data.profiles), black: personEl(this.full.black, this.data.profiles) };
    const over = !!resultOf(this.full.state);
    this.chat.reset({ player: !!this.you, signedIn: !!this.data.me, over, playerChat: !!msg.playerChat, lines: msg.chat || [] });
    await this.update(this.full.state, at, first);
    this.resend();
  }
  /** After a (re)connection: send the move the server may not have, or say why it is dropped. */
  resend() {
    const move = this.unsure;
    if (!move || !this.state) return;
    if (this.moves.length > move.ply && this.moves[move.ply] === move.text) {
      this.unsure = null;
      if ($("message").textContent.includes("once the connection is back")) say("");
      return;
    }
    this.unsure = null;
    if (this.moves.length === move.ply && this.mine()) {
      const info = this.positions[move.ply]?.moves?.find((m) => m.text === move.text);
      if (info) {
        if ($("message").textContent.includes("once the connection is back")) say("");
        this.sendMove(info);
        return;
      }
    }
    say(`your move ${move.text} was not played: the game went on without it`);
  }
  /** A round's event: what the state alone does not say. @param {any} event */
  event(event) {
    const mine = this.you && event.color === this.you;
    if (event.t === "drawDeclined" && !mine) this.sayDeclined(`${title(event.color)} declined the draw`);
    else if (event.t === "takebackDeclined" && !mine) this.sayDeclined(`${title(event.color)} declined the takeback`);
    else if (event.t === "timeGiven") say("the server was away: the time is given back", false);
  }
  /** An answer to an offer: shown until the next move or the end (update clears it). @param {string} text */
  sayDeclined(text) {
    say(text, false);
    this.declined = { text, plies: this.moves.length };
  }
  /** @param {any} msg */
  refused(msg) {
    const what = this.commands.get(msg.id);
    this.commands.delete(msg.id);
    if (what === "move") this.unsure = null;
    say(msg.error || "refused");
    if (what === "move") {
      this.pending = false;
      if (this.state) this.show(false);
    }
  }
  /** A new state: its moves (asking for the positions they lead to), clocks, offers, result. @param {GameState} state @param {number} at @param {boolean} first */
  async update(state, at, first) {
    const moves = movesOf(state);
    const shared = sharedPlies(this.moves, moves);
    const grew = !first && shared === this.moves.length && moves.length === shared + 1;
    if (shared !== moves.length || shared !== this.moves.length || !this.positions[moves.length]) await this.follow(moves, shared);
    const wasOver = !!(this.state && resultOf(this.state));
    const declined = this.declined;
    if (declined && (moves.length !== declined.plies || resultOf(state))) {
      if ($("message").textContent === declined.text) say("");
      this.declined = null;
    }
    this.state = state;
    this.stateAt = at;
    this.pending = false;
    this.clock = clockOf(state, this.full, at);
    const result = resultOf(state);
    const shownPly = this.tree.ply;
    const wasLatest = first || shownPly >= this.tree.moves.length;
    this.tree = Tree.line(this.full.initialFen, this.firstTurn, this.infos);
    this.positions.forEach((data, ply) => {
      if (data && this.tree.nodes[ply]) this.tree.nodes[ply].data = data;
    });
    this.tree.ply = wasLatest ? this.moves.length : Math.min(shownPly, this.moves.length);
    if (grew && !first) {
      const last = this.infos[this.infos.length - 1];
      playSound(last && last.kind === "capture" ? "capture" : "move");
    }
    if (result && !wasOver && !first) {
      playSound("end");
      this.socket.resync();
    }
    if (result) {
      dismiss();
      this.prefetch();
    }
    this.show(grew && wasLatest, shared !== this.moves.length || first);
    if (this.mine()) this.board.playPremove();
    else this.offerPremoves();
    document.documentElement.dataset.ready = "1";
  }
  /** Learn the moves after `shared` (their data and the new position) from the server. @param {string[]} moves @param {number} shared */
  async follow(moves, shared) {
    this.moves = moves.slice();
    this.infos = this.infos.slice(0, shared);
    this.positions = this.positions.slice(0, shared + 1);
    const base = this.positions[shared];
    if (base && moves.length === shared) return;
    if (base) {
      const data = await this.position(base.position, moves.slice(shared));
      this.infos.push(...data.line.moves);
      this.positions[moves.length] = data;
    } else {
      const data = await this.position(this.full.initialFen, moves);
      this.firstTurn = data.line.turn;
      this.infos = data.line.moves;
      this.positions = [];
      this.positions[moves.length] = data;
    }
  }
  /** @param {string} pos @param {string[]} moves */
  position(pos, moves) {
    const query = new URLSearchParams({ pos, moves: moves.join(" ") });
    return api(`/api/position?${query}`);
  }
  // --- showing --------------------------------------------------------------------------------
  /** May the player move now (the game on, the latest position shown, their turn, no move in flight)? */
  mine() {
    const s = this.state;
    return !!s && !!this.you && !resultOf(s) && s.turn === this.you && this.tree.ply === this.moves.length && !this.pending;
  }
  /** @param {boolean} animate @param {boolean} [fresh] a new position: the arrows drawn go */
  show(animate, fresh = false) {
    const s = (
      /** @type {GameState} */
      this.state
    );
    const result = resultOf(s);
    const latest = this.tree.ply === this.moves.length;
    const data = this.tree.here.data || this.positions[this.moves.length];
    if (!data) return;
    const mine = this.mine();
    this.board.set({
      pieces: data.pieces,
      lastMove: data.lastMove,
      movable: mine ? { moves: data.moves, forbidden: data.forbidden, required: data.required } : null,
      premovable: { enabled: !!this.you && latest && !mine && !result },
      viewOnly: !this.you,
      ...fresh ? { drawable: { shapes: [], autoShapes: [] } } : {},
      animate
    });
    drawPlayers(data, { people: this.people, clock: this.clock, toMove: result ? null : latest ? s.turn : data.turn });
    if (result) $("status").textContent = latest ? "Game over" : `Move ${this.tree.ply} of ${this.moves.length}: → or End for the latest`;
    else if (!latest) $("status").textContent = `Move ${this.tree.ply} of ${this.moves.length}: → or End for the latest`;
    else if (!this.you) $("status").textContent = factsText(data);
    else $("status").textContent = s.turn === this.you ? `Your turn: ${statusText(data)}` : `Waiting for ${title(s.turn)}`;
    $("result").textContent = result ? resultLine(result) : "";
    $("result").title = result && ruleOf(result) ? `Rule ${ruleOf(result)} of Emergo` : "";
    this.moveList.draw(this.tree);
    this.showGame(result);
  }
  showInfo() {
    const f = this.full;
    if (!f) return;
    const tc = f.clock ? { type: "clock", limit: f.clock.initial / 1e3, increment: f.clock.increment / 1e3 } : f.daysPerTurn ? { type: "correspondence", daysPerTurn: f.daysPerTurn } : { type: "unlimited" };
    const watching = this.spectators ? ` · ${this.spectators} watching` : "";
    $("game-info").textContent = `${variantName(f.variant.key)} · ${timeControlText(
      /** @type {any} */
      tc
    )} · ${f.rated ? "Rated" : "Casual"}${watching}`;
    $("game-info").dataset.spectators = String(this.spectators);
  }
  /** The game panel: the buttons that mean something now, the offer waiting, the end. @param {any} result */
  showGame(result) {
    const s = (
      /** @type {GameState} */
      this.state
    );
    const you = this.you;
    const over = !!result;
    this.showInfo();
    const names = { white: this.full.white.name, black: this.full.black.name };
    $("game-title").textContent = you ? `You play ${title(you)} against ${names[other(you)]}` : `Watching ${names.white} – ${names.black}`;
    $("game-controls").hidden = !you || over;
    const offer = offerOf(s);
    const both = this.moves.length >= 2;
    buttonEl("abort").hidden = both;
    buttonEl("resign").hidden = !both;
    const firstMover = this.moves.length % 2 ? other(s.turn) : s.turn;
    const yoursMade = !!you && this.moves.length >= (firstMover === you ? 1 : 2);
    buttonEl("takeback").disabled = !yoursMade || !!offer && offer.kind === "takeback";
    buttonEl("draw").disabled = !!offer && offer.kind === "draw";
    buttonEl("draw").textContent = offer && offer.kind === "draw" && offer.by === you ? "Draw offered" : "Offer draw";
    buttonEl("takeback").textContent = offer && offer.kind === "takeback" && offer.by === you ? "Takeback asked" : "Takeback";
    const answer2 = !over && !!you && !!offer && offer.by !== you;
    $("offer").hidden = !answer2;
    if (answer2 && offer) $("offer-text").textContent = offer.kind === "draw" ? `${title(offer.by)} offers a draw` : `${title(offer.by)} asks to take back a move`;
    $("game-over").hidden = !over;
    $("game-over-text").textContent = over ? resultWords(result) : "";
    $("game-over-text").title = over && ruleOf(result) ? `Rule ${ruleOf(result)} of Emergo` : "";
    const download = (
      /** @type {HTMLAnchorElement} */
      $("download")
    );
    download.hidden = !over || result.termination === "aborted";
    download.href = `/game/export/${encodeURIComponent(this.id)}`;
    download.download = `emergo-${this.id}.egn`;
    this.showAfter(over);
    this.chat.over = over;
    this.chat.show();
    this.showClaim();
    const turn = !over && you && s.turn === you;
    document.title = `${turn ? "Your turn · " : ""}${this.full.white.name} – ${this.full.black.name} · Emergo`;
  }
  showClaim() {
    const s = this.state;
    const show = !!s && !!this.you && !resultOf(s) && this.gone;
    $("claim").hidden = !show;
    if (!show) return;
    const left = this.claimAt === null ? null : Math.ceil((this.claimAt - performance.now()) / 1e3);
    const ready = left !== null && left <= 0;
    $("claim-text").textContent = left === null ? "Your opponent left the game." : ready ? "Your opponent left the game: you may claim." : `Your opponent left the game: you may claim in ${left} s.`;
    buttonEl("claim-victory").hidden = !ready;
    buttonEl("claim-draw").hidden = !ready;
    buttonEl("claim-victory").disabled = !!s && s.turn === this.you;
    buttonEl("claim-victory").title = s && s.turn === this.you ? "the win is claimed while your opponent is to move: move first" : "";
  }
  tick() {
    this.showAbortCountdown();
    const c = this.clock;
    if (this.gone && !$("claim").hidden) this.showClaim();
    if (!c || !this.state) return;
    const over = !!resultOf(this.state);
    drawClocks(c, over);
    if (!over && !this.lowWarned && this.you && c.running === this.you && isLow(c, clockLeft(c, c.running))) {
      this.lowWarned = true;
      playSound("low");
    }
  }
  /** A game not yet started: the seconds left to play the first move (lichess shows them). */
  showAbortCountdown() {
    const box = $("expiration");
    const left = this.state ? abortLeft(this.state, this.stateAt, performance.now()) : null;
    box.hidden = left === null;
    if (left !== null && this.state) box.textContent = abortWords(left, this.state.turn, this.you);
  }
  // --- stepping through the game ----------------------------------------------------------------
  /** The ply shown, or the one asked for (a key pressed again counts from there). */
  shownPly() {
    return this.want ?? this.tree.ply;
  }
  /** @param {number} ply */
  goto(ply) {
    ply = Math.max(0, Math.min(this.moves.length, ply));
    this.gotoNode(this.tree.nodes[ply]);
  }
  /** @param {TreeNode} node */
  async gotoNode(node) {
    if (!node || !this.state) return;
    const id = ++this.request;
    this.want = node.ply;
    try {
      if (!node.data) {
        node.data = this.positions[node.ply] || await this.position(this.full.initialFen, this.moves.slice(0, node.ply));
        this.positions[node.ply] = node.data;
      }
      if (id !== this.request) return;
      this.want = null;
      this.tree.ply = node.ply;
      this.show(false);
      if (!this.mine()) this.offerPremoves();
      this.prefetch();
    } catch (e) {
      if (id === this.request) this.want = null;
      say(errorText(e));
    }
  }
  /**
   * Fetch the game's earlier positions in the background, one at a time from the latest back,
   * once the player steps back or the game is over: the replay then waits for nothing.
   */
  async prefetch() {
    if (this.prefetching || !this.state) return;
    this.prefetching = true;
    try {
      for (let ply = this.moves.length; ply >= 0; ply--) {
        if (this.positions[ply]) continue;
        const moves = this.moves.slice(0, ply);
        const data = await this.position(this.full.initialFen, moves);
        if (sharedPlies(this.moves, moves) !== ply) break;
        this.positions[ply] = data;
        if (this.tree.nodes[ply] && !this.tree.nodes[ply].data) this.tree.nodes[ply].data = data;
      }
      if (this.positions.filter(Boolean).length === this.moves.length + 1) document.documentElement.dataset.positions = String(this.moves.length + 1);
    } catch {
    } finally {
      this.prefetching = false;
    }
  }
  // --- premoves: the moves the player could make were it his turn ------------------------------
  async offerPremoves() {
    const s = this.state;
    const data = this.positions[this.moves.length];
    if (!s || !this.you || resultOf(s) || s.turn === this.you || this.tree.ply !== this.moves.length || !data) return;
    const pos = otherTurn(data.position);
    if (!pos) return;
    let dests = this.premoves.get(pos);
    if (!dests) {
      try {
        dests = /** @type {MoveInfo[]} */
        (await this.position(pos, [])).moves;
      } catch {
        dests = [];
      }
      this.premoves.set(pos, dests);
    }
    if (this.state === s && !this.mine()) this.board.set({ premovable: { enabled: true, dests } });
  }
  // --- commands ---------------------------------------------------------------------------------
  /** @param {MoveInfo} move */
  sendMove(move) {
    if (!this.mine()) return;
    const ply = this.moves.length;
    if (!this.socket.connected) {
      this.unsure = { text: move.text, ply, sent: false };
      this.pending = true;
      this.board.set({ movable: null });
      say(`not connected: your move ${this.moveText(move)} is sent once the connection is back`, false);
      return;
    }
    if (this.command({ t: "move", move: move.text, v: this.socket.version, lag: Math.round(this.lag * 1e3) / 1e3 }, "move")) {
      this.unsure = { text: move.text, ply, sent: true };
      this.pending = true;
      document.documentElement.dataset.sent = String(++this.sent);
      this.board.set({ movable: null });
    }
  }
  /** Send a command with an id (its answer is an ack or an error). @param {Record<string, unknown>} msg @param {string} what */
  command(msg, what) {
    const id = ++this.commandId;
    this.commands.set(id, what);
    if (this.socket.send({ ...msg, id })) return true;
    this.commands.delete(id);
    say("not connected to the game: wait a moment");
    return false;
  }
  /** @param {boolean} yes */
  answerOffer(yes) {
    const offer = this.state && offerOf(this.state);
    if (!offer) return;
    this.command({ t: `${offer.kind}-${yes ? "yes" : "no"}`, v: this.socket.version }, offer.kind);
  }
  // --- after the game: rematch, a new opponent (lichess's buttons) --------------------------------
  /** The buttons after a game, and the player's events once it is over. @param {boolean} over */
  showAfter(over) {
    const you = this.you;
    $("after").hidden = !over || !you;
    if (!over || !you) return;
    const opponent = this.full[other(you)];
    buttonEl("rematch").hidden = !opponent || opponent.name === "(deleted)";
    buttonEl("rematch").disabled = !!this.rematchSent;
    buttonEl("rematch").textContent = this.rematchSent ? "Rematch offered" : "Rematch";
    const fields = rematchFields(this.full, you);
    const prefill = new URLSearchParams({ variant: String(fields.variant), rated: String(fields.rated) });
    if (fields["clock.limit"] !== void 0) {
      prefill.set("minutes", String(Number(fields["clock.limit"]) / 60));
      prefill.set("increment", String(fields["clock.increment"]));
    } else if (fields.days !== void 0) prefill.set("days", String(fields.days));
    else prefill.set("speed", "unlimited");
    $("new-opponent").href = `/?${prefill}`;
    if (!this.events) this.listen();
  }
  /** The player's challenges and game starts (the lobby's socket): a rematch offered, accepted. */
  listen() {
    this.events = new Socket(socketPath("/ws/online/lobby", this.data), {
      reconnect: true,
      onMessage: (msg) => {
        if (msg.t === "event") this.playerEvent(msg.event || {});
      }
    });
    this.findRematch();
  }
  /** A rematch the opponent offered before the page was opened. */
  async findRematch() {
    try {
      const mine = await api("/api/challenge");
      for (const c of mine.in || []) this.playerEvent({ type: "challenge", challenge: c });
    } catch {
    }
  }
  /** Is this challenge a rematch between this game's players? @param {any} c */
  isRematch(c) {
    const you = (
      /** @type {Color} */
      this.you
    );
    const opponent = this.full[other(you)];
    const names = [c.challenger && c.challenger.name, c.destUser && c.destUser.name].map((n) => String(n || "").toLowerCase());
    return !!opponent && names.includes(String(opponent.name).toLowerCase()) && names.includes(this.data.me.toLowerCase());
  }
  /** @param {any} event */
  playerEvent(event) {
    const c = event.challenge;
    if (event.type === "gameStart" && event.game && event.game.gameId && event.game.gameId !== this.id && (this.rematchSent || this.rematchOffer)) {
      location.assign(`/game/${encodeURIComponent(event.game.gameId)}`);
    } else if (event.type === "challenge" && c && this.isRematch(c) && c.challenger.name.toLowerCase() !== this.data.me.toLowerCase()) {
      this.rematchOffer = c;
      $("rematch-text").textContent = `${c.challenger.name} offers a rematch (you play ${c.color === "random" ? "either colour" : title(other(c.color))})`;
      $("rematch-offer").hidden = false;
    } else if ((event.type === "challengeCanceled" || event.type === "challengeDeclined") && c) {
      if (this.rematchOffer && c.id === this.rematchOffer.id) {
        this.rematchOffer = null;
        $("rematch-offer").hidden = true;
        say(`${c.challenger.name} took the rematch offer back`, false);
      } else if (c.id === this.rematchSent) {
        this.rematchSent = null;
        say(`${c.destUser ? c.destUser.name : "your opponent"} declined the rematch${c.declineReason ? `: ${c.declineReason}` : ""}`, false);
        this.showAfter(true);
      }
    }
  }
  /** Offer the same game with the colours swapped (lichess's rematch). */
  async rematch() {
    const you = this.you;
    if (!you) return;
    if (this.rematchOffer) return this.answerRematch("accept");
    try {
      const opponent = this.full[other(you)].name;
      const c = await api(`/api/challenge/${encodeURIComponent(opponent)}`, rematchFields(this.full, you));
      this.rematchSent = c.id;
      say(`rematch offered to ${opponent}`, false);
      this.showAfter(true);
    } catch (e) {
      say(errorText(e));
    }
  }
  /** @param {"accept"|"decline"} action */
  async answerRematch(action) {
    const c = this.rematchOffer;
    if (!c) return;
    try {
      const answer2 = await api(`/api/challenge/${encodeURIComponent(c.id)}/${action}`, {});
      $("rematch-offer").hidden = true;
      this.rematchOffer = null;
      if (action === "accept" && answer2.gameId) location.assign(`/game/${encodeURIComponent(answer2.gameId)}`);
    } catch (e) {
      say(errorText(e));
    }
  }
  ping() {
    if (this.pingAt || !this.socket.connected) return;
    this.pingAt = performance.now();
    this.socket.send({ t: "ping" });
  }
};
async function main() {
  const root = $("game");
  await initOnline(pageData(root));
  new GameController(root);
}
main();
