// Unit tests of board/routes.js: choosing a move from the routes the page allows.
import {test} from "node:test";
import assert from "node:assert/strict";
import {advance, candidates, click, destinations, sameRoute, startsMove} from "../src/board/routes.js";

/** @param {string} text */
const capture = (text) => ({kind: /** @type {const} */ ("capture"), path: text.split("x"), text, checker: text});
/** @param {string} text */
const step = (text) => ({kind: /** @type {const} */ ("step"), path: text.split("-"), text, checker: text});
/** @param {string} sq */
const enter = (sq) => ({kind: /** @type {const} */ ("enter"), path: [sq], text: sq, checker: sq});

// Two capture routes of one length tie (R11): e5xe7xc7 and e5xe7xg7 share their first landing.
const TIED = [capture("e5xe7xc7"), capture("e5xe7xg7")];

test("a click on the capturing piece takes the landing every route shares", () => {
  assert.deepEqual(click(TIED, [], "e5"), {type: "route", prefix: ["e5", "e7"]});
  assert.deepEqual(destinations(TIED, ["e5", "e7"]), ["c7", "g7"]);
});

test("clicking the shared landing again keeps the selection and says what to choose (defect 4)", () => {
  const action = click(TIED, ["e5", "e7"], "e7");
  assert.equal(action.type, "keep");
  assert.match(/** @type {{note: string}} */ (action).note, /choose c7 or g7/);
});

test("a tied route is chosen by its own landing", () => {
  assert.deepEqual(click(TIED, ["e5", "e7"], "g7"), {type: "play", move: TIED[1]});
});

test("the selected piece clicked again lets go", () => {
  assert.deepEqual(click(TIED, ["e5", "e7"], "e5"), {type: "cancel"});
});

test("an entry is played by one click", () => {
  const moves = [enter("c4"), enter("d5")];
  assert.deepEqual(click(moves, [], "d5"), {type: "play", move: moves[1]});
  assert.deepEqual(click(moves, [], "e5"), {type: "none"});
});

test("a step: the piece, then its destination", () => {
  const moves = [step("c4-c5"), step("c4-d4"), step("e5-e6")];
  assert.ok(startsMove(moves, "c4") && !startsMove(moves, "c5"));
  assert.deepEqual(click(moves, [], "c4"), {type: "route", prefix: ["c4"]});
  assert.deepEqual(click(moves, ["c4"], "d4"), {type: "play", move: moves[1]});
  assert.deepEqual(click(moves, ["c4"], "e5"), {type: "route", prefix: ["e5"]}); // another piece
  assert.deepEqual(click(moves, ["c4"], "a1"), {type: "cancel"});
});

test("a drop further along a route is taken when one way leads there", () => {
  const inventor = [capture("h4xf4xd4")];
  assert.deepEqual(click(inventor, ["h4"], "d4"), {type: "play", move: inventor[0]});
  const two = [capture("a1xa3xc3"), capture("a1xc1xc3")];
  assert.deepEqual(click(two, ["a1"], "c3"), {type: "ambiguous", square: "c3"});
});

test("advance stops where routes part, and at a route that may end", () => {
  const routes = [capture("a1xa3xa5xc5"), capture("a1xa3xa5xa7")];
  assert.deepEqual(advance(routes, ["a1"]), {type: "route", prefix: ["a1", "a3", "a5"]});
  const ends = [capture("a1xa3"), capture("a1xa3xa5")];
  assert.deepEqual(advance(ends, ["a1"]), {type: "route", prefix: ["a1"]});
  assert.equal(candidates(ends, ["a1", "a3"]).length, 2);
});

test("sameRoute finds a move by its squares", () => {
  const moves = [step("c4-c5"), enter("c4")];
  assert.equal(sameRoute(moves, step("c4-c5")), moves[0]);
  assert.equal(sameRoute(moves, step("c4-d4")), null);
});
