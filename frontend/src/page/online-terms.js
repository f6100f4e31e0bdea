// @ts-check
/**
 * page/online-terms.js: the online pages' words and rules of thumb (pure, no DOM): a challenge's
 * terms as a form sends them and as a list shows them, and what a game's state (the server's
 * `gameState`, docs/online.md) means for the page: its moves, its result, its clocks, the offer
 * waiting, what the page must ask the server to show the new moves.
 *
 * @typedef {"white"|"black"} Color
 * @typedef {{type: "clock", limit: number, increment: number, show?: string}
 *   | {type: "correspondence", daysPerTurn: number} | {type: "unlimited"}} TimeControl
 * @typedef {{variant: string, speed: string, minutes: number, increment: number, days: number,
 *   rated: boolean, color: string}} TermsForm
 * @typedef {{moves: string, wtime: number, btime: number, status: string, winner?: Color,
 *   reason?: string, wdraw: boolean, bdraw: boolean, wtakeback: boolean, btakeback: boolean,
 *   turn: Color, clockRunning: Color|null, version: number,
 *   expiration?: {idleMillis: number, millisToMove: number}}} GameState
 * @typedef {{result: string, termination: string, reason: string, winner: Color|null}} Result
 */

import {durationText} from "./format.js";

/** The site's Fischer presets (minutes, increment), lichess's quick pairings in small. */
export const PRESETS = [[1, 0], [3, 2], [5, 3], [10, 5], [15, 10], [30, 20]];

/** wtime/btime of a game without a clock (lichess's value). */
export const UNLIMITED_MS = 2147483647;

/**
 * The fields of a challenge, seek or link (`POST /api/challenge/{name}` ...) from the form.
 * @param {TermsForm} form @returns {Record<string, string|number|boolean>}
 */
export function termsFields(form) {
  /** @type {Record<string, string|number|boolean>} */
  const out = {variant: form.variant, rated: form.rated, color: form.color};
  if (form.speed === "live") {
    out["clock.limit"] = Math.round(form.minutes * 60);
    out["clock.increment"] = Math.round(form.increment);
  } else if (form.speed === "correspondence") {
    out.days = form.days;
  }
  return out;
}

/** A time control in words: `5+3`, `3 days a move`, `Unlimited`. @param {TimeControl|null|undefined} tc */
export function timeControlText(tc) {
  if (!tc || tc.type === "unlimited") return "Unlimited";
  if (tc.type === "correspondence") return `${tc.daysPerTurn} day${tc.daysPerTurn === 1 ? "" : "s"} a move`;
  return tc.show || `${minutes(tc.limit)}+${tc.increment}`;
}

/** Minutes as lichess writes a base time: `5`, `½`, `¼`. @param {number} seconds */
export function minutes(seconds) {
  const m = seconds / 60;
  return /** @type {Record<string, string>} */ ({"0.25": "¼", "0.5": "½", "0.75": "¾"})[String(m)] || String(Math.round(m * 100) / 100);
}

/** A variant's name as the pages show it. @param {string} key */
export const variantName = (key) => (key === "hex" ? "Hex" : key);

/** The moves of a state. @param {{moves: string}} state @returns {string[]} */
export const movesOf = (state) => (state.moves ? state.moves.split(" ").filter(Boolean) : []);

/** How many moves two lines share from their start. @param {string[]} a @param {string[]} b */
export function sharedPlies(a, b) {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/** The game's result from its state, or null while it goes on. @param {GameState} state @returns {Result|null} */
export function resultOf(state) {
  if (state.status === "started" || state.status === "created") return null;
  const winner = state.winner || null;
  const result = state.status === "aborted" ? "*" : winner === "white" ? "1-0" : winner === "black" ? "0-1" : "1/2-1/2";
  const reason = state.reason || (state.status === "aborted" ? "the game was aborted" : state.status);
  return {result, termination: state.status, reason, winner};
}

/** The rule a result's reason cites (`R18`, `R19c`), or "": for a tooltip, never the text. @param {Result} r */
export function ruleOf(r) {
  const cited = /\((R\d+[a-z]?)\)/.exec(r.reason);
  return cited ? cited[1] : "";
}

/**
 * A result as a sentence for people (lichess's "White is victorious · Black resigned"): who won
 * and why, without the rule numbers (ruleOf gives them): `White wins: Black resigned`,
 * `Draw by agreement`, `Aborted: the game ended before both sides moved (no result)`.
 * @param {Result} r
 */
export function resultWords(r) {
  const loser = r.winner ? (r.winner === "white" ? "Black" : "White") : "";
  const wins = r.winner ? `${r.winner === "white" ? "White" : "Black"} wins: ` : "";
  const why = r.reason.replace(/\s*\(R\d+[a-z]?\)/g, "").trim();
  switch (r.termination) {
    case "aborted":
      return "Aborted: the game ended before both sides moved (no result)";
    case "mate":
      return `${wins}${loser} has no pieces left and no men in hand`;
    case "stalemate":
      return "Draw: the player to move cannot move";
    case "resign":
      return `${wins}${loser} resigned`;
    case "outoftime":
      return `${wins}${loser} ran out of time`;
    case "timeout":
      return r.winner ? `${wins}${loser} left the game` : "Draw: a player left the game and the other called it a draw";
    case "draw":
      if (/agreement/.test(why)) return "Draw by agreement";
      if (/three times/.test(why)) return "Draw: the same position came three times";
      return "Draw";
    default: {
      const text = why.replace(/:\s*draw$/i, "");
      return `${wins || (r.result === "1/2-1/2" ? "Draw: " : "")}${text}`;
    }
  }
}

/** The score and the sentence: `1-0 · White wins: Black resigned`; `Aborted: ...` alone. @param {Result} r */
export const resultLine = (r) => (r.result === "*" ? resultWords(r) : `${r.result.replace("1/2-1/2", "½-½")} · ${resultWords(r)}`);

/**
 * The clocks of a state as the player bars count them (players.js's Clock), or null without a
 * clock. The state's times are the server's at the moment it sent them; `at` is when the page got
 * them (performance.now()).
 * @param {GameState} state @param {{clock: {initial: number, increment: number}|null, daysPerTurn?: number}} full @param {number} at
 */
export function clockOf(state, full, at) {
  if (state.wtime >= UNLIMITED_MS && state.btime >= UNLIMITED_MS) return null;
  const base = full.clock ? full.clock.initial / 1000 : (full.daysPerTurn || 1) * 86400;
  const control = full.clock ? `${minutes(full.clock.initial / 1000)}+${full.clock.increment / 1000}` : `${full.daysPerTurn} days a move`;
  return {white: state.wtime / 1000, black: state.btime / 1000, running: state.clockRunning, at, base, control};
}

/**
 * The offer waiting for an answer, if any: a draw or a takeback, and who made it.
 * @param {GameState} state @returns {{kind: "draw"|"takeback", by: Color}|null}
 */
export function offerOf(state) {
  if (state.wdraw || state.bdraw) return {kind: "draw", by: state.wdraw ? "white" : "black"};
  if (state.wtakeback || state.btakeback) return {kind: "takeback", by: state.wtakeback ? "white" : "black"};
  return null;
}

/** The other colour. @param {Color} c @returns {Color} */
export const other = (c) => (c === "white" ? "black" : "white");

/**
 * Seconds left to play the first move of a game not yet started before it is aborted (lichess's
 * `expiration`), or null when the game has started or has no such deadline.
 * @param {GameState} state @param {number} at when the state came (ms) @param {number} now (ms)
 */
export function abortLeft(state, at, now) {
  const e = state.expiration;
  if (!e || resultOf(state)) return null;
  return Math.max(0, (e.millisToMove - e.idleMillis - (now - at)) / 1000);
}

/** The countdown's words. @param {number} seconds @param {Color} turn @param {Color|null|undefined} you */
export function abortWords(seconds, turn, you) {
  const who = turn === you ? "you" : turn === "white" ? "White" : "Black";
  return `${durationText(seconds)} for ${who} to play the first move, or the game is aborted`;
}

/**
 * The challenge of a rematch (lichess's): the same variant, time control and mode, the colours
 * swapped (`you` played White: you now play Black).
 * @param {{variant: {key: string}, rated: boolean, clock: {initial: number, increment: number}|null, daysPerTurn?: number}} full
 * @param {Color} you
 * @returns {Record<string, string|number|boolean>}
 */
export function rematchFields(full, you) {
  /** @type {Record<string, string|number|boolean>} */
  const out = {variant: full.variant.key, rated: !!full.rated, color: other(you)};
  if (full.clock) {
    out["clock.limit"] = Math.round(full.clock.initial / 1000);
    out["clock.increment"] = Math.round(full.clock.increment / 1000);
  } else if (full.daysPerTurn) out.days = full.daysPerTurn;
  return out;
}
