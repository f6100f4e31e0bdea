// @ts-check
/**
 * board/state.js: the board's state and how a config changes it (pure, no DOM). A config is any
 * part of the state (types.js: BoardConfig); the nested parts (premovable, drawable, animation)
 * are merged key by key, everything else replaced, as chessground's `set` does.
 *
 * @typedef {import("./types.js").BoardState} BoardState
 * @typedef {import("./types.js").BoardConfig} BoardConfig
 */
import {noPremove} from "./premove.js";

/** @returns {BoardState} */
export function defaults() {
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
    drawable: {enabled: true, shapes: [], autoShapes: [], eraseOnClick: true},
    viewOnly: false,
    animation: {enabled: true, jump: 220},
    events: {},
  };
}

const NESTED = /** @type {const} */ (["premovable", "drawable", "animation"]);

/**
 * Apply a config to a state (in place); what changed, for the board to redraw and reset.
 * @param {BoardState} state @param {BoardConfig} config
 * @returns {{squares: boolean, position: boolean, frame: boolean}}
 */
export function configure(state, config) {
  const {animate: _animate, ...rest} = config;
  void _animate;
  const changed = {
    squares: !!rest.squares,
    position: "pieces" in rest || "movable" in rest,
    frame: ["squares", "size", "shape", "view", "names", "flipped", "coordinates"].some((k) => k in rest),
  };
  for (const [k, v] of Object.entries(rest)) {
    if (NESTED.includes(/** @type {any} */ (k)) && v && typeof v === "object") {
      Object.assign(/** @type {any} */ (state)[k], v);
    } else {
      /** @type {any} */ (state)[k] = v;
    }
  }
  return changed;
}
