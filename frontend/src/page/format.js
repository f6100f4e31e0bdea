// @ts-check
/**
 * page/format.js: the page's words and numbers (pure, no DOM): the phase and what it demands,
 * results with their reasons, move numbers, clock times, the record's date.
 *
 * @typedef {import("../board/types.js").MoveInfo} MoveInfo
 * @typedef {{result: string, termination: string, reason: string, winner: string|null}} Outcome
 * @typedef {{turn: "white"|"black", phase: string, moves: MoveInfo[], shadow: boolean,
 *   entrySize: number, attacked: boolean, outcome: Outcome|null}} PhaseData
 */

/** @param {string} color */
export const title = (color) => color[0].toUpperCase() + color.slice(1);

/** A result with its reason: `1-0 (Black resigned (R20))`. @param {Outcome} o */
export const resultText = (o) => `${o.result} (${o.reason})`;

/** What the position demands of the player to move, or how the game ended. @param {PhaseData} data */
export function statusText(data) {
  if (data.outcome) return `Game over: ${data.outcome.result}, ${data.outcome.reason}`;
  const who = title(data.turn);
  if (data.phase === "capture") {
    const best = data.moves[0] ? data.moves[0].captured || 0 : 0;
    const tied = data.moves.length > 1 ? `; ${data.moves.length} routes tie: choose one landing by landing` : "";
    return `${who} must capture ${best} ${best === 1 ? "man" : "men"} (R8, R11): only the capturing pieces can be chosen${tied}`;
  }
  if (data.phase === "enter") {
    const attacked = data.attacked ? " (under attack: any vacant square, R15)" : "";
    return `${who} to enter${data.shadow ? ` a shadowpiece of ${data.entrySize}` : " a man"}: ${data.moves.length} squares may be entered${attacked}`;
  }
  return `${who} to step a piece (R17)`;
}

/**
 * The position's facts for a spectator (no instruction: he chooses nothing): `White to capture
 * 2 men (R8, R11)`, `Black to enter a man`, `White to step a piece (R17)`. @param {PhaseData} data
 */
export function factsText(data) {
  if (data.outcome) return statusText(data);
  const who = title(data.turn);
  if (data.phase === "capture") {
    const best = data.moves[0] ? data.moves[0].captured || 0 : 0;
    return `${who} to capture ${best} ${best === 1 ? "man" : "men"} (R8, R11)`;
  }
  if (data.phase === "enter") return `${who} to enter${data.shadow ? ` a shadowpiece of ${data.entrySize}` : " a man"}${data.attacked ? " (under attack, R15)" : ""}`;
  return statusText(data);
}

/**
 * A span of time in words, as the server's notices say it (online/notify.py ``_duration``, the
 * same rounding: whole units, down): `3 days`, `2 days 23 hours`, `5 hours`, `12 minutes`,
 * `40 seconds` (under a minute; rounded up, a countdown's way), `no time` at 0 or less.
 * @param {number} seconds
 */
export function durationText(seconds) {
  if (seconds <= 0) return "no time";
  /** @param {number} n @param {string} word */
  const unit = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (seconds < 60) return unit(Math.ceil(seconds), "second");
  const minutes = Math.floor(seconds / 60);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days) return unit(days, "day") + (hours ? ` ${unit(hours, "hour")}` : "");
  if (hours) return unit(hours, "hour");
  return unit(minutes % 60, "minute");
}

/**
 * An exact score from White's view in words, as the tables and proven results are told:
 * `+win47` "White wins in 47 plies", `-win1` "Black wins in 1 ply", `draw` "Draw"; null for
 * an evaluation (`+0.35`).
 * @param {string} score
 */
export function scoreWords(score) {
  if (score === "draw") return "Draw";
  const m = /^([+-])win(\d+)$/.exec(score);
  if (!m) return null;
  return `${m[1] === "+" ? "White" : "Black"} wins in ${plies(Number(m[2]))}`;
}

/** A distance in plies: `1 ply`, `47 plies`. @param {number} n */
export const plies = (n) => `${n} ${n === 1 ? "ply" : "plies"}`;

/** The move number of the move at `ply` (1 = the first of the line) as a record writes it: `3.` or `3...`. @param {number} ply @param {"white"|"black"} firstTurn */
export function moveNumber(ply, firstTurn) {
  const slot = ply - 1 + (firstTurn === "white" ? 0 : 1);
  return `${Math.floor(slot / 2) + 1}${slot % 2 ? "..." : "."}`;
}

/** Does White play the move at `ply`? @param {number} ply @param {"white"|"black"} firstTurn */
export const whiteMoves = (ply, firstTurn) => (ply - 1 + (firstTurn === "white" ? 0 : 1)) % 2 === 0;

/**
 * An engine line with its move numbers, as a record writes it: `3... e5 4. c4 d6`; each move
 * with the number before it, or "" (the numbers are for people, the moves for clicks).
 * @param {number} ply the ply of the first move @param {"white"|"black"} firstTurn @param {number} count
 * @returns {string[]}
 */
export function lineNumbers(ply, firstTurn, count) {
  const out = [];
  for (let k = 0; k < count; k++) out.push(k === 0 || whiteMoves(ply + k, firstTurn) ? moveNumber(ply + k, firstTurn) : "");
  return out;
}

/** Seconds as a clock shows them: `4:05`, `1:02:03`, `0:09.3` under 10 s, `2d 5h` from a day (correspondence). @param {number} seconds */
export function clockText(seconds) {
  const t = Math.max(0, seconds);
  if (t < 10) return `0:0${t.toFixed(1)}`;
  // a day or more: whole days and hours, rounded down as durationText and the server's notices
  if (t >= 86400) return `${Math.floor(t / 86400)}d ${Math.floor((t % 86400) / 3600)}h`;
  const whole = Math.ceil(t);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** A record's Date tag for a day: `2026.11.27`. @param {Date} day */
export const recordDate = (day) => `${day.getFullYear()}.${String(day.getMonth() + 1).padStart(2, "0")}.${String(day.getDate()).padStart(2, "0")}`;

/**
 * The same position with the other side to move (R22: the turn is the word after the variant's):
 * the moves its player could make were it his turn, the page's premove candidates.
 * @param {string} position
 */
export function otherTurn(position) {
  const words = position.split(" ");
  const k = words[0] === "w" || words[0] === "b" ? 0 : 1;
  if (words[k] !== "w" && words[k] !== "b") return null;
  words[k] = words[k] === "w" ? "b" : "w";
  return words.join(" ");
}

/** The variant's start position (R22). @param {string} variant @param {number} men */
export const startPosition = (variant, men) => `${variant === "9x9" ? "" : `${variant} `}w ${men}/${men}`;

/** Move marks a player may write (as in PGN): good, bad, interesting, dubious ... */
export const MARKS = ["!!", "!", "!?", "?!", "?", "??"];
