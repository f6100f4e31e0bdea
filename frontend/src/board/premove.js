// @ts-check
/**
 * board/premove.js: a move queued while the opponent is to move (pure, no DOM). The page gives
 * the candidates (`premovable.dests`: what the player could do were it his turn); the board lets
 * him enter one as any move and keeps it. When his turn comes the page calls `playPremove()`: the
 * queued route is played if the new legal moves hold it, else dropped (a premove is a wish, the
 * server's moves decide).
 *
 * @typedef {import("./types.js").MoveInfo} MoveInfo
 * @typedef {import("./types.js").Premovable} Premovable
 */
import {sameRoute} from "./routes.js";

/** @returns {Premovable} */
export const noPremove = () => ({enabled: false, dests: [], current: null});

/**
 * The legal move the queued premove stands for now, or null (it is to be dropped).
 * @param {MoveInfo|null} current @param {MoveInfo[]} moves
 */
export function settle(current, moves) {
  return current ? sameRoute(moves, current) : null;
}

/**
 * The squares to tint for the queued premove: its route.
 * @param {MoveInfo|null} current
 */
export const premoveSquares = (current) => (current ? [...new Set(current.path)] : []);

/**
 * May the player enter moves now, and from which list: his own moves when it is his turn,
 * the premove candidates while the opponent is to move, none otherwise.
 * @param {{movable: {moves: MoveInfo[]}|null, premovable: Premovable, viewOnly: boolean}} state
 * @returns {{moves: MoveInfo[], premove: boolean}}
 */
export function inputMoves(state) {
  if (state.viewOnly) return {moves: [], premove: false};
  if (state.movable) return {moves: state.movable.moves, premove: false};
  if (state.premovable.enabled) return {moves: state.premovable.dests, premove: true};
  return {moves: [], premove: false};
}
