// @ts-check
/**
 * page/editor.js: the position editor. The browser only edits; the server checks the position
 * (R6 stacks, R22 counts) when it is done. A man put on the board comes from its side's hand
 * and a man taken off goes back to it, so the counts stay right while editing.
 *
 * @typedef {import("../board/types.js").Piece} Piece
 */
import {input, select} from "./dom.js";

/**
 * A new stack after a click with a brush (white, black or empty), and the men it took from
 * (positive) or gave back to (negative) each hand (pure).
 * @param {Piece|undefined} old @param {string} brush
 * @returns {{piece: Piece|null, white: number, black: number}}
 */
export function brushed(old, brush) {
  const men = (/** @type {Piece|undefined} */ p, /** @type {string} */ color) => (!p ? 0 : (p.owner === color ? p.caps : 0) + (p.owner !== color ? p.prisoners : 0));
  /** @type {Piece|null} */
  let piece;
  if (brush === "empty") piece = null;
  else if (!old) piece = {owner: /** @type {"white"|"black"} */ (brush), caps: 1, prisoners: 0};
  else if (old.owner === brush) piece = {...old, caps: old.caps + 1};
  else piece = {owner: /** @type {"white"|"black"} */ (brush), caps: 1, prisoners: old.prisoners ? 0 : old.caps}; // R6: the other colour's men become the prisoners
  const after = piece || undefined;
  return {piece, white: men(after, "white") - men(old, "white"), black: men(after, "black") - men(old, "black")};
}

/** The edited position as an R22 string; the server says whether it is one. @param {Record<string, Piece>} pieces @param {string} variant */
export function positionText(pieces, variant) {
  const letter = (/** @type {string} */ owner) => (owner === "white" ? "w" : "b");
  const stacks = Object.entries(pieces)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([sq, p]) => `${sq}:${p.prisoners ? `${letter(p.owner === "white" ? "black" : "white")}${p.prisoners}` : ""}${letter(p.owner)}${p.caps}`);
  const prefix = variant === "9x9" ? "" : `${variant} `;
  return `${prefix}${select("edit-turn").value} ${Number(input("hand-w").value)}/${Number(input("hand-b").value)} ${stacks.join(" ")}`.trim();
}

/** Take a stack's men from the hands shown (or give them back); a hand never goes below 0. @param {number} white @param {number} black */
export function takeFromHands(white, black) {
  for (const [id, n] of /** @type {[string, number][]} */ ([["hand-w", white], ["hand-b", black]])) {
    input(id).value = String(Math.max(0, Number(input(id).value) - n));
  }
}
