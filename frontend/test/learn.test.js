// Unit tests of page/learn-course.js: what the pages of /learn work out from the course and the stars.
import {test} from "node:test";
import assert from "node:assert/strict";
import {best, cleanStars, continueAt, fill, hintsShown, line, moveShape, nextSolutionMove, readLocal, showTime, starsText, STORAGE_KEY, summary, typed, writeLocal} from "../src/page/learn-course.js";

/** @param {string} id @param {Partial<import("../src/page/learn-course.js").Level>} [more] */
const level = (id, more = {}) => /** @type {any} */ ({id, available: true, solution: [], replies: [], ...more});
const course = /** @type {any} */ ({
  stages: [
    {id: "a", levels: [level("a/1"), level("a/2")]},
    {id: "b", levels: [level("b/1", {available: false}), level("b/2")]},
  ],
  texts: {},
});

/** A storage in memory, as localStorage. */
function memory() {
  /** @type {Map<string, string>} */
  const m = new Map();
  return {getItem: (/** @type {string} */ k) => m.get(k) ?? null, setItem: (/** @type {string} */ k, /** @type {string} */ v) => void m.set(k, v), m};
}

test("a catalogue text gets its fields, and keeps a brace it does not know", () => {
  assert.equal(fill("{n} in hand", {n: 3}), "3 in hand");
  assert.equal(fill("{done} of {total}", {done: 1, total: 9}), "1 of 9");
  assert.equal(fill("{x} stays", {}), "{x} stays");
});

test("stars: only whole 1 to 3 of known levels; the better kept", () => {
  const known = new Set(["a/1", "a/2"]);
  assert.deepEqual(cleanStars({"a/1": 3, "a/2": 0, "z/9": 2, "b/1": "3"}, known), {"a/1": 3});
  assert.deepEqual(cleanStars({"a/1": 2.5, "a/2": 4}), {});
  assert.deepEqual(cleanStars(null), {});
  assert.deepEqual(best({"a/1": 3, "a/2": 1}, {"a/1": 1, "a/2": 2, "b/2": 1}), {"a/1": 3, "a/2": 2, "b/2": 1});
  assert.equal(starsText(2), "★★☆");
});

test("the browser's store: read, merged on write, nonsense ignored", () => {
  const s = memory();
  assert.deepEqual(readLocal(s), {});
  writeLocal(s, {"a/1": 1});
  writeLocal(s, {"a/1": 3, "a/2": 2});
  writeLocal(s, {"a/1": 2});
  assert.deepEqual(readLocal(s), {"a/1": 3, "a/2": 2});
  s.setItem(STORAGE_KEY, "{not json");
  assert.deepEqual(readLocal(s), {});
});

test("how far the player is, and where to go on (levels the site cannot play skipped)", () => {
  assert.deepEqual(summary(course, {"a/1": 3, "b/2": 2}), {done: 2, total: 4, stars: 5, most: 12});
  assert.equal(continueAt(course, {})?.id, "a/1");
  assert.equal(continueAt(course, {"a/1": 1, "a/2": 3})?.id, "b/2");
  assert.equal(continueAt(course, {"a/1": 1, "a/2": 3, "b/2": 1})?.id, "a/1"); // all done: from the start
});

test("a hint shows the solution's move only while the attempt follows the line", () => {
  const weak = level("feed/weak-piece", {solution: ["f4-f5", "h5xf5"], replies: ["e5xg5"]});
  assert.deepEqual(line(weak), ["f4-f5", "e5xg5", "h5xf5"]);
  assert.equal(nextSolutionMove(weak, []), "f4-f5");
  assert.equal(nextSolutionMove(weak, ["f4-f5", "e5xg5"]), "h5xf5");
  assert.equal(nextSolutionMove(weak, ["f4-f5"]), null); // the reply's turn
  assert.equal(nextSolutionMove(weak, ["f4-e4", "e5xg5"]), null); // off the line
  assert.equal(nextSolutionMove(weak, ["f4-f5", "e5xg5", "h5xf5"]), null); // done
});

test("hints: the idea first, the move on the last press", () => {
  const two = ["the idea", "the move"];
  assert.deepEqual(hintsShown(two, 0), {texts: [], move: false, more: true});
  assert.deepEqual(hintsShown(two, 1), {texts: ["the idea"], move: false, more: true});
  assert.deepEqual(hintsShown(two, 2), {texts: two, move: true, more: false});
  assert.deepEqual(hintsShown(two, 5), {texts: two, move: true, more: false});
  assert.deepEqual(hintsShown(["only words"], 1), {texts: ["only words"], move: false, more: false});
});

test("marks and timing of a move on the board", () => {
  const enter = /** @type {any} */ ({kind: "enter", path: ["e5"]});
  const step = /** @type {any} */ ({kind: "step", path: ["f4", "f5"]});
  const capture = /** @type {any} */ ({kind: "capture", path: ["h6", "f6", "d6", "d4"]});
  assert.deepEqual(moveShape(enter, "green"), {orig: "e5", brush: "green"});
  assert.deepEqual(moveShape(step, "green"), {orig: "f4", dest: "f5", brush: "green"});
  assert.deepEqual(moveShape(capture, "green"), {orig: "h6", path: capture.path, brush: "green"});
  assert.equal(showTime(capture, {enabled: true, jump: 200}), 950);
  assert.equal(showTime(enter, {enabled: true, jump: 200}), 350);
  assert.equal(showTime(capture, {enabled: false, jump: 200}), 0);
  assert.equal(typed(" H5 x F5 "), "h5xf5");
});
