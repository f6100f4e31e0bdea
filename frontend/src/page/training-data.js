// @ts-check
/**
 * page/training-data.js: what the training pages compute without a board (unit-tested in
 * test/training.test.js): a visitor's progress kept in this browser (merged into his account
 * once he signs in), the dashboard's results
 * (lichess's, as the server computes them for an account: emergo/server/puzzle/service.py),
 * the replay list, and the timed run's clock (lichess's Storm: a mistake costs seconds, a combo
 * wins some back).
 *
 * @typedef {{id: string, win: boolean, fixed: boolean, rating: number, themes: string[], date: number}} LocalRound
 * @typedef {{rounds: LocalRound[], storm: number}} LocalProgress
 * @typedef {{nb: number, firstWins: number, replayWins: number, failed: number, unfixed: number,
 *   puzzleRatingAvg: number, performance: number}} Results
 * @typedef {{days: number, global: Results, themes: Record<string, {theme: string, results: Results}>,
 *   weakest: string[], byDay: (Results & {day: string})[], perf?: {rating: number, rd: number, games: number, provisional: boolean}, history?: number[][]}} Dashboard
 */
import {api} from "./api.js";

/** The position after `moves` from `pos` (the server's board data, with the board's squares). @param {string} pos @param {string[]} moves @returns {Promise<import("./training.js").Position>} */
export const positionAt = (pos, moves) => api("/api/position", {pos, moves});

export const STORAGE_KEY = "emergo-training";
/** A visitor's rounds kept at most (the oldest dropped). */
export const MAX_ROUNDS = 2000;

/** A visitor's progress from this browser (an empty one when none or unreadable). @param {Storage} storage @returns {LocalProgress} */
export function readLocal(storage) {
  try {
    const data = JSON.parse(storage.getItem(STORAGE_KEY) || "{}");
    const rounds = Array.isArray(data.rounds) ? data.rounds.filter((/** @type {any} */ r) => r && typeof r.id === "string" && typeof r.win === "boolean") : [];
    return {rounds, storm: Number.isFinite(data.storm) ? data.storm : 0};
  } catch {
    return {rounds: [], storm: 0};
  }
}

/** @param {Storage} storage @param {LocalProgress} progress */
export function writeLocal(storage, progress) {
  storage.setItem(STORAGE_KEY, JSON.stringify({rounds: progress.rounds.slice(-MAX_ROUNDS), storm: progress.storm}));
}

/** A visitor's attempts posted to an account at most at once (the server's MAX_BATCH). */
export const MAX_BATCH = 500;

/**
 * A visitor's attempts of this browser, now that he is signed in: posted once to
 * `POST /api/puzzle/batch` (the newest 500; the account keeps them unrated), then dropped here.
 * The attempts merged (0 when there were none). @param {Storage} storage
 */
export async function mergeLocal(storage) {
  const local = readLocal(storage);
  const solutions = local.rounds
    .filter((r) => /^[0-9a-z]{1,8}$/.test(r.id) && Number.isFinite(r.date) && r.date >= 0)
    .slice(-MAX_BATCH)
    .map((r) => ({id: r.id, win: r.win, fixed: r.fixed === true, date: Math.round(r.date)}));
  if (!local.rounds.length) return 0;
  const merged = solutions.length ? (await api("/api/puzzle/batch", {solutions})).merged : 0;
  writeLocal(storage, {...local, rounds: []});
  return merged;
}

/**
 * Keep an attempt's end as the server does for an account: the first try is the round's result,
 * a later win marks a failed one fixed.
 * @param {LocalProgress} progress @param {{id: string, rating: number, themes: string[]}} puzzle @param {boolean} win @param {number} now
 * @returns {LocalProgress}
 */
export function keepRound(progress, puzzle, win, now) {
  const rounds = progress.rounds.slice();
  const i = rounds.findIndex((r) => r.id === puzzle.id);
  if (i >= 0) {
    const r = rounds[i];
    rounds[i] = {...r, fixed: r.fixed || (win && !r.win)};
  } else rounds.push({id: puzzle.id, win, fixed: false, rating: puzzle.rating, themes: puzzle.themes, date: now});
  return {...progress, rounds};
}

/** lichess's results of some rounds: the performance is the puzzles' average rating - 500 + 1000 x the share won first try. @param {LocalRound[]} rounds @returns {Results} */
export function results(rounds) {
  const nb = rounds.length;
  const wins = rounds.filter((r) => r.win).length;
  const fixed = rounds.filter((r) => r.fixed).length;
  const average = nb ? Math.round(rounds.reduce((s, r) => s + r.rating, 0) / nb) : 0;
  return {nb, firstWins: wins, replayWins: fixed, failed: nb - wins, unfixed: nb - wins - fixed, puzzleRatingAvg: average, performance: nb ? average - 500 + Math.round((1000 * wins) / nb) : 0};
}

/** A theme's name: "feederCombination" is "Feeder combination". @param {string} theme */
export function themeName(theme) {
  if (theme === "mix") return "All themes";
  const words = theme.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`).trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The day (UTC) of a time. @param {number} ms */
export const dayOf = (ms) => new Date(ms).toISOString().slice(0, 10);

/** The dashboard of a visitor's rounds of the last `days` days, in the server's shape. @param {LocalRound[]} rounds @param {number} days @param {number} now @returns {Dashboard} */
export function localDashboard(rounds, days, now) {
  const recent = rounds.filter((r) => r.date >= now - days * 86400_000);
  /** @type {Map<string, LocalRound[]>} */
  const byTheme = new Map();
  /** @type {Map<string, LocalRound[]>} */
  const byDay = new Map();
  for (const r of recent) {
    for (const t of r.themes) byTheme.set(t, [...(byTheme.get(t) || []), r]);
    const d = dayOf(r.date);
    byDay.set(d, [...(byDay.get(d) || []), r]);
  }
  const overall = results(recent);
  const themes = [...byTheme].map(([t, rs]) => /** @type {[string, Results]} */ ([t, results(rs)]));
  themes.sort((a, b) => a[1].performance - b[1].performance || b[1].nb - a[1].nb || (a[0] < b[0] ? -1 : 1));
  return {
    days,
    global: overall,
    themes: Object.fromEntries(themes.map(([t, res]) => [t, {theme: themeName(t), results: res}])),
    weakest: themes.filter(([, res]) => res.failed && res.performance < overall.performance).map(([t]) => t),
    byDay: [...byDay].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([day, rs]) => ({day, ...results(rs)})),
  };
}

/** The puzzles failed first try and not solved since, oldest first. @param {LocalRound[]} rounds */
export const toReplay = (rounds) => rounds.filter((r) => !r.win && !r.fixed).sort((a, b) => a.date - b.date).map((r) => r.id);

/**
 * The rating chart's drawing, in pixels of a `width` x `height` picture: `history`'s points
 * and the line through them, in steps (the rating holds between tries) (`[ms, rating]`, time order, as GET /api/puzzle/dashboard gives them), the
 * rating grid (a line every 50, 100 or 200 points: four or five of them) and the first and last
 * days under the time axis. One point (no rated try in the days) draws a flat line.
 * @param {number[][]} history @param {number} width @param {number} height
 * @returns {{points: number[][], line: number[][], grid: {y: number, label: string}[], days: {x: number, label: string}[], last: {x: number, y: number, label: string}, box: {left: number, right: number, top: number, bottom: number}}}
 */
export function ratingChart(history, width, height) {
  const box = {left: 44, right: width - 14, top: 10, bottom: height - 24};
  const times = history.map((p) => p[0]);
  const ratings = history.map((p) => p[1]);
  const t0 = Math.min(...times);
  const t1 = Math.max(...times, t0 + 1);
  let lo = Math.min(...ratings);
  let hi = Math.max(...ratings);
  const step = [50, 100, 200, 500].find((s) => (hi - lo) / s <= 4) || 1000;
  lo = Math.floor(lo / step) * step;
  hi = Math.max(lo + step, Math.ceil(hi / step) * step);
  const x = (/** @type {number} */ t) => box.left + ((t - t0) / (t1 - t0)) * (box.right - box.left);
  const y = (/** @type {number} */ r) => box.bottom - ((r - lo) / (hi - lo)) * (box.bottom - box.top);
  const points = history.map(([t, r]) => [x(t), y(r)]);
  // the rating holds between tries: a step from each point to the next
  const line = history.length > 1 ? points.flatMap((p, i) => (i ? [[p[0], points[i - 1][1]], p] : [p])) : [[box.left, points[0][1]], [box.right, points[0][1]]];
  const grid = [];
  for (let r = lo; r <= hi; r += step) grid.push({y: y(r), label: String(r)});
  const days = [{x: box.left, label: dayOf(t0)}];
  if (dayOf(t1) !== dayOf(t0)) days.push({x: box.right, label: dayOf(t1)});
  const end = line[line.length - 1];
  return {points, line, grid, days, last: {x: end[0], y: end[1], label: String(ratings[ratings.length - 1])}, box};
}

/** Seconds a timed run wins when its combo reaches `combo` (lichess's Storm). @param {number} combo @param {number[][]} levels */
export function comboBonus(combo, levels) {
  for (const [at, seconds] of levels) if (combo === at) return seconds;
  return combo > 30 && combo % 10 === 0 ? 10 : 0;
}

/** A clock's text: 2:05, 0:09. @param {number} ms */
export function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
