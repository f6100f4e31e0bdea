// @ts-check
/**
 * board/geometry.js: where things are in the picture (pure, no DOM). The square boards have two
 * views, the inventor's diamond of oblique lines (R1) and the upright checkerboard (R3), either
 * flipped; the hexagon (R4 hex) has one picture, its cells placed from (u, v) as emergo.svg does.
 */

/** Side of one checkerboard cell in picture units (as emergo.svg). */
export const S = 36;
/** Distance between the centres of two adjacent hex cells (R4 hex), as emergo.svg. */
export const D_HEX = 1.4 * S;

/** @param {number} x a picture coordinate rounded to 0.01 (short SVG texts) */
export const num = (x) => Math.round(x * 100) / 100;

/**
 * @typedef {import("./types.js").SquareInfo} SquareInfo
 * @typedef {{x: number, y: number}} Point
 * @typedef {{
 *   size: number, shape: "diamond"|"hexagon", view: "diamond"|"checker", flipped: boolean,
 *   coordinates: boolean, names: "oblique"|"checker", squares: SquareInfo[],
 * }} LayoutInput
 * @typedef {{p: Point, text: string, small?: boolean}} Label
 */

/**
 * The picture of one board in one view: frame, square centres, cell outlines, coordinates.
 * @param {LayoutInput} input
 */
export function layout(input) {
  const {size: n, flipped} = input;
  const hexagon = input.shape === "hexagon";
  const view = hexagon ? "hexagon" : input.view;
  const byName = new Map(input.squares.map((s) => [s.name, s]));
  const byUV = new Map(input.squares.map((s) => [`${s.u},${s.v}`, s.name]));
  const margin = input.coordinates ? 0.95 * S : 0.3 * S;
  const half = hexagon ? ((n - 1) / 2 + 0.8) * D_HEX : view === "checker" ? (n * S) / 2 : (n * S) / Math.SQRT2;
  const c = half + margin;
  const frame = {width: 2 * c, height: 2 * c, cx: c, cy: c};
  const mid = (n + 1) / 2;

  /** Picture point of checkerboard coordinates (file, rank), reals allowed. @param {number} f @param {number} r @returns {Point} */
  function at(f, r) {
    let df = f - mid;
    let dr = r - mid;
    if (flipped) {
      df = -df;
      dr = -dr;
    }
    if (view === "checker") return {x: c + df * S, y: c - dr * S};
    const k = S / Math.SQRT2;
    return {x: c + (df - dr) * k, y: c - (df + dr) * k};
  }

  /** Picture point of oblique coordinates (u, v) on a square board. @param {number} u @param {number} v */
  const oblique = (u, v) => at(u + v - mid, v - u + mid);

  /** Picture point of hex cell (u, v): rows across, a on top. @param {number} u @param {number} v @returns {Point} */
  function hexPoint(u, v) {
    let du = u - mid;
    let dv = v - mid;
    if (flipped) {
      du = -du;
      dv = -dv;
    }
    return {x: c + (dv - du / 2) * D_HEX, y: c + (du * D_HEX * Math.sqrt(3)) / 2};
  }

  /** @param {Point[]} pts */
  const polygon = (pts) => pts.map((p) => `${num(p.x)},${num(p.y)}`).join(" ");

  /** The outline of a checkerboard cell. @param {number} f @param {number} r */
  const cell = (f, r) => polygon([at(f - 0.5, r - 0.5), at(f + 0.5, r - 0.5), at(f + 0.5, r + 0.5), at(f - 0.5, r + 0.5)]);

  /** @param {string} name @returns {Point} */
  function point(name) {
    const sq = byName.get(name);
    if (!sq) return {x: 0, y: 0};
    return hexagon ? hexPoint(sq.u, sq.v) : at(sq.file, sq.rank);
  }

  /** A square's cell outline: a checkerboard cell or a hexagon. @param {string} name */
  function outline(name) {
    const sq = byName.get(name);
    if (!sq) return "";
    if (!hexagon) return cell(sq.file, sq.rank);
    const p = hexPoint(sq.u, sq.v);
    const r = D_HEX / Math.sqrt(3);
    return polygon([0, 1, 2, 3, 4, 5].map((k) => ((k * 60 + 30) * Math.PI) / 180).map((a) => ({x: p.x + r * Math.cos(a), y: p.y + r * Math.sin(a)})));
  }

  /** The radius of a piece's disc. */
  const radius = hexagon ? 0.43 * D_HEX : view === "diamond" ? 0.54 * S : 0.42 * S;

  /** The square between two squares a jump apart (geometry only). @param {string} a @param {string} b */
  function middle(a, b) {
    const p = byName.get(a);
    const q = byName.get(b);
    if (!p || !q) return null;
    return byUV.get(`${(p.u + q.u) / 2},${(p.v + q.v) / 2}`) || null;
  }

  /** The board's light and dark cells (square boards): every cell of the n x n grid. */
  function cells() {
    /** @type {Map<string, string>} */
    const dark = new Map();
    for (const sq of input.squares) dark.set(`${sq.file},${sq.rank}`, sq.name);
    /** @type {{points: string, square: string|null}[]} */
    const out = [];
    for (let f = 1; f <= n; f++) for (let r = 1; r <= n; r++) out.push({points: cell(f, r), square: dark.get(`${f},${r}`) || null});
    return out;
  }

  /** The outer edge of a square board. */
  const edge = () => polygon([at(0.5, 0.5), at(n + 0.5, 0.5), at(n + 0.5, n + 0.5), at(0.5, n + 0.5)]);

  /** The oblique lines (R1) drawn through the dark squares: in the diamond, or with oblique names. */
  function lines() {
    /** @type {{a: Point, b: Point}[]} */
    const out = [];
    if (hexagon || (view === "checker" && input.names === "checker")) return out;
    for (const family of ["u", "v"]) {
      for (let i = 1; i <= n; i++) {
        const line = input.squares.filter((s) => (family === "u" ? s.u : s.v) === i);
        if (!line.length) continue;
        line.sort((a, b) => (family === "u" ? a.v - b.v : a.u - b.u));
        const first = line[0];
        const last = line[line.length - 1];
        const [du, dv] = family === "u" ? [0, 0.3] : [0.3, 0];
        out.push({a: oblique(first.u - du, first.v - dv), b: oblique(last.u + du, last.v + dv)});
      }
    }
    return out;
  }

  /**
   * The coordinates: letters and digits beside the lines they name. In the checkerboard view
   * with oblique names the lines are diagonals, whose ends do not line up with the edges:
   * there each dark square carries its own name, small, in a corner of its cell.
   * @returns {Label[]}
   */
  function labels() {
    if (!input.coordinates || !input.squares.length) return [];
    /** @type {Label[]} */
    const out = [];
    const letters = "abcdefghi";
    if (hexagon) {
      for (let u = 1; u <= n; u++) {
        const vs = input.squares.filter((s) => s.u === u).map((s) => s.v);
        out.push({p: hexPoint(u, Math.min(...vs) - 0.85), text: letters[u - 1]});
      }
      for (let v = 1; v <= n; v++) {
        const us = input.squares.filter((s) => s.v === v).map((s) => s.u);
        out.push({p: v < mid ? hexPoint(Math.min(...us) - 0.85, v - 0.42) : hexPoint(Math.max(...us) + 0.85, v + 0.42), text: String(v)});
      }
    } else if (input.names === "checker") {
      const edge = flipped ? n + 0.85 : 0.15;
      for (let i = 1; i <= n; i++) {
        out.push({p: at(i, edge), text: letters[i - 1]});
        out.push({p: at(edge, i), text: String(i)});
      }
    } else if (view === "checker") {
      for (const sq of input.squares) {
        const p = at(sq.file - 0.3 * (flipped ? -1 : 1), sq.rank + 0.28 * (flipped ? -1 : 1));
        out.push({p, text: sq.name, small: true});
      }
    } else {
      const m = 0.85;
      for (let u = 1; u <= n; u++) {
        const vs = input.squares.filter((s) => s.u === u).map((s) => s.v);
        if (u <= mid) out.push({p: oblique(u, Math.min(...vs) - m), text: letters[u - 1]});
        if (u >= mid) out.push({p: oblique(u, Math.max(...vs) + m), text: letters[u - 1]});
      }
      for (let v = 1; v <= n; v++) {
        const us = input.squares.filter((s) => s.v === v).map((s) => s.u);
        if (v <= mid) out.push({p: oblique(Math.max(...us) + m, v), text: String(v)});
        if (v >= mid) out.push({p: oblique(Math.min(...us) - m, v), text: String(v)});
      }
    }
    return out;
  }

  /** The square nearest a point of the picture in a screen direction (the keyboard cursor). @param {string} from @param {number} dx @param {number} dy */
  function neighbour(from, dx, dy) {
    const here = point(from);
    let best = null;
    let bestScore = Infinity;
    for (const sq of input.squares) {
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

  return {view, hexagon, frame, radius, byName, point, outline, middle, cells, edge, lines, labels, neighbour};
}

/** @typedef {ReturnType<typeof layout>} Layout */
