// @ts-check
/**
 * board/render.js: the board drawn in SVG, layer by layer: cells, lines and coordinates (redrawn
 * only when the frame changes), then marks, the last move's route, pieces, landing numbers, the
 * route being entered, arrows and circles. A piece is one disc, never a tower, so a tall stack
 * cannot hide its neighbour: the owner's cap count on every stack of two or more men, its
 * prisoners (R6) on a badge in the other colour, a rim in the colour of its bottom man.
 *
 * @typedef {import("./types.js").BoardState} BoardState
 * @typedef {import("./types.js").Piece} Piece
 * @typedef {import("./types.js").MoveInfo} MoveInfo
 * @typedef {import("./types.js").Shape} Shape
 * @typedef {import("./geometry.js").Layout} Layout
 * @typedef {{prefix: string[], moves: MoveInfo[], premove: boolean, cursor: string|null,
 *   showCursor: boolean, drawing: Shape|null}} Ui
 *   what the player is doing: the route entered so far, the moves he chooses from (his own, or
 *   premove candidates), the keyboard cursor (drawn only while the keyboard is used), a shape
 *   being drawn
 */
import {S, num} from "./geometry.js";
import {svg} from "./dom.js";
import {destinations, candidates} from "./routes.js";
import {premoveSquares} from "./premove.js";
import {arrow, pointsText, shapeSquares} from "./shapes.js";

const LAYERS = /** @type {const} */ (["cells", "lines", "coords", "marks", "route", "pieces", "numbers", "input", "shapes", "anim"]);

/** The board's layers in drawing order; only cells, pieces and marks take the pointer. @param {SVGSVGElement} root */
export function makeLayers(root) {
  /** @type {Record<(typeof LAYERS)[number], SVGElement>} */
  const layers = /** @type {any} */ ({});
  for (const name of LAYERS) {
    layers[name] = svg("g", {class: name}, root);
    if (!["cells", "marks", "pieces"].includes(name)) layers[name].setAttribute("pointer-events", "none");
  }
  return layers;
}

/** @typedef {ReturnType<typeof makeLayers>} Layers */

/** @param {Layout} L @param {string} name @param {string} cls @param {Element} parent */
function tint(L, name, cls, parent) {
  const points = L.outline(name);
  if (points) svg("polygon", {points, class: cls, "data-square": name}, parent);
}

/** @param {Layout} L @param {string} name @param {number} r @param {string} cls @param {Element} parent @param {boolean} [tag] */
function circle(L, name, r, cls, parent, tag = true) {
  const p = L.point(name);
  const attrs = {cx: num(p.x), cy: num(p.y), r: num(r), class: cls};
  return svg("circle", tag ? {...attrs, "data-square": name} : attrs, parent);
}

/** Cells, lines and coordinates. @param {SVGSVGElement} root @param {Layers} layers @param {Layout} L @param {BoardState} state */
export function drawFrame(root, layers, L, state) {
  root.setAttribute("viewBox", `0 0 ${num(L.frame.width)} ${num(L.frame.height)}`);
  layers.cells.replaceChildren();
  layers.lines.replaceChildren();
  layers.coords.replaceChildren();
  if (L.hexagon) {
    // three colours, so that adjacent cells always differ (as emergo.svg)
    for (const sq of state.squares) svg("polygon", {points: L.outline(sq.name), class: `cell hex hex${(sq.u + sq.v) % 3}`, "data-square": sq.name}, layers.cells);
  } else {
    for (const c of L.cells()) {
      const el = svg("polygon", {points: c.points, class: c.square ? "cell dark" : "cell light"}, layers.cells);
      if (c.square) el.setAttribute("data-square", c.square);
    }
    svg("polygon", {points: L.edge(), class: "edge"}, layers.cells);
  }
  for (const {a, b} of L.lines()) svg("line", {x1: num(a.x), y1: num(a.y), x2: num(b.x), y2: num(b.y)}, layers.lines);
  for (const {p, text, small} of L.labels()) {
    const size = (small ? 0.24 : 0.38) * S;
    const t = svg("text", {x: num(p.x), y: num(p.y + 0.36 * size), "font-size": num(size), class: small ? "inside" : ""}, layers.coords);
    t.textContent = text;
  }
}

/**
 * Tints and marks under the pieces: the last move, a queued premove, the selection, the
 * keyboard cursor, legal entries (dots), forbidden entries (crosses, R15, R16) and the pieces
 * that may move (rings; in a capture only the capturing ones, R8).
 * @param {SVGElement} layer @param {Layout} L @param {BoardState} state @param {Ui} ui
 */
export function drawMarks(layer, L, state, ui) {
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
      const g = svg("g", {class: "forbidden", "data-square": name}, layer);
      svg("path", {d: `M${num(p.x - d)},${num(p.y - d)}L${num(p.x + d)},${num(p.y + d)}M${num(p.x - d)},${num(p.y + d)}L${num(p.x + d)},${num(p.y - d)}`}, g);
    }
  }
  if (!ui.prefix.length) {
    for (const name of new Set(movable.moves.filter((m) => m.kind !== "enter").map((m) => m.path[0]))) {
      circle(L, name, r + 0.06 * S, movable.required ? "movable capture" : "movable", layer);
    }
  }
}

/** The last move's route: a line through every landing, each landing numbered (R12). @param {Layers} layers @param {Layout} L @param {MoveInfo|null} last */
export function drawRoute(layers, L, last) {
  layers.route.replaceChildren();
  layers.numbers.replaceChildren();
  if (!last) return;
  const r = L.radius;
  if (last.kind === "enter") {
    circle(L, last.path[0], r + 0.09 * S, "last-ring", layers.route, false);
    return;
  }
  const pts = last.path.map(L.point);
  svg("polyline", {points: pointsText(pts), class: "last-path"}, layers.route);
  svg("circle", {cx: num(pts[0].x), cy: num(pts[0].y), r: num(0.13 * S), class: "last-start"}, layers.route);
  if (last.kind !== "capture") return;
  /** @type {Map<string, number[]>} */
  const landings = new Map();
  last.path.slice(1).forEach((name, i) => landings.set(name, [...(landings.get(name) || []), i + 1]));
  for (const [name, ns] of landings) {
    const p = L.point(name);
    const x = p.x - 0.72 * r;
    const y = p.y - 0.72 * r;
    const text = ns.join("·");
    const w = Math.max(0.36 * S, 0.2 * S * text.length + 0.16 * S);
    const g = svg("g", {class: "landing", "data-landing": text, "data-for": name}, layers.numbers);
    svg("rect", {x: num(x - w / 2), y: num(y - 0.18 * S), width: num(w), height: num(0.36 * S), rx: num(0.18 * S)}, g);
    const t = svg("text", {x: num(x), y: num(y + 0.1 * S), "font-size": num(0.28 * S)}, g);
    t.textContent = text;
  }
}

/**
 * One piece (R6), drawn at the origin: a disc in its owner's colour with its cap count, a badge
 * with the prisoners.
 * @param {Layout} L @param {Piece} piece @param {string} name @param {string} label the square's name as shown
 * @returns {SVGElement}
 */
export function pieceElement(L, piece, name, label) {
  const r = L.radius;
  const g = svg("g", {class: `piece ${piece.owner}`, "data-square": name, "data-stack": `${piece.caps}/${piece.prisoners}`});
  const other = piece.owner === "white" ? "black" : "white";
  if (piece.caps + piece.prisoners > 1) svg("circle", {cx: 0, cy: num(0.2 * r), r: num(r), class: `disc rim ${piece.prisoners ? other : piece.owner}`}, g);
  svg("circle", {cx: 0, cy: 0, r: num(r), class: `disc ${piece.owner}`}, g);
  svg("circle", {cx: 0, cy: 0, r: num(0.74 * r), class: "inner"}, g);
  if (piece.caps + piece.prisoners > 1) {
    const size = (piece.caps < 10 ? 1.15 : 0.95) * r;
    const t = svg("text", {x: 0, y: num(0.36 * size), "font-size": num(size), class: `count ${piece.owner}`}, g);
    t.textContent = String(piece.caps);
  }
  if (piece.prisoners) {
    const b = 0.66 * r;
    svg("circle", {cx: num(b), cy: num(b), r: num(0.5 * r), class: `disc badge ${other}`}, g);
    const size = (piece.prisoners < 10 ? 0.66 : 0.56) * r;
    const t = svg("text", {x: num(b), y: num(b + 0.36 * size), "font-size": num(size), class: `count ${other}`}, g);
    t.textContent = String(piece.prisoners);
  }
  const title = svg("title", {}, g);
  title.textContent = `${label}: ${piece.caps} ${piece.owner}${piece.prisoners ? ` over ${piece.prisoners} ${other}` : ""}`;
  return g;
}

/** @param {SVGElement} layer @param {Layout} L @param {BoardState} state @param {Ui} ui @param {(name: string) => string} label */
export function drawPieces(layer, L, state, ui, label) {
  layer.replaceChildren();
  for (const [name, piece] of Object.entries(state.pieces)) {
    const p = L.point(name);
    const g = pieceElement(L, piece, name, label(name));
    g.setAttribute("transform", `translate(${num(p.x)},${num(p.y)})`);
    if (ui.prefix[0] === name) g.classList.add("lifted");
    layer.appendChild(g);
  }
}

/** The route being entered and where it may go next. @param {SVGElement} layer @param {Layout} L @param {Ui} ui */
export function drawInput(layer, L, ui) {
  layer.replaceChildren();
  const r = L.radius;
  const cls = ui.premove ? " premove-dest" : "";
  if (ui.prefix.length > 1) svg("polyline", {points: pointsText(ui.prefix.map(L.point)), class: `partial${ui.premove ? " premove" : ""}`}, layer);
  const capture = candidates(ui.moves, ui.prefix).some((m) => m.kind === "capture");
  for (const name of destinations(ui.moves, ui.prefix)) {
    circle(L, name, capture ? 0.5 * r : 0.28 * r, capture ? `dest landing-dest${cls}` : `dest${cls}`, layer);
  }
}

/**
 * Arrows and circles: the user's, the page's (auto) and the one being drawn.
 * @param {SVGElement} layer @param {Layout} L @param {Shape[]} user @param {Shape[]} auto @param {Shape|null} drawing
 */
export function drawShapes(layer, L, user, auto, drawing) {
  layer.replaceChildren();
  const r = L.radius;
  /** @param {Shape} s @param {string} kind */
  const one = (s, kind) => {
    const squares = shapeSquares(s).filter((name) => L.byName.has(name));
    if (!squares.length) return;
    const cls = `shape ${kind} brush-${s.brush}`;
    if (squares.length === 1) {
      circle(L, squares[0], 0.92 * r, cls, layer).setAttribute("data-shape", squares[0]);
      return;
    }
    const width = (kind === "auto" && s.brush.startsWith("pale") ? 0.16 : 0.22) * S;
    const {shaft, head} = arrow(squares.map(L.point), width);
    const g = svg("g", {class: cls, "data-shape": squares.join(">")}, layer);
    svg("polyline", {points: pointsText(shaft), "stroke-width": num(width)}, g);
    svg("polygon", {points: pointsText(head)}, g);
    if (s.label) {
      const p = L.point(squares[squares.length - 1]);
      const t = svg("text", {x: num(p.x + 0.5 * r), y: num(p.y - 0.5 * r), "font-size": num(0.3 * S), class: "shape-label"}, g);
      t.textContent = s.label;
    }
  };
  for (const s of auto) one(s, "auto");
  for (const s of user) one(s, "user");
  if (drawing) one(drawing, "current");
}
