// @ts-check
/**
 * page/tv.js: Emergo TV on the home page (lichess's): the best-rated live game now, on a board
 * that follows its moves, switching to the next best when it ends (`GET /api/tv`, asked every
 * few seconds while the page is in view). The panel stays hidden while no live game is played.
 *
 * @typedef {{id: string, url: string, variant: string, white: {name: string, rating: number},
 *   black: {name: string, rating: number}, initialFen: string, moves: string[]}} TvGame
 */
import {Board} from "../board/index.js";
import {api} from "./api.js";
import {boardSettings} from "./settings.js";

const EVERY_MS = 3000;

/** What the panel must do for a new answer: nothing, redraw the moves, or show another game. @param {{id: string, moves: number}|null} shown @param {TvGame|null} game */
export function tvChange(shown, game) {
  if (!game) return shown ? "hide" : "none";
  if (!shown || shown.id !== game.id) return "switch";
  return shown.moves === game.moves.length ? "none" : "moves";
}

/** Start TV in the lobby's panel. @param {HTMLElement} panel */
export function startTv(panel) {
  const boardEl = /** @type {HTMLElement} */ (panel.querySelector("#tv-board"));
  const players = /** @type {HTMLElement} */ (panel.querySelector("#tv-players"));
  const watch = /** @type {HTMLAnchorElement} */ (panel.querySelector("#tv-watch"));
  const board = Board(boardEl, {...boardSettings(), viewOnly: true, coordinates: false});
  /** @type {{id: string, moves: number, variant: string}|null} */
  let shown = null;
  let busy = false;

  async function look() {
    if (busy || document.visibilityState !== "visible") return;
    busy = true;
    try {
      const answer = await api("/api/tv");
      const game = /** @type {TvGame|null} */ (answer.game);
      const change = tvChange(shown, game);
      if (change === "hide") {
        shown = null;
        panel.hidden = true;
        panel.dataset.game = "";
      } else if (game && change !== "none") {
        if (!shown || shown.variant !== game.variant) {
          const g = await api(`/api/geometry?variant=${encodeURIComponent(game.variant)}`);
          board.set({squares: g.squares, size: g.size, shape: g.shape});
        }
        const query = new URLSearchParams({pos: game.initialFen, moves: game.moves.join(" ")});
        const data = await api(`/api/position?${query}`);
        board.set({pieces: data.pieces, lastMove: data.lastMove, animate: change === "moves"});
        players.textContent = `${game.white.name} (${game.white.rating}) – ${game.black.name} (${game.black.rating})`;
        watch.href = game.url;
        panel.hidden = false;
        panel.dataset.game = game.id;
        shown = {id: game.id, moves: game.moves.length, variant: game.variant};
      }
    } catch {
      // the next look will do
    } finally {
      busy = false;
    }
  }

  look();
  setInterval(look, EVERY_MS);
  document.addEventListener("visibilitychange", look);
}
