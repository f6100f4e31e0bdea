// @ts-check
/**
 * board/shapes.js: arrows and circles drawn with the right button (as on lichess), and the
 * page's own (an engine's best move). A right click on a square rings it, a right drag from one
 * square to another draws an arrow; drawing the same shape again removes it. The modifier keys
 * choose the colour: none green, Shift red, Alt blue, Shift+Alt yellow.
 *
 * @typedef {import("./types.js").Shape} Shape
 * @typedef {import("./types.js").Brush} Brush
 * @typedef {import("./geometry.js").Point} Point
 */
import {num} from "./geometry.js";

/** @param {{shiftKey: boolean, altKey: boolean, ctrlKey: boolean, metaKey: boolean}} e @returns {Brush} */
export function brushOf(e) {
  const shift = e.shiftKey || e.ctrlKey;
  const alt = e.altKey || e.metaKey;
  return shift && alt ? "yellow" : shift ? "red" : alt ? "blue" : "green";
}

/** @param {Shape} s */
const key = (s) => (s.path ? s.path.join(">") : `${s.orig}>${s.dest || ""}`);

/** Two shapes on the same squares? @param {Shape} a @param {Shape} b */
export const sameSquares = (a, b) => key(a) === key(b);

/**
 * The user's shapes after drawing `shape`: added; the same shape again removes it; the same
 * squares in another colour recolour it.
 * @param {Shape[]} shapes @param {Shape} shape @returns {Shape[]}
 */
export function toggle(shapes, shape) {
  const old = shapes.find((s) => sameSquares(s, shape));
  if (!old) return [...shapes, shape];
  const others = shapes.filter((s) => s !== old);
  return old.brush === shape.brush ? others : [...others, shape];
}

/**
 * An arrow through `points`: a polyline shortened at the head, and the head's triangle.
 * @param {Point[]} points @param {number} width of the shaft @param {number} [startGap] room left at the tail
 * @returns {{shaft: Point[], head: Point[]}}
 */
export function arrow(points, width, startGap = 0) {
  const pts = points.map((p) => ({...p}));
  const n = pts.length;
  const headLength = 2.4 * width;
  const a = pts[n - 2];
  const b = pts[n - 1];
  const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  const ux = (b.x - a.x) / len;
  const uy = (b.y - a.y) / len;
  const tip = {x: b.x - ux * 0.15 * headLength, y: b.y - uy * 0.15 * headLength};
  const base = {x: tip.x - ux * headLength, y: tip.y - uy * headLength};
  const side = {x: -uy * 1.1 * width, y: ux * 1.1 * width};
  pts[n - 1] = base;
  if (startGap) {
    const c = pts[1];
    const l0 = Math.hypot(c.x - pts[0].x, c.y - pts[0].y) || 1;
    pts[0] = {x: pts[0].x + ((c.x - pts[0].x) / l0) * startGap, y: pts[0].y + ((c.y - pts[0].y) / l0) * startGap};
  }
  return {shaft: pts, head: [tip, {x: base.x + side.x, y: base.y + side.y}, {x: base.x - side.x, y: base.y - side.y}]};
}

/** @param {Point[]} pts */
export const pointsText = (pts) => pts.map((p) => `${num(p.x)},${num(p.y)}`).join(" ");

/** The squares a shape goes through. @param {Shape} s */
export const shapeSquares = (s) => (s.path ? s.path : s.dest && s.dest !== s.orig ? [s.orig, s.dest] : [s.orig]);
