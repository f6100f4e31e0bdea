// @ts-check
/**
 * board/index.js: the Emergo board component, shaped like chessground. `Board(element, config)`
 * draws a position and returns an API; `set(config)` changes it; the board reports what the
 * player does through `config.events`. It knows no rule: the page gives it the legal moves as
 * routes of squares (`movable.moves`, the server's), the reasons squares cannot be entered, and
 * premove candidates; the board matches clicks against them. docs/board.md is its manual.
 *
 *   import {Board} from "/static/board/index.js";
 *   const board = Board(element, {squares, size, shape, pieces, movable: {moves}, events: {move}});
 *   board.set({pieces, lastMove, movable, animate: true});
 *
 * @typedef {import("./types.js").BoardConfig} BoardConfig
 * @typedef {import("./types.js").BoardApi} BoardApi
 * @typedef {import("./types.js").MoveInfo} MoveInfo
 * @typedef {import("./types.js").Piece} Piece
 * @typedef {import("./types.js").Shape} Shape
 * @typedef {import("./render.js").Ui} Ui
 */
import {layout, num, S} from "./geometry.js";
import {svg} from "./dom.js";
import {defaults, configure} from "./state.js";
import {click as routeClick, advance, destinations, startsMove} from "./routes.js";
import {inputMoves, settle} from "./premove.js";
import {brushOf, toggle} from "./shapes.js";
import {plan, play} from "./anim.js";
import {makeLayers, drawFrame, drawMarks, drawRoute, drawPieces, drawInput, drawShapes, pieceElement} from "./render.js";
import {makeTip} from "./tip.js";
import {bindInput} from "./input.js";

/**
 * Create a board in `element`.
 * @param {HTMLElement} element
 * @param {BoardConfig} config
 * @returns {BoardApi}
 */
export function Board(element, config) {
  const state = defaults();
  /** @type {Ui} */
  const ui = {prefix: [], moves: [], premove: false, cursor: null, showCursor: false, drawing: null};
  let L = layout(state);
  let frameKey = "";
  /** While a move is animated: the position drawn (the one before it). @type {{pieces: Record<string, Piece>, lastMove: MoveInfo|null}|null} */
  let shown = null;
  /** The animation running, if any. @type {ReturnType<typeof play>|null} */
  let running = null;
  let generation = 0;

  element.classList.add("eg-board");
  element.replaceChildren();
  const root = /** @type {SVGSVGElement} */ (svg("svg", {role: "application", tabindex: 0}, element));
  root.setAttribute("aria-roledescription", "board");
  root.setAttribute("aria-label", "Emergo board: arrow keys move the cursor, Enter chooses, Escape cancels");
  const layers = makeLayers(root);
  const tip = makeTip(element);

  /** @param {string} name the square's name in the naming shown */
  const label = (name) => {
    const sq = L.byName.get(name);
    return sq ? (state.names === "checker" ? sq.checker : sq.name) : name;
  };

  function redraw() {
    const key = [state.squares.length && state.squares[0].name, state.squares.length, state.size, state.shape, state.view, state.names, state.flipped, state.coordinates].join();
    if (key !== frameKey) {
      frameKey = key;
      L = layout(state);
      element.dataset.view = L.view;
      element.dataset.flipped = String(state.flipped);
      drawFrame(root, layers, L, state);
    }
    element.classList.toggle("keyboard", ui.showCursor);
    const im = inputMoves(state);
    ui.moves = shown ? [] : im.moves;
    ui.premove = im.premove;
    const view = shown ? {...state, ...shown, movable: null} : state;
    drawMarks(layers.marks, L, view, ui);
    drawRoute(layers, L, view.lastMove);
    drawPieces(layers.pieces, L, view, ui, label);
    drawInput(layers.input, L, ui);
    drawShapes(layers.shapes, L, state.drawable.shapes, state.drawable.autoShapes, ui.drawing);
  }

  /** Why a square cannot be used now, when the page said (R8, R15, R16). @param {string} square */
  function refusal(square) {
    const movable = state.movable;
    if (!movable || ui.premove) return "";
    // a landing of the route being entered, or the next one: part of the move, never refused
    if (ui.prefix.includes(square) || destinations(ui.moves, ui.prefix).includes(square)) return "";
    const reason = (movable.forbidden || {})[square];
    if (reason) return state.names === "checker" ? reason.checker : reason.oblique;
    if (movable.required && state.pieces[square] && !startsMove(movable.moves, square)) return movable.required;
    return "";
  }

  /** @param {string} square @param {boolean} sticky shown after a click (a refusal), not a hover */
  function showTip(square, sticky) {
    const reason = refusal(square);
    const piece = state.pieces[square];
    if (!sticky && !reason && !piece) return tip.hide();
    tip.show(L, square, label(square), piece, reason);
  }

  /** A move chosen: played, or queued as a premove. @param {MoveInfo} move */
  function finish(move) {
    ui.prefix = [];
    if (ui.premove) {
      state.premovable.current = move;
      redraw();
      if (state.events.premove) state.events.premove(move);
      return;
    }
    if (state.events.move) state.events.move(move, {premove: false}); // sent first, then drawn: the round trip starts now
    redraw();
  }

  /** @param {string|null} square */
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

  /** An animation still running ends at once: the player acts on the position after it. */
  function settleAnimation() {
    if (running) running.finish();
  }

  /** What a click (or Enter, or a drop) on a square does. @param {string} square */
  function click(square) {
    if (state.events.square && state.events.square(square)) return; // consumed (an editor)
    settleAnimation();
    if (shown || state.viewOnly) return showTip(square, true);
    if (ui.premove && state.premovable.current && !ui.prefix.length) cancelPremove();
    const action = routeClick(ui.moves, ui.prefix, square, label);
    switch (action.type) {
      case "play":
        return finish(action.move);
      case "route":
        ui.prefix = action.prefix;
        if (action.prefix.length === 1 && state.events.select) state.events.select(square);
        return redraw();
      case "keep":
        if (state.events.refused && !ui.premove) state.events.refused(square, action.note, true); // a hint, not an error
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

  /** The player's turn has come: play the queued premove if it is legal now, else drop it. */
  function playPremove() {
    const current = state.premovable.current;
    if (!current) return false;
    state.premovable.current = null;
    const move = state.movable && !state.viewOnly ? settle(current, state.movable.moves) : null;
    if (move) {
      if (state.events.move) state.events.move(move, {premove: true});
    } else if (state.events.premoveCancel) state.events.premoveCancel(current);
    redraw();
    return !!move;
  }

  /** @param {Shape[]} shapes */
  function setShapes(shapes) {
    state.drawable.shapes = shapes;
    if (state.events.shapes) state.events.shapes(shapes);
    redraw();
  }

  // --- the pointer's helpers for input.js -------------------------------------------------------

  /** @param {number} x @param {number} y */
  function squareAt(x, y) {
    const el = document.elementFromPoint(x, y);
    const hit = el && root.contains(el) ? el.closest("[data-square]") : null;
    return hit ? hit.getAttribute("data-square") : null;
  }

  /** @param {number} x @param {number} y */
  function toPicture(x, y) {
    const m = root.getScreenCTM();
    if (!m) return null;
    const p = root.createSVGPoint();
    p.x = x;
    p.y = y;
    const q = p.matrixTransform(m.inverse());
    return {x: q.x, y: q.y};
  }

  /** @type {SVGElement|null} */
  let ghost = null;
  let hovered = /** @type {string|null} */ (null);

  bindInput(root, {
    squareAt,
    toPicture,
    click,
    pick(square) {
      if (!startsMove(ui.moves, square)) return false;
      if (ui.premove && state.premovable.current) cancelPremove();
      if (!(ui.prefix.length === 1 && ui.prefix[0] === square)) select(square);
      return ui.prefix[0] === square;
    },
    selected: () => (ui.prefix.length ? ui.prefix[0] : null),
    isDest: (square) => destinations(ui.moves, ui.prefix).includes(square),
    settle: settleAnimation,
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
        if (visible || was) redraw(); // a click moves the hidden cursor: nothing to draw (and the move goes first)
      },
      step(dx, dy) {
        const next = ui.cursor ? L.neighbour(ui.cursor, dx, dy) : state.squares[0]?.name || null;
        ui.showCursor = true;
        if (next) {
          ui.cursor = next;
          showTip(next, false);
        }
        redraw();
      },
    },
    drawing: {
      start(square, e) {
        if (!state.drawable.enabled) return false;
        cancelPremove();
        tip.hide();
        ui.drawing = {orig: square, brush: brushOf(e)};
        redraw();
        return true;
      },
      move(square) {
        if (!ui.drawing) return;
        const dest = square && square !== ui.drawing.orig ? square : undefined;
        if (dest === ui.drawing.dest) return;
        ui.drawing = {...ui.drawing, dest};
        drawShapes(layers.shapes, L, state.drawable.shapes, state.drawable.autoShapes, ui.drawing);
      },
      end() {
        const shape = ui.drawing;
        ui.drawing = null;
        if (shape) setShapes(toggle(state.drawable.shapes, shape));
      },
      erase() {
        if (state.drawable.eraseOnClick && state.drawable.shapes.length) setShapes([]);
      },
    },
    ghost: {
      lift(square) {
        const original = layers.pieces.querySelector(`[data-square="${square}"]`);
        if (!original) return;
        ghost = /** @type {SVGElement} */ (original.cloneNode(true));
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
      },
    },
  });

  // --- animation --------------------------------------------------------------------------------

  /** Glide the mover of `move` from the position `before`; then draw the state. @param {Record<string, Piece>} before @param {MoveInfo|null} beforeLast @param {MoveInfo} move */
  function animate(before, beforeLast, move) {
    const mine = generation;
    const piece = before[move.path[0]];
    if (!piece) return redraw();
    shown = {pieces: before, lastMove: beforeLast};
    redraw();
    const g = pieceElement(L, piece, move.path[0], label(move.path[0]));
    g.removeAttribute("data-square");
    g.classList.add("ghost");
    layers.anim.appendChild(g);
    layers.pieces.querySelector(`[data-square="${move.path[0]}"]`)?.classList.add("dragging");
    let flashed = 0;
    const p = plan(move, move.path.map(L.point), state.animation.jump, 0.35 * S);
    const run = play(p, (f) => {
      if (mine !== generation) return;
      g.setAttribute("transform", `translate(${num(f.x)},${num(f.y)})`);
      for (; flashed < f.passed; flashed++) {
        const jumped = L.middle(move.path[flashed], move.path[flashed + 1]);
        if (jumped) layers.pieces.querySelector(`[data-square="${jumped}"]`)?.classList.add("hit");
      }
    });
    running = run;
    // drawn at once when finished, by its last frame or a click (before the click is handled)
    let over = false;
    const ended = () => {
      if (over) return;
      over = true;
      if (running === run) running = null;
      g.remove();
      if (mine !== generation) return;
      shown = null;
      redraw();
    };
    const finish = run.finish;
    run.finish = () => {
      finish();
      ended();
    };
    run.done.then(ended);
  }

  // --- the API ----------------------------------------------------------------------------------

  /** @param {BoardConfig} cfg */
  function set(cfg) {
    generation++;
    running = null;
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
    click,
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
    },
  };
}
