// Unit tests of board/premove.js: a move queued in the opponent's turn, played if still legal.
import {test} from "node:test";
import assert from "node:assert/strict";
import {inputMoves, noPremove, premoveSquares, settle} from "../src/board/premove.js";

/** @param {string} sq */
const enter = (sq) => ({kind: /** @type {const} */ ("enter"), path: [sq], text: sq, checker: sq});
/** @param {string} text */
const step = (text) => ({kind: /** @type {const} */ ("step"), path: text.split("-"), text, checker: text});

test("a queued premove is played as the legal move with its route", () => {
  const legal = [enter("c4"), enter("d5")];
  assert.equal(settle(enter("d5"), legal), legal[1]);
});

test("a premove the new position does not allow is dropped", () => {
  assert.equal(settle(enter("e5"), [enter("c4")]), null);
  assert.equal(settle(step("c4-c5"), [enter("c5")]), null); // the same square, another kind
  assert.equal(settle(null, [enter("c4")]), null);
});

test("the player chooses from his moves in his turn, from premoves in the other's", () => {
  const mine = [enter("c4")];
  const later = [enter("d4")];
  const premovable = {...noPremove(), enabled: true, dests: later};
  assert.deepEqual(inputMoves({movable: {moves: mine}, premovable, viewOnly: false}), {moves: mine, premove: false});
  assert.deepEqual(inputMoves({movable: null, premovable, viewOnly: false}), {moves: later, premove: true});
  assert.deepEqual(inputMoves({movable: null, premovable: noPremove(), viewOnly: false}), {moves: [], premove: false});
  assert.deepEqual(inputMoves({movable: {moves: mine}, premovable, viewOnly: true}), {moves: [], premove: false});
});

test("a premove's squares are tinted once each", () => {
  assert.deepEqual(premoveSquares({kind: "capture", path: ["a1", "a3", "a1"], text: "", checker: ""}), ["a1", "a3"]);
  assert.deepEqual(premoveSquares(null), []);
});
