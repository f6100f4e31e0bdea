// Unit tests of page/tv.js: what the TV panel does with each answer of /api/tv.
import {test} from "node:test";
import assert from "node:assert/strict";
import {tvChange} from "../src/page/tv.js";

const game = (id, n) => ({id, url: `/game/${id}`, variant: "9x9", white: {name: "a", rating: 1500}, black: {name: "b", rating: 1500}, initialFen: "w 12/12", moves: Array(n).fill("d4")});

test("TV switches to another game, follows the moves of its own, hides when none is played", () => {
  assert.equal(tvChange(null, null), "none");
  assert.equal(tvChange(null, game("A", 0)), "switch");
  assert.equal(tvChange({id: "A", moves: 0}, game("A", 0)), "none");
  assert.equal(tvChange({id: "A", moves: 0}, game("A", 1)), "moves");
  assert.equal(tvChange({id: "A", moves: 3}, game("B", 3)), "switch"); // A ended: the next best
  assert.equal(tvChange({id: "B", moves: 3}, null), "hide");
});
