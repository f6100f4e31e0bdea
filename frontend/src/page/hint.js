// @ts-check
/**
 * page/hint.js: a hint on the game page, as the local app gave one: in a hot-seat game or a
 * casual game against the computer (never against a person, never rated), the engine's best
 * move of the position (`POST /api/analyse`, a short search) as a green arrow and "Hint: d5".
 * Both are news of that position only: the next move or a takeback clears them.
 *
 * @typedef {import("../board/types.js").BoardApi} BoardApi
 * @typedef {import("../board/types.js").MoveInfo} MoveInfo
 */
import {api} from "./api.js";
import {$, errorText, say} from "./dom.js";

export class Hint {
  /** @param {BoardApi} board @param {(move: MoveInfo) => string} text the move's text as the page names it */
  constructor(board, text) {
    this.board = board;
    this.text = text;
    /** The ply the hint on show is of, and its words. @type {{plies: number, words: string}|null} */
    this.shown = null;
    this.asking = 0;
  }

  /** Ask the engine for the best move of `position`, the game at `plies` moves. @param {string} position @param {number} plies */
  async ask(position, plies) {
    const id = ++this.asking;
    say("the engine looks for a move ...", false);
    try {
      const answer = await api("/api/analyse", {pos: position, moves: [], multipv: 1, time: 1});
      if (id !== this.asking) return;
      const move = answer.lines && answer.lines[0] && answer.lines[0].pv[0];
      if (!move) return say("no move to hint at", false);
      const words = `Hint: ${this.text(move)}`;
      this.shown = {plies, words};
      say(words, false);
      this.board.setAutoShapes([move.kind === "enter" ? {orig: move.path[0], brush: "green"} : {orig: move.path[0], path: move.path, brush: "green"}]);
    } catch (e) {
      if (id === this.asking) say(errorText(e));
    }
  }

  /** The game is at `plies` moves now: a hint of another position goes, and its arrow. @param {number} plies */
  forget(plies) {
    if (this.shown && this.shown.plies !== plies) {
      if ($("message").textContent === this.shown.words) say("");
      this.board.setAutoShapes([]);
      this.shown = null;
    }
    if (plies !== this.shown?.plies) this.asking++;
  }
}
