// @ts-check
/**
 * board/routes.js: choosing a move on the board from the routes the page allows (pure, no DOM).
 * A move is a route of squares (R12); the player clicks its start, then landings. Landings that
 * every remaining route shares are taken at once, the move is made as soon as one route is left,
 * and tied routes (R11) are chosen landing by landing. The board knows no rule: `moves` are the
 * server's legal moves (or the page's premove candidates), matched square by square.
 *
 * @typedef {import("./types.js").MoveInfo} MoveInfo
 * @typedef {{type: "play", move: MoveInfo}
 *   | {type: "route", prefix: string[]}
 *   | {type: "keep", note: string}
 *   | {type: "cancel"}
 *   | {type: "ambiguous", square: string}
 *   | {type: "none"}} Action
 *   what a click means: play a move, a (longer or new) route being entered, nothing changes
 *   (with a word why), the selection dropped, several routes reach the square, nothing to do
 */

/** Moves that start by a piece (steps and captures), whose route begins with `prefix`. @param {MoveInfo[]} moves @param {string[]} prefix */
export function candidates(moves, prefix) {
  return moves.filter((m) => m.kind !== "enter" && prefix.every((s, i) => m.path[i] === s));
}

/** The squares the next landing may be. @param {MoveInfo[]} moves @param {string[]} prefix */
export function destinations(moves, prefix) {
  if (!prefix.length) return [];
  return [...new Set(candidates(moves, prefix).map((m) => m.path[prefix.length]).filter(Boolean))];
}

/** Does a piece on `square` start a move? @param {MoveInfo[]} moves @param {string} square */
export const startsMove = (moves, square) => moves.some((m) => m.kind !== "enter" && m.path[0] === square);

/** The entry on `square`, if one is allowed. @param {MoveInfo[]} moves @param {string} square */
export const entryAt = (moves, square) => moves.find((m) => m.kind === "enter" && m.path[0] === square) || null;

/**
 * Follow the landings every remaining route shares; the move when one route is left.
 * @param {MoveInfo[]} moves @param {string[]} prefix
 * @returns {Action}
 */
export function advance(moves, prefix) {
  for (;;) {
    const cands = candidates(moves, prefix);
    if (cands.length === 1 && prefix.length > 1) return {type: "play", move: cands[0]};
    const next = destinations(moves, prefix);
    if (next.length !== 1 || cands.length < 2 || cands.some((m) => m.path.length <= prefix.length + 1)) break;
    prefix = [...prefix, next[0]];
  }
  return {type: "route", prefix};
}

/**
 * What a click (or Enter, or a drop) on `square` does while `prefix` is entered.
 * @param {MoveInfo[]} moves @param {string[]} prefix @param {string} square
 * @param {(square: string) => string} [label] the square's name as shown
 * @returns {Action}
 */
export function click(moves, prefix, square, label = (s) => s) {
  const entry = entryAt(moves, square);
  if (entry) return {type: "play", move: entry};
  if (prefix.length) {
    const next = candidates(moves, prefix).filter((m) => m.path[prefix.length] === square);
    if (next.length) return advance(moves, [...prefix, square]);
    if (square === prefix[0]) return {type: "cancel"};
    const at = prefix.indexOf(square, 1);
    if (at > 0) {
      // a landing the board took already (every route goes there): the player confirms it
      const dests = destinations(moves, prefix).map(label).sort();
      return {type: "keep", note: `${label(square)} is on every route: now ${dests.length > 1 ? `choose ${dests.slice(0, -1).join(", ")} or ${dests[dests.length - 1]}` : dests[0] || "go on"}`};
    }
    // a drop (or click) further along a route: taken when only one way leads there
    const later = candidates(moves, prefix).filter((m) => m.path.indexOf(square, prefix.length) > 0);
    const ways = new Set(later.map((m) => m.path.slice(0, m.path.indexOf(square, prefix.length) + 1).join()));
    if (ways.size === 1) return advance(moves, later[0].path.slice(0, later[0].path.indexOf(square, prefix.length) + 1));
    if (ways.size > 1) return {type: "ambiguous", square};
  }
  if (startsMove(moves, square)) return advance(moves, [square]);
  return prefix.length ? {type: "cancel"} : {type: "none"};
}

/**
 * The move of `moves` with the same route as `move` (a premove made real, or nothing).
 * @param {MoveInfo[]} moves @param {MoveInfo} move
 */
export function sameRoute(moves, move) {
  const key = move.path.join();
  return moves.find((m) => m.kind === move.kind && m.path.join() === key) || null;
}
