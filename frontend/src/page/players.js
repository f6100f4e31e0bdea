// @ts-check
/**
 * page/players.js: the two player bars beside the board: men in hand, the side to move, a name,
 * and in a timed game the clock. The server is the clock: every state carries both clocks and
 * which one runs; the bar counts the running one down from there, turns red under 10 s (or a
 * fifth of the base, if less) and strikes it through at 0:00.
 *
 * @typedef {{white: number, black: number, running: string|null, at: number, base: number,
 *   control: string}} Clock
 * @typedef {{turn: "white"|"black", hands: {white: number, black: number}, shadow: boolean,
 *   entrySize: number, outcome: unknown}} HandData
 * @typedef {{names?: Record<string, string>, people?: Record<string, HTMLElement>, clock?: Clock|null,
 *   toMove?: "white"|"black"|null}} GameBars
 *   `people`: an element naming each player (the online pages: a link, a BOT title); `toMove`:
 *   whose turn the bars show (the latest position's, while an earlier one is looked at)
 */
import {$, el} from "./dom.js";
import {clockText, title} from "./format.js";
import {settings} from "./settings.js";

/**
 * Draw both bars for a position.
 * @param {HandData} data @param {GameBars} [game]
 */
export function drawPlayers(data, game = {}) {
  const [top, bottom] = settings.flipped ? ["white", "black"] : ["black", "white"];
  bar($("player-top"), /** @type {"white"|"black"} */ (top), data, game);
  bar($("player-bottom"), /** @type {"white"|"black"} */ (bottom), data, game);
  if (game.clock) drawClocks(game.clock, !!data.outcome);
}

/** @param {HTMLElement} box @param {"white"|"black"} color @param {HandData} data @param {GameBars} game */
function bar(box, color, data, game) {
  const hand = data.hands[color];
  const toMove = (game.toMove === undefined ? data.turn : game.toMove) === color && !data.outcome;
  box.className = `player ${color}${toMove ? " to-move" : ""}`;
  box.dataset.hand = String(hand);
  const disc = el("span", `hand ${color}`, String(hand));
  disc.title = `${title(color)}: ${hand} in hand`;
  const who = game.names ? `${game.names[color]} (${title(color)})` : title(color);
  const name = el("span", "name", `${who}${toMove ? " to move" : ""}`);
  const person = game.people && game.people[color];
  if (person) name.replaceChildren(person, ` (${title(color)})${toMove ? " to move" : ""}`);
  const note = el("span", "note", `${hand} in hand`);
  if (toMove && data.shadow) note.textContent += `: enters all ${data.entrySize} as one shadowpiece (R14)`;
  box.replaceChildren(disc, name, note);
  if (game.clock) {
    const clock = el("span", "clock");
    clock.dataset.color = color;
    box.append(clock);
  }
}

/** Seconds left on a clock now: the server's figure less the time since, if it runs. @param {Clock} c @param {string} color */
export function clockLeft(c, color) {
  const left = c[/** @type {"white"|"black"} */ (color)];
  return c.running === color ? left - (performance.now() - c.at) / 1000 : left;
}

/** Is a clock low: under 10 s, or a fifth of the base if that is less? @param {Clock} c @param {number} left */
export const isLow = (c, left) => left < Math.min(10, c.base * 0.2);

/** @param {Clock} c @param {boolean} over */
export function drawClocks(c, over) {
  for (const e of document.querySelectorAll(".player .clock")) {
    const box = /** @type {HTMLElement} */ (e);
    const color = box.dataset.color || "white";
    const left = clockLeft(c, color);
    box.textContent = clockText(left);
    box.classList.toggle("running", c.running === color);
    box.classList.toggle("low", isLow(c, left) && !over);
    box.classList.toggle("flag", left <= 0);
    box.title = `${title(color)}'s clock (${c.control})`;
  }
}
