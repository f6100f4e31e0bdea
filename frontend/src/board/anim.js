// @ts-check
/**
 * board/anim.js: a move's animation, jump by jump: the mover glides from landing to landing
 * (lifted over each jumped piece in a capture) and each jumped piece flashes as it is passed.
 * `plan` is pure (where the mover is at a time); `play` runs it on animation frames.
 *
 * @typedef {import("./types.js").MoveInfo} MoveInfo
 * @typedef {import("./geometry.js").Point} Point
 * @typedef {{x: number, y: number, leg: number, passed: number}} Frame
 *   where the mover is drawn, the leg of the route it is on, and how many jumped pieces it has
 *   passed (the middle of a leg)
 */

/** Ease in and out. @param {number} f */
export const ease = (f) => (f < 0.5 ? 2 * f * f : 1 - 2 * (1 - f) * (1 - f));

/**
 * The animation of a move through `points` (its route's picture points), `jump` ms a leg.
 * @param {MoveInfo} move @param {Point[]} points @param {number} jump @param {number} lift height of a jump
 */
export function plan(move, points, jump, lift) {
  const legs = Math.max(0, points.length - 1);
  const capture = move.kind === "capture";
  return {
    duration: legs * jump,
    /** @param {number} ms time since the start @returns {Frame} */
    at(ms) {
      const t = Math.max(0, ms) / jump;
      const leg = Math.min(Math.floor(t), legs - 1);
      if (legs === 0 || t >= legs) {
        const end = points[points.length - 1] || {x: 0, y: 0};
        return {x: end.x, y: end.y, leg: legs, passed: capture ? legs : 0};
      }
      const f = t - leg;
      const e = ease(f);
      const a = points[leg];
      const b = points[leg + 1];
      const up = capture ? Math.sin(Math.PI * f) * lift : 0;
      return {x: a.x + (b.x - a.x) * e, y: a.y + (b.y - a.y) * e - up, leg, passed: capture ? leg + (f > 0.5 ? 1 : 0) : 0};
    },
  };
}

/**
 * Run a plan: `draw(frame)` on every animation frame until its end. `finish()` ends it at once:
 * the last frame drawn now and `done` resolved (a click during an animation is a move on the
 * position after it, never a click lost).
 * @param {ReturnType<typeof plan>} p @param {(frame: Frame) => void} draw
 * @returns {{done: Promise<void>, finish: () => void, running: () => boolean}}
 */
export function play(p, draw) {
  const start = performance.now();
  let over = false;
  /** @type {() => void} */
  let resolve = () => {};
  const done = new Promise((r) => {
    resolve = () => r(undefined);
  });
  const end = () => {
    if (over) return;
    over = true;
    draw(p.at(p.duration));
    resolve();
  };
  /** @param {number} now */
  function step(now) {
    if (over) return;
    const ms = now - start; // a frame's time may precede the start: plan.at clamps it
    if (ms >= p.duration) return end();
    draw(p.at(ms));
    requestAnimationFrame(step);
  }
  requestAnimationFrame(step);
  return {done, finish: end, running: () => !over};
}
