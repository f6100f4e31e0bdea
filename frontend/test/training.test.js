// Unit tests of page/training-data.js: a visitor's puzzle progress, the dashboard's results, the timed run's clock.
import {test} from "node:test";
import assert from "node:assert/strict";
import {clockText, comboBonus, keepRound, localDashboard, ratingChart, readLocal, results, STORAGE_KEY, themeName, toReplay, writeLocal} from "../src/page/training-data.js";

/** A storage in memory, as localStorage. */
function memory() {
  /** @type {Map<string, string>} */
  const m = new Map();
  return /** @type {any} */ ({getItem: (/** @type {string} */ k) => m.get(k) ?? null, setItem: (/** @type {string} */ k, /** @type {string} */ v) => void m.set(k, v), m});
}

const DAY = 86400_000;
const now = Date.UTC(2026, 11, 2, 12);
const a = {id: "aaaaaa", rating: 1500, themes: ["feed", "short"]};
const b = {id: "bbbbbb", rating: 1700, themes: ["feed", "long"]};

test("the first try is the round's result; a later win fixes a failed one", () => {
  let p = readLocal(memory());
  assert.deepEqual(p, {rounds: [], storm: 0});
  p = keepRound(p, a, true, now);
  p = keepRound(p, b, false, now);
  p = keepRound(p, a, false, now); // a retry never changes the first result
  assert.deepEqual(p.rounds.map((r) => [r.id, r.win, r.fixed]), [["aaaaaa", true, false], ["bbbbbb", false, false]]);
  assert.deepEqual(toReplay(p.rounds), ["bbbbbb"]);
  p = keepRound(p, b, true, now + 1);
  assert.deepEqual(p.rounds.map((r) => [r.id, r.win, r.fixed]), [["aaaaaa", true, false], ["bbbbbb", false, true]]);
  assert.deepEqual(toReplay(p.rounds), []);
  const s = memory();
  writeLocal(s, p);
  assert.deepEqual(readLocal(s), p);
  s.setItem(STORAGE_KEY, "not json");
  assert.deepEqual(readLocal(s), {rounds: [], storm: 0});
});

test("results and the dashboard are lichess's, as the server's", () => {
  const rounds = keepRound(keepRound({rounds: [], storm: 0}, a, true, now), b, false, now - 40 * DAY).rounds;
  assert.deepEqual(results(rounds), {nb: 2, firstWins: 1, replayWins: 0, failed: 1, unfixed: 1, puzzleRatingAvg: 1600, performance: 1600});
  assert.equal(results([]).performance, 0);
  const d = localDashboard(rounds, 30, now);
  assert.equal(d.global.nb, 1); // the other is older than 30 days
  const all = localDashboard(rounds, 90, now);
  assert.deepEqual(Object.keys(all.themes), ["long", "feed", "short"]); // weakest first
  assert.equal(all.themes.long.results.performance, 1200);
  assert.equal(all.themes.short.results.performance, 2000);
  assert.deepEqual(all.weakest, ["long"]); // feed performs as the whole: not weaker
  assert.deepEqual(all.byDay.map((r) => r.nb), [1, 1]);
});

test("names, combo bonuses and the clock", () => {
  assert.equal(themeName("feederCombination"), "Feeder combination");
  assert.equal(themeName("mix"), "All themes");
  const levels = [[5, 3], [12, 5], [20, 7], [30, 10]];
  assert.deepEqual([4, 5, 12, 20, 30, 40, 41].map((n) => comboBonus(n, levels)), [0, 3, 5, 7, 10, 10, 0]);
  assert.equal(clockText(180_000), "3:00");
  assert.equal(clockText(9_001), "0:10");
  assert.equal(clockText(-5), "0:00");
});

test("the rating chart: a line through the history, a grid every 50 to 500 points, the days", () => {
  const c = ratingChart([[now - DAY, 1500], [now - DAY / 2, 1620], [now, 1580]], 640, 200);
  assert.deepEqual(c.points.map((p) => Math.round(p[0])), [44, 335, 626]);
  // in steps: the rating holds until the next try
  assert.deepEqual(c.line.map((p) => Math.round(p[0])), [44, 335, 335, 626, 626]);
  assert.equal(c.line[1][1], c.points[0][1]);
  // 1500..1620: a line every 50 from 1500 to 1650, the highest rating nearest the top
  assert.deepEqual(c.grid.map((g) => g.label), ["1500", "1550", "1600", "1650"]);
  assert.equal(c.points[0][1], c.box.bottom);
  assert.ok(c.points[1][1] < c.points[2][1] && c.points[2][1] < c.points[0][1]);
  assert.deepEqual(c.days.map((d) => d.label), ["2026-12-01", "2026-12-02"]);
  assert.equal(c.last.label, "1580");
  const flat = ratingChart([[now, 1500]], 320, 160); // no rated try: a flat line across
  assert.deepEqual(flat.line.map((p) => p[0]), [44, 306]);
  assert.equal(flat.line[0][1], flat.line[1][1]);
  assert.deepEqual(flat.days.map((d) => d.label), ["2026-12-02"]);
  const wide = ratingChart([[now - DAY, 900], [now, 2300]], 640, 200);
  assert.deepEqual(wide.grid.map((g) => g.label), ["500", "1000", "1500", "2000", "2500"]);
});
