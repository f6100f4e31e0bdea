// Unit tests of the endgame tables' panel's pure part (page/tablebase.js) and the words of exact
// scores (page/format.js): values in words, the moves' order and labels.
import {test} from "node:test";
import assert from "node:assert/strict";
import {moveGroups, tableValue} from "../src/page/tablebase.js";
import {plies, scoreWords} from "../src/page/format.js";

/** @param {string} text @param {number} wdl @param {number} dtm */
const move = (text, wdl, dtm) => ({move: {kind: /** @type {const} */ ("step"), path: text.split("-"), text, checker: text}, wdl, dtm});

test("exact scores in words", () => {
  assert.equal(scoreWords("+win47"), "White wins in 47 plies");
  assert.equal(scoreWords("-win1"), "Black wins in 1 ply");
  assert.equal(scoreWords("draw"), "Draw");
  assert.equal(scoreWords("+0.35"), null);
  assert.equal(scoreWords("0.00"), null);
  assert.equal(plies(2), "2 plies");
});

test("the position's value names the winner, from the player to move's wdl", () => {
  const won = {wdl: 1, dtm: 47, text: "", moves: []};
  assert.equal(tableValue(won, "white"), "White wins in 47 plies");
  assert.equal(tableValue(won, "black"), "Black wins in 47 plies");
  assert.equal(tableValue({wdl: -1, dtm: -12, text: "", moves: []}, "white"), "Black wins in 12 plies");
  assert.equal(tableValue({wdl: -1, dtm: -1, text: "", moves: []}, "black"), "White wins in 1 ply");
  assert.equal(tableValue({wdl: 0, dtm: 0, text: "", moves: []}, "black"), "Draw");
});

test("winning moves first by distance, then drawing, then losing (the longest loss first)", () => {
  const tb = {
    wdl: 1,
    dtm: 41,
    text: "",
    moves: [move("a1-a2", -1, -10), move("b1-b2", 0, 0), move("c1-c2", 1, 51), move("d1-d2", -1, -52), move("e1-e2", 1, 41)],
  };
  const groups = moveGroups(tb);
  assert.deepEqual(groups.map((g) => g.kind), ["win", "draw", "loss"]);
  assert.deepEqual(groups.map((g) => g.moves.map((m) => m.move.text)), [["e1-e2", "c1-c2"], ["b1-b2"], ["d1-d2", "a1-a2"]]);
  assert.deepEqual(groups[0].moves.map((m) => m.label), ["win in 41 plies", "win in 51 plies"]);
  assert.equal(groups[1].moves[0].label, "draw");
  assert.deepEqual(groups[2].moves.map((m) => m.label), ["loss in 52 plies", "loss in 10 plies"]);
  // a drawn position: no winning group at all
  assert.deepEqual(moveGroups({wdl: 0, dtm: 0, text: "", moves: [move("a1-a2", 0, 0)]}).map((g) => g.kind), ["draw"]);
});
