// @ts-check
/**
 * board.js: a small chessground-style Emergo board. It draws a position (DOM + SVG, no canvas),
 * takes moves by click-click, drag or keyboard, and reports them through callbacks. It knows no
 * rule: the page tells it the legal moves (as routes of squares) and why squares are forbidden,
 * exactly as the server sent them.
 *
 *   const board = Board(element, {squares, size, pieces, movable: {moves, forbidden}, events})
 *   board.set({pieces, lastMove, animate: true})
 *
 * Views: "diamond" (the inventor's oblique-line board, R1) and "checker" (the upright
 * checkerboard, R3), either flipped. Squares are named by their oblique names everywhere in
 * the API; coordinates and texts are shown in the naming chosen.
 */

const SVG_NS = "http://www.w3.org/2000/svg";
/** Side of one checkerboard cell in picture units (as emergo.svg). */
const S = 36;
/** Distance between the centres of two adjacent hex cells (R4 hex), as emergo.svg. */
const D_HEX = 1.4 * S;

/**
 * @typedef {{name: string, checker: string, u: number, v: number, file: number, rank: number}} SquareInfo
 * @typedef {{owner: "white"|"black", caps: number, prisoners: number}} Piece
 * @typedef {{kind: "enter"|"step"|"capture", path: string[], text: string, checker: string,
 *   captured: number, entered: number}} MoveInfo
 * @typedef {{oblique: string, checker: string}} Reason
 * @typedef {{moves: MoveInfo[], forbidden: Record<string, Reason>, required: string}} Movable
 * @typedef {{
 *   move?: (move: MoveInfo) => void,
 *   select?: (square: string|null) => void,
 *   refused?: (square: string, reason: string) => void,
 *   square?: (square: string) => boolean,
 * }} BoardEvents
 * @typedef {{
 *   view: "diamond"|"checker",
 *   flipped: boolean,
 *   coordinates: boolean,
 *   names: "oblique"|"checker",
 *   size: number,
 *   shape?: string,
 *   squares: SquareInfo[],
 *   pieces: Record<string, Piece>,
 *   lastMove: MoveInfo|null,
 *   movable: Movable|null,
 *   animation: {enabled: boolean, jump: number},
 *   events: BoardEvents,
 * }} BoardState
 * @typedef {Partial<BoardState> & {animate?: boolean}} BoardConfig
 * @typedef {{
 *   set: (config: BoardConfig) => void,
 *   state: BoardState,
 *   select: (square: string|null) => void,
 *   click: (square: string) => void,
 *   point: (square: string) => {x: number, y: number},
 *   redraw: () => void,
 *   destroy: () => void,
 * }} BoardApi
 */

/**
 * @param {string} tag
 * @param {Record<string, string|number>} [attrs]
 * @param {Element} [parent]
 * @returns {SVGElement}
 */
function svg(tag, attrs = {}, parent) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (parent) parent.appendChild(el);
  return el;
}

/**
 * @param {string} tag
 * @param {string} [cls]
 * @param {Element} [parent]
 * @returns {HTMLElement}
 */
function html(tag, cls, parent) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (parent) parent.appendChild(el);
  return el;
}

/** @param {number} x */
const num = (x) => Math.round(x * 100) / 100;

/**
 * Create a board in `element`.
 * @param {HTMLElement} element
 * @param {BoardConfig} config
 * @returns {BoardApi}
 */
export function Board(element, config) {
  /** @type {BoardState} */
  const state = {
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
    animation: {enabled: true, jump: 220},
    events: {},
  };
  /** The route being entered: the start square and the landings chosen so far. */
  /** @type {string[]} */
  let prefix = [];
  /** @type {string|null} */
  let cursor = null;
  /** @type {string|null} */
  let hover = null;
  /** @type {{square: string, x: number, y: number, moved: boolean, ghost: SVGElement|null}|null} */
  let drag = null;
  let animating = 0;
  /** Bumped by every set(): an animation finishing late must not undo a newer position. */
  let generation = 0;
  /** @type {Map<string, SquareInfo>} */
  let byName = new Map();
  /** @type {Map<string, string>} */
  let byUV = new Map();

  element.classList.add("eg-board");
  element.replaceChildren();
  const root = /** @type {SVGSVGElement} */ (svg("svg", {role: "application", tabindex: 0}, element));
  root.setAttribute("aria-roledescription", "board");
  root.setAttribute("aria-label", "Emergo board: arrow keys move the cursor, Enter chooses, Escape cancels");
  const layers = {
    cells: svg("g", {class: "cells"}, root),
    lines: svg("g", {class: "lines"}, root),
    coords: svg("g", {class: "coords"}, root),
    marks: svg("g", {class: "marks"}, root),
    route: svg("g", {class: "route"}, root),
    pieces: svg("g", {class: "pieces"}, root),
    numbers: svg("g", {class: "numbers"}, root),
    input: svg("g", {class: "input"}, root),
    anim: svg("g", {class: "anim"}, root),
  };
  // Only squares, pieces and marks take the pointer; lines, labels and routes let it through.
  for (const layer of [layers.lines, layers.coords, layers.route, layers.numbers, layers.input, layers.anim]) {
    layer.setAttribute("pointer-events", "none");
  }
  const tip = html("div", "eg-tip", element);
  tip.hidden = true;
  tip.setAttribute("role", "status");

  // --- geometry ------------------------------------------------------------------------------

  function frame() {
    const n = state.size;
    const margin = state.coordinates ? 0.95 * S : 0.3 * S;
    const half = hexagon() ? ((n - 1) / 2 + 0.8) * D_HEX : state.view === "checker" ? (n * S) / 2 : (n * S) / Math.SQRT2;
    const c = half + margin;
    return {n, margin, half, cx: c, cy: c, width: 2 * c, height: 2 * c};
  }

  /**
   * Picture point of checkerboard coordinates (file, rank), reals allowed.
   * @param {number} f
   * @param {number} r
   */
  function at(f, r) {
    const fr = frame();
    const c = (fr.n + 1) / 2;
    let df = f - c;
    let dr = r - c;
    if (state.flipped) {
      df = -df;
      dr = -dr;
    }
    if (state.view === "checker") return {x: fr.cx + df * S, y: fr.cy - dr * S};
    const k = S / Math.SQRT2;
    return {x: fr.cx + (df - dr) * k, y: fr.cy - (df + dr) * k};
  }

  /** @param {number} u @param {number} v */
  function oblique(u, v) {
    const c = (state.size + 1) / 2;
    return at(u + v - c, v - u + c);
  }

  /** Is this the hexagon (R4 hex): cells placed by (u, v), no checkerboard, no views? */
  function hexagon() {
    return state.shape === "hexagon";
  }

  /**
   * Picture point of hex cell (u, v), as emergo.svg: rows across, a on top, (u+1, v)
   * down-left and (u+1, v+1) down-right of (u, v).
   * @param {number} u
   * @param {number} v
   */
  function hexPoint(u, v) {
    const fr = frame();
    const c = (fr.n + 1) / 2;
    let du = u - c;
    let dv = v - c;
    if (state.flipped) {
      du = -du;
      dv = -dv;
    }
    return {x: fr.cx + (dv - du / 2) * D_HEX, y: fr.cy + (du * D_HEX * Math.sqrt(3)) / 2};
  }

  /** The outline of a square's cell: a checkerboard cell or a hexagon. @param {SquareInfo} sq */
  function outline(sq) {
    if (!hexagon()) return cell(sq.file, sq.rank);
    const p = hexPoint(sq.u, sq.v);
    const r = D_HEX / Math.sqrt(3);
    const corners = [0, 1, 2, 3, 4, 5].map((k) => ((k * 60 + 30) * Math.PI) / 180);
    return corners.map((a) => `${num(p.x + r * Math.cos(a))},${num(p.y + r * Math.sin(a))}`).join(" ");
  }

  /** @param {string} name */
  function point(name) {
    const sq = byName.get(name);
    if (!sq) return {x: 0, y: 0};
    return hexagon() ? hexPoint(sq.u, sq.v) : at(sq.file, sq.rank);
  }

  /** @param {number} f @param {number} r */
  function cell(f, r) {
    return [
      at(f - 0.5, r - 0.5),
      at(f + 0.5, r - 0.5),
      at(f + 0.5, r + 0.5),
      at(f - 0.5, r + 0.5),
    ]
      .map((p) => `${num(p.x)},${num(p.y)}`)
      .join(" ");
  }

  function radius() {
    if (hexagon()) return 0.43 * D_HEX;
    return state.view === "diamond" ? 0.54 * S : 0.42 * S;
  }

  /** @param {string} name */
  function label(name) {
    const sq = byName.get(name);
    return sq ? (state.names === "checker" ? sq.checker : sq.name) : name;
  }

  // --- input ---------------------------------------------------------------------------------

  /** Legal moves whose route begins with the prefix. */
  function candidates() {
    const moves = state.movable ? state.movable.moves : [];
    return moves.filter((m) => m.kind !== "enter" && prefix.every((s, i) => m.path[i] === s));
  }

  /** Squares the next click may land on. */
  function destinations() {
    if (!prefix.length) return [];
    return [...new Set(candidates().map((m) => m.path[prefix.length]).filter(Boolean))];
  }

  /** @param {string} square */
  function startsMove(square) {
    const moves = state.movable ? state.movable.moves : [];
    return moves.some((m) => m.kind !== "enter" && m.path[0] === square);
  }

  /** Follow landings every remaining route shares; play the move when one route is left. */
  function advance() {
    for (;;) {
      const cands = candidates();
      if (cands.length === 1 && prefix.length > 1) {
        finish(cands[0]);
        return;
      }
      const next = destinations();
      if (next.length !== 1 || cands.some((m) => m.path.length <= prefix.length + 1)) break;
      if (cands.length < 2) break;
      prefix = [...prefix, next[0]];
    }
    redraw();
  }

  /** @param {MoveInfo} move */
  function finish(move) {
    prefix = [];
    if (state.events.move) state.events.move(move); // sent first, then drawn: the round trip starts now
    redraw();
  }

  /** @param {string|null} square */
  function select(square) {
    prefix = square ? [square] : [];
    if (state.events.select) state.events.select(square);
    if (square) advance();
    else redraw();
  }

  /**
   * What a click (or Enter, or a drop) on a square does.
   * @param {string} square
   */
  function click(square) {
    if (state.events.square && state.events.square(square)) return; // consumed (an editor)
    const movable = state.movable;
    cursor = square;
    if (!movable || animating) {
      showTip(square, true);
      redraw();
      return;
    }
    const entry = movable.moves.find((m) => m.kind === "enter" && m.path[0] === square);
    if (entry) {
      finish(entry);
      return;
    }
    if (prefix.length) {
      const next = candidates().filter((m) => m.path[prefix.length] === square);
      if (next.length) {
        prefix = [...prefix, square];
        advance();
        return;
      }
      if (prefix.length === 1 && square === prefix[0]) {
        select(null);
        return;
      }
      // A drop (or click) further along a route: take it when only one way leads there.
      const later = candidates().filter((m) => m.path.indexOf(square, prefix.length) > 0);
      const ways = new Set(later.map((m) => m.path.slice(0, m.path.indexOf(square, prefix.length) + 1).join()));
      if (ways.size === 1) {
        prefix = later[0].path.slice(0, later[0].path.indexOf(square, prefix.length) + 1);
        advance();
        return;
      }
      if (ways.size > 1) {
        if (state.events.refused) state.events.refused(square, `several routes reach ${label(square)}: choose the landings one by one`);
        return;
      }
    }
    if (startsMove(square)) {
      select(square);
      return;
    }
    const reason = refusal(square);
    select(null);
    if (reason) {
      showTip(square, true);
      if (state.events.refused) state.events.refused(square, reason);
    } else {
      showTip(square, true);
    }
  }

  /** Why a square cannot be used now, when the page was told (R8, R15, R16). @param {string} square */
  function refusal(square) {
    const movable = state.movable;
    if (!movable) return "";
    const reason = movable.forbidden[square];
    if (reason) return state.names === "checker" ? reason.checker : reason.oblique;
    if (movable.required && state.pieces[square]) return movable.required;
    return "";
  }

  /**
   * @param {PointerEvent} e
   * @returns {string|null}
   */
  function squareAt(e) {
    const el = document.elementFromPoint(e.clientX, e.clientY);
    const hit = el ? el.closest("[data-square]") : null;
    return hit ? hit.getAttribute("data-square") : null;
  }

  root.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    const square = squareAt(e);
    if (!square) return;
    root.focus({preventScroll: true});
    const isDest = destinations().includes(square);
    if (!isDest && startsMove(square) && !animating) {
      if (!(prefix.length === 1 && prefix[0] === square)) select(square);
      drag = {square, x: e.clientX, y: e.clientY, moved: false, ghost: null};
      root.setPointerCapture(e.pointerId);
      e.preventDefault();
      return;
    }
    e.preventDefault();
    click(square);
  });

  root.addEventListener("pointermove", (e) => {
    if (drag) {
      if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) > 5) {
        drag.moved = true;
        const original = layers.pieces.querySelector(`[data-square="${drag.square}"]`);
        if (original) {
          drag.ghost = /** @type {SVGElement} */ (original.cloneNode(true));
          drag.ghost.removeAttribute("data-square");
          drag.ghost.classList.add("ghost");
          layers.anim.appendChild(drag.ghost);
          original.classList.add("dragging");
        }
      }
      if (drag.ghost) {
        const p = root.createSVGPoint();
        p.x = e.clientX;
        p.y = e.clientY;
        const m = root.getScreenCTM();
        if (m) {
          const q = p.matrixTransform(m.inverse());
          drag.ghost.setAttribute("transform", `translate(${num(q.x)},${num(q.y)})`);
        }
      }
      return;
    }
    const square = squareAt(e);
    if (square !== hover) {
      hover = square;
      if (square) showTip(square, false);
      else hideTip();
    }
  });

  root.addEventListener("pointerleave", () => {
    if (!drag) {
      hover = null;
      hideTip();
    }
  });

  /** @param {PointerEvent} e */
  function endDrag(e) {
    if (!drag) return;
    const d = drag;
    drag = null;
    layers.anim.replaceChildren();
    const target = d.moved ? squareAt(e) : null;
    if (target && target !== d.square) click(target);
    else redraw();
  }
  root.addEventListener("pointerup", endDrag);
  root.addEventListener("pointercancel", () => {
    drag = null;
    layers.anim.replaceChildren();
    redraw();
  });

  root.addEventListener("keydown", (e) => {
    const keys = {ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0]};
    if (e.key in keys) {
      const [dx, dy] = keys[/** @type {keyof typeof keys} */ (e.key)];
      moveCursor(dx, dy);
      e.preventDefault();
      e.stopPropagation();
    } else if ((e.key === "Enter" || e.key === " ") && cursor) {
      click(cursor);
      e.preventDefault();
      e.stopPropagation();
    } else if (e.key === "Escape") {
      select(null);
      hideTip();
    }
  });

  root.addEventListener("focus", () => {
    if (!cursor && state.squares.length) {
      cursor = prefix[0] || state.movable?.moves[0]?.path[0] || state.squares[0].name;
      redraw();
    }
  });

  /** Move the keyboard cursor to the nearest square in a screen direction. @param {number} dx @param {number} dy */
  function moveCursor(dx, dy) {
    if (!cursor) {
      cursor = state.squares[0]?.name || null;
      redraw();
      return;
    }
    const here = point(cursor);
    let best = null;
    let bestScore = Infinity;
    for (const sq of state.squares) {
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
    if (best) {
      cursor = best;
      showTip(best, false);
      redraw();
    }
  }

  // --- the tip: why a square is forbidden, or a piece's whole column --------------------------

  /**
   * @param {string} square
   * @param {boolean} sticky
   */
  function showTip(square, sticky) {
    tip.replaceChildren();
    const piece = state.pieces[square];
    const reason = refusal(square);
    if (!piece && !reason) {
      hideTip();
      return;
    }
    const title = html("div", "eg-tip-title", tip);
    title.textContent = label(square);
    if (piece) {
      const other = piece.owner === "white" ? "black" : "white";
      const name = (/** @type {string} */ c) => c[0].toUpperCase() + c.slice(1);
      const text = html("div", "eg-tip-stack", tip);
      text.textContent =
        `${piece.caps} ${name(piece.owner)}` +
        (piece.prisoners ? ` over ${piece.prisoners} ${name(other)}` : "") +
        ` (bottom to top)`;
      const column = html("div", "eg-column", tip);
      column.setAttribute("aria-hidden", "true");
      for (let i = 0; i < piece.prisoners; i++) html("span", `man ${other}`, column);
      for (let i = 0; i < piece.caps; i++) html("span", `man ${piece.owner}`, column);
    }
    if (reason && !(piece && !sticky && state.movable?.required && startsMove(square))) {
      const why = html("div", "eg-tip-reason", tip);
      why.textContent = reason;
    }
    const p = point(square);
    const fr = frame();
    tip.style.left = `${(100 * p.x) / fr.width}%`;
    tip.style.top = `${(100 * (p.y + radius())) / fr.height}%`;
    tip.dataset.square = square;
    tip.classList.toggle("below", p.y < fr.height * 0.6);
    tip.classList.toggle("above", p.y >= fr.height * 0.6);
    tip.hidden = false;
  }

  function hideTip() {
    tip.hidden = true;
    delete tip.dataset.square;
  }

  // --- drawing -------------------------------------------------------------------------------

  /** What the cells, lines and coordinates were drawn for: a move redraws only what it changes. */
  let drawnFrame = "";
  let squaresSet = 0;

  function redraw() {
    const fr = frame();
    const key = [squaresSet, state.size, state.shape, state.view, state.names, state.flipped, state.coordinates].join();
    if (key !== drawnFrame) {
      drawnFrame = key;
      root.setAttribute("viewBox", `0 0 ${num(fr.width)} ${num(fr.height)}`);
      element.dataset.view = hexagon() ? "hexagon" : state.view;
      element.dataset.flipped = String(state.flipped);
      drawCells();
      drawCoordinates();
    }
    drawMarks();
    drawRoute();
    drawPieces();
    drawInput();
  }

  function drawCells() {
    const n = state.size;
    layers.cells.replaceChildren();
    if (hexagon()) {
      layers.lines.replaceChildren();
      for (const sq of state.squares) {
        // three colours, so that adjacent cells always differ (as emergo.svg)
        const poly = svg("polygon", {points: outline(sq), class: `cell hex hex${(sq.u + sq.v) % 3}`}, layers.cells);
        poly.setAttribute("data-square", sq.name);
      }
      return;
    }
    /** @type {Map<string, string>} */
    const dark = new Map();
    for (const sq of state.squares) dark.set(`${sq.file},${sq.rank}`, sq.name);
    for (let f = 1; f <= n; f++) {
      for (let r = 1; r <= n; r++) {
        const name = dark.get(`${f},${r}`);
        const poly = svg("polygon", {points: cell(f, r), class: name ? "cell dark" : "cell light"}, layers.cells);
        if (name) poly.setAttribute("data-square", name);
      }
    }
    const corners = [at(0.5, 0.5), at(n + 0.5, 0.5), at(n + 0.5, n + 0.5), at(0.5, n + 0.5)];
    svg("polygon", {points: corners.map((p) => `${num(p.x)},${num(p.y)}`).join(" "), class: "edge"}, layers.cells);
    layers.lines.replaceChildren();
    if (state.view === "diamond" || state.names === "oblique") {
      for (const family of ["u", "v"]) {
        for (let i = 1; i <= n; i++) {
          const line = state.squares.filter((s) => (family === "u" ? s.u : s.v) === i);
          if (line.length < 1) continue;
          line.sort((a, b) => (family === "u" ? a.v - b.v : a.u - b.u));
          const a = line[0];
          const b = line[line.length - 1];
          const [du, dv] = family === "u" ? [0, 0.3] : [0.3, 0];
          const p = oblique(a.u - du, a.v - dv);
          const q = oblique(b.u + du, b.v + dv);
          svg("line", {x1: num(p.x), y1: num(p.y), x2: num(q.x), y2: num(q.y)}, layers.lines);
        }
      }
    }
  }

  function drawCoordinates() {
    layers.coords.replaceChildren();
    if (!state.coordinates || !state.squares.length) return;
    const n = state.size;
    const c = (n + 1) / 2;
    /** @type {{p: {x: number, y: number}, text: string}[]} */
    const labels = [];
    const letters = "abcdefghi";
    if (hexagon()) {
      for (let u = 1; u <= n; u++) {
        const vs = state.squares.filter((s) => s.u === u).map((s) => s.v);
        labels.push({p: hexPoint(u, Math.min(...vs) - 0.85), text: letters[u - 1]});
      }
      for (let v = 1; v <= n; v++) {
        const us = state.squares.filter((s) => s.v === v).map((s) => s.u);
        const c = (n + 1) / 2;
        const p = v < c ? hexPoint(Math.min(...us) - 0.85, v - 0.42) : hexPoint(Math.max(...us) + 0.85, v + 0.42);
        labels.push({p, text: String(v)});
      }
    } else if (state.names === "checker") {
      const edge = state.flipped ? n + 0.85 : 0.15;
      for (let i = 1; i <= n; i++) {
        labels.push({p: at(i, edge), text: letters[i - 1]});
        labels.push({p: at(edge, i), text: String(i)});
      }
    } else {
      const m = 0.85;
      for (let u = 1; u <= n; u++) {
        const vs = state.squares.filter((s) => s.u === u).map((s) => s.v);
        if (u <= c) labels.push({p: oblique(u, Math.min(...vs) - m), text: letters[u - 1]});
        if (u >= c) labels.push({p: oblique(u, Math.max(...vs) + m), text: letters[u - 1]});
      }
      for (let v = 1; v <= n; v++) {
        const us = state.squares.filter((s) => s.v === v).map((s) => s.u);
        if (v <= c) labels.push({p: oblique(Math.max(...us) + m, v), text: String(v)});
        if (v >= c) labels.push({p: oblique(Math.min(...us) - m, v), text: String(v)});
      }
    }
    for (const {p, text} of labels) {
      const t = svg("text", {x: num(p.x), y: num(p.y + 0.36 * 0.38 * S), "font-size": num(0.38 * S)}, layers.coords);
      t.textContent = text;
    }
  }

  /** @param {string} name @param {string} cls @param {Element} parent */
  function tint(name, cls, parent) {
    const sq = byName.get(name);
    if (sq) svg("polygon", {points: outline(sq), class: cls}, parent);
  }

  function drawMarks() {
    layers.marks.replaceChildren();
    const last = state.lastMove;
    if (last) for (const name of new Set(last.path)) tint(name, "last", layers.marks);
    if (prefix.length) tint(prefix[0], "selected", layers.marks);
    if (cursor && document.activeElement === root) tint(cursor, "cursor", layers.marks);
    const movable = state.movable;
    if (!movable) return;
    const r = radius();
    // Legal entries get a dot; vacant squares that may not be entered a small cross (R15, R16).
    for (const m of movable.moves) {
      if (m.kind !== "enter") continue;
      const p = point(m.path[0]);
      svg("circle", {cx: num(p.x), cy: num(p.y), r: num(0.22 * r), class: "dest entry", "data-square": m.path[0]}, layers.marks);
    }
    for (const name of Object.keys(movable.forbidden)) {
      if (!movable.moves.some((m) => m.kind === "enter")) break;
      const p = point(name);
      const d = 0.16 * r;
      const g = svg("g", {class: "forbidden", "data-square": name}, layers.marks);
      svg("path", {d: `M${num(p.x - d)},${num(p.y - d)}L${num(p.x + d)},${num(p.y + d)}M${num(p.x - d)},${num(p.y + d)}L${num(p.x + d)},${num(p.y - d)}`}, g);
    }
    // Pieces that may move now (in a capture, only the capturing pieces: R8).
    if (!prefix.length) {
      for (const name of new Set(movable.moves.filter((m) => m.kind !== "enter").map((m) => m.path[0]))) {
        const p = point(name);
        svg("circle", {cx: num(p.x), cy: num(p.y), r: num(r + 0.06 * S), class: movable.required ? "movable capture" : "movable", "data-square": name}, layers.marks);
      }
    }
  }

  /** The last move's route: a line through every landing, each landing numbered (R12). */
  function drawRoute() {
    layers.route.replaceChildren();
    layers.numbers.replaceChildren();
    const last = state.lastMove;
    if (!last) return;
    const r = radius();
    if (last.kind === "enter") {
      const p = point(last.path[0]);
      svg("circle", {cx: num(p.x), cy: num(p.y), r: num(r + 0.09 * S), class: "last-ring"}, layers.route);
      return;
    }
    const pts = last.path.map(point);
    svg("polyline", {points: pts.map((p) => `${num(p.x)},${num(p.y)}`).join(" "), class: "last-path"}, layers.route);
    svg("circle", {cx: num(pts[0].x), cy: num(pts[0].y), r: num(0.13 * S), class: "last-start"}, layers.route);
    if (last.kind !== "capture") return;
    /** @type {Map<string, number[]>} */
    const landings = new Map();
    last.path.slice(1).forEach((name, i) => landings.set(name, [...(landings.get(name) || []), i + 1]));
    for (const [name, ns] of landings) {
      const p = point(name);
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
   * One piece (R6): a disc in its owner's colour with its cap count, a badge with the prisoners.
   * @param {Piece} piece
   * @param {string} name
   * @returns {SVGElement}
   */
  function pieceElement(piece, name) {
    const r = radius();
    const g = svg("g", {class: `piece ${piece.owner}`, "data-square": name, "data-stack": `${piece.caps}/${piece.prisoners}`});
    const other = piece.owner === "white" ? "black" : "white";
    if (piece.caps + piece.prisoners > 1) {
      svg("circle", {cx: 0, cy: num(0.2 * r), r: num(r), class: `disc rim ${piece.prisoners ? other : piece.owner}`}, g);
    }
    svg("circle", {cx: 0, cy: 0, r: num(r), class: `disc ${piece.owner}`}, g);
    svg("circle", {cx: 0, cy: 0, r: num(0.74 * r), class: "inner"}, g);
    if (piece.caps + piece.prisoners > 1) {
      const size = (piece.caps < 10 ? 1.15 : 0.95) * r;
      const t = svg("text", {x: 0, y: num(0.36 * size), "font-size": num(size), class: `count ${piece.owner}`}, g);
      t.textContent = String(piece.caps);
    }
    if (piece.prisoners) {
      const bx = 0.66 * r;
      const by = 0.66 * r;
      const br = 0.5 * r;
      svg("circle", {cx: num(bx), cy: num(by), r: num(br), class: `disc badge ${other}`}, g);
      const size = (piece.prisoners < 10 ? 0.66 : 0.56) * r;
      const t = svg("text", {x: num(bx), y: num(by + 0.36 * size), "font-size": num(size), class: `count ${other}`}, g);
      t.textContent = String(piece.prisoners);
    }
    const title = svg("title", {}, g);
    title.textContent = `${label(name)}: ${piece.caps} ${piece.owner}${piece.prisoners ? ` over ${piece.prisoners} ${other}` : ""}`;
    return g;
  }

  function drawPieces() {
    layers.pieces.replaceChildren();
    for (const [name, piece] of Object.entries(state.pieces)) {
      const p = point(name);
      const g = pieceElement(piece, name);
      g.setAttribute("transform", `translate(${num(p.x)},${num(p.y)})`);
      if (prefix[0] === name) g.classList.add("lifted");
      layers.pieces.appendChild(g);
    }
  }

  /** The route being entered and where it may go next. */
  function drawInput() {
    layers.input.replaceChildren();
    const r = radius();
    if (prefix.length > 1) {
      const pts = prefix.map(point);
      svg("polyline", {points: pts.map((p) => `${num(p.x)},${num(p.y)}`).join(" "), class: "partial"}, layers.input);
    }
    const capture = candidates().some((m) => m.kind === "capture");
    for (const name of destinations()) {
      const p = point(name);
      const cls = capture ? "dest landing-dest" : "dest";
      svg("circle", {cx: num(p.x), cy: num(p.y), r: num(capture ? 0.5 * r : 0.28 * r), class: cls, "data-square": name}, layers.input);
    }
  }

  // --- animation: the mover glides jump by jump, each jumped piece flashes ----------------------

  /**
   * @param {Record<string, Piece>} before
   * @param {MoveInfo} move
   * @returns {Promise<void>}
   */
  function animate(before, move) {
    const from = move.path[0];
    const piece = before[from];
    if (!piece || move.kind === "enter") return Promise.resolve();
    animating++;
    const ghost = pieceElement(piece, from);
    ghost.removeAttribute("data-square");
    ghost.classList.add("ghost");
    layers.anim.appendChild(ghost);
    const original = layers.pieces.querySelector(`[data-square="${from}"]`);
    if (original) original.classList.add("dragging");
    const pts = move.path.map(point);
    const jump = state.animation.jump;
    const start = performance.now();
    return new Promise((resolve) => {
      let flashed = 0;
      /** @param {number} now */
      function frameStep(now) {
        const t = Math.max(0, now - start) / jump; // a frame's time may precede the start
        const i = Math.min(Math.floor(t), pts.length - 1);
        if (i >= pts.length - 1) {
          animating--;
          ghost.remove();
          resolve();
          return;
        }
        const f = t - i;
        const e = f < 0.5 ? 2 * f * f : 1 - 2 * (1 - f) * (1 - f);
        const a = pts[i];
        const b = pts[i + 1];
        const lift = move.kind === "capture" ? Math.sin(Math.PI * f) * 0.35 * S : 0;
        ghost.setAttribute("transform", `translate(${num(a.x + (b.x - a.x) * e)},${num(a.y + (b.y - a.y) * e - lift)})`);
        if (move.kind === "capture" && f > 0.5 && flashed <= i) {
          flashed = i + 1;
          const jumped = middle(move.path[i], move.path[i + 1]);
          const el = jumped && layers.pieces.querySelector(`[data-square="${jumped}"]`);
          if (el) el.classList.add("hit");
        }
        requestAnimationFrame(frameStep);
      }
      requestAnimationFrame(frameStep);
    });
  }

  /** The square between two squares a jump apart (geometry only). @param {string} a @param {string} b */
  function middle(a, b) {
    const p = byName.get(a);
    const q = byName.get(b);
    if (!p || !q) return null;
    return byUV.get(`${(p.u + q.u) / 2},${(p.v + q.v) / 2}`) || null;
  }

  // --- API -----------------------------------------------------------------------------------

  /** @param {BoardConfig} cfg */
  function set(cfg) {
    generation++;
    const mine = generation;
    const before = state.pieces;
    const animateMove = cfg.animate && state.animation.enabled && cfg.lastMove && cfg.pieces;
    const {animate: _unused, ...rest} = cfg;
    void _unused;
    if (rest.squares) {
      squaresSet++;
      byName = new Map(rest.squares.map((s) => [s.name, s]));
      byUV = new Map(rest.squares.map((s) => [`${s.u},${s.v}`, s.name]));
    }
    if ("pieces" in rest || "movable" in rest) prefix = [];
    if (animateMove && cfg.lastMove) {
      const move = cfg.lastMove;
      Object.assign(state, rest, {pieces: before, lastMove: state.lastMove, movable: null});
      redraw();
      animate(before, move).then(() => {
        if (mine !== generation) return;
        Object.assign(state, rest);
        redraw();
      });
      return;
    }
    Object.assign(state, rest);
    if (tip.dataset.square && !tip.hidden) hideTip();
    redraw();
  }

  set(config);

  return {
    set,
    state,
    select,
    click,
    point,
    redraw,
    destroy() {
      element.replaceChildren();
    },
  };
}
