// @ts-check
/**
 * page/editor.js: the position editor. The browser only edits; the server checks the position
 * (R6 stacks, R22 counts) when it is done. A man put on the board comes from its side's hand
 * and a man taken off goes back to it, so the counts stay right while editing.
 *
 * @typedef {import("../board/types.js").Piece} Piece
 * @typedef {import("../board/types.js").BoardApi} BoardApi
 * @typedef {{pieces: Record<string, Piece>}} Editing
 */
import {$, input, say, select} from "./dom.js";

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

/** Start editing the position shown (its pieces, hands and turn). @param {BoardApi} board @param {any} current @returns {Editing} */
export function startEditing(board, current) {
  const editing = {pieces: structuredClone(current.pieces)};
  input("hand-w").value = String(current.hands.white);
  input("hand-b").value = String(current.hands.black);
  select("edit-turn").value = current.turn === "white" ? "w" : "b";
  $("editor").hidden = false;
  $("edit").setAttribute("aria-pressed", "true");
  board.set({pieces: editing.pieces, lastMove: null, movable: null});
  $("status").textContent = "Editing the position: click squares with the brush; Done checks it";
  say("a man put on the board comes from its side's hand; Done checks the position", false);
  return editing;
}

/** A click on a square while editing: the brush's stack there. @param {BoardApi} board @param {Editing} editing @param {string} square */
export function editSquare(board, editing, square) {
  const change = brushed(editing.pieces[square], select("brush").value);
  if (change.piece) editing.pieces[square] = change.piece;
  else delete editing.pieces[square];
  takeFromHands(change.white, change.black);
  board.set({pieces: {...editing.pieces}, lastMove: null, movable: null});
  return true;
}

export function stopEditing() {
  $("editor").hidden = true;
  $("edit").setAttribute("aria-pressed", "false");
}
