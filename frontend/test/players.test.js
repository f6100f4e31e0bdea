// Unit tests of what issue 31 added to the pages: the move box's matching, when a move is
// confirmed, the profile's button words.
import {test} from "node:test";
import assert from "node:assert/strict";
import {matchMove} from "../src/page/game-input.js";
import {confirmsMove, settings} from "../src/page/settings.js";
import {relationWords} from "../src/page/people.js";

const moves = [
  {kind: "enter", path: ["c5"], text: "c5", checker: "b4"},
  {kind: "capture", path: ["d2", "f2", "f4"], text: "d2xf2xf4", checker: "c1xe1xe3"},
  {kind: "capture", path: ["d2", "d4", "f4"], text: "d2xd4xf4", checker: "c1xc3xe3"},
  {kind: "capture", path: ["e5", "g5"], text: "e5xg5", checker: "d4xf4"},
];

test("the move box finds a move by its text in either naming, or by its ends when they are one move's", () => {
  assert.equal(matchMove(moves, "c5")?.text, "c5");
  assert.equal(matchMove(moves, " D2xF2xF4 ")?.text, "d2xf2xf4");
  assert.equal(matchMove(moves, "c1xe1xe3")?.text, "d2xf2xf4"); // the checker naming
  assert.equal(matchMove(moves, "e5-g5")?.text, "e5xg5");
  assert.equal(matchMove(moves, "d2xf4"), null); // two routes: say which
  assert.equal(matchMove(moves, "z9"), null);
  assert.equal(matchMove(moves, ""), null);
});

test("a move is confirmed in correspondence games by default, always or never if chosen", () => {
  assert.equal(settings.confirm, "correspondence");
  assert.equal(confirmsMove("correspondence", "correspondence"), true);
  assert.equal(confirmsMove("correspondence", "live"), false);
  assert.equal(confirmsMove("always", "live"), true);
  assert.equal(confirmsMove("never", "correspondence"), false);
});

test("the profile's buttons say what a click would do", () => {
  assert.deepEqual(relationWords({following: false, blocking: false}), {follow: "Follow", block: "Block"});
  assert.deepEqual(relationWords({following: true, blocking: true}), {follow: "Unfollow", block: "Unblock"});
});
