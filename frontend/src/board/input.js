// @ts-check
/**
 * board/input.js: what the player does with the board: click-click and drag with the left
 * button (or a finger), arrows and circles with the right one, the keyboard (arrow keys move a
 * cursor, Enter or Space click, Escape cancels). It turns events into calls on the board's core;
 * what a click means is decided in routes.js.
 *
 * @typedef {import("./types.js").Shape} Shape
 * @typedef {{
 *   squareAt: (x: number, y: number) => string|null,
 *   toPicture: (x: number, y: number) => {x: number, y: number}|null,
 *   click: (square: string) => void,
 *   pick: (square: string) => boolean,
 *   selected: () => string|null,
 *   isDest: (square: string) => boolean,
 *   settle: () => void,
 *   hover: (square: string|null) => void,
 *   cancel: () => void,
 *   cursor: {get: () => string|null, set: (square: string|null, shown: boolean) => void, step: (dx: number, dy: number) => void},
 *   drawing: {start: (square: string, e: PointerEvent) => boolean, move: (square: string|null) => void, end: () => void, erase: () => void},
 *   ghost: {lift: (square: string) => void, move: (x: number, y: number) => void, drop: () => void},
 * }} Core
 */

/** @param {SVGSVGElement} root @param {Core} core */
export function bindInput(root, core) {
  /** @type {{square: string, x: number, y: number, moved: boolean, again: boolean}|null} */
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
    root.focus({preventScroll: true});
    pointerFocus = false;
    core.cursor.set(square, false);
    e.preventDefault();
    core.settle(); // a move still animating ends now: the press acts on the position after it
    const again = core.selected() === square;
    if (!core.isDest(square) && core.pick(square)) {
      // a piece that starts a move: selected now, and dragged if the pointer moves
      drag = {square, x: e.clientX, y: e.clientY, moved: false, again};
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
    // a finger has no hover: a tip after a tap would sit over the board
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
    else if (!d.moved && d.again) core.click(d.square); // the selected piece clicked again: let go
  });

  root.addEventListener("pointercancel", () => {
    drag = null;
    drawing = false;
    core.ghost.drop();
  });

  /** @type {Record<string, [number, number]>} */
  const KEYS = {ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0]};
  root.addEventListener("keydown", (e) => {
    if (e.key in KEYS) {
      core.cursor.step(...KEYS[e.key]);
      e.preventDefault();
      e.stopPropagation();
    } else if ((e.key === "Enter" || e.key === " ") && core.cursor.get()) {
      const square = /** @type {string} */ (core.cursor.get());
      core.cursor.set(square, true);
      core.click(square);
      e.preventDefault();
      e.stopPropagation();
    } else if (e.key === "Escape") {
      core.cancel();
    }
  });

  // Focus by the keyboard (Tab) shows the cursor; focus by a click does not: a cursor left on
  // the last clicked square would look like a selection.
  root.addEventListener("focus", () => {
    if (!pointerFocus) core.cursor.set(core.cursor.get(), true);
  });
  root.addEventListener("blur", () => core.cursor.set(core.cursor.get(), false));
}
