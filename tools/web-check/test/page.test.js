// Unit tests of the pages' pure modules: the socket's version rule, words and numbers, the tree.
import {test} from "node:test";
import assert from "node:assert/strict";
import {versionCheck} from "../../../src/emergo/web/static/page/socket.js";
import {clockText, factsText, lineNumbers, moveNumber, otherTurn, recordDate, startPosition, statusText} from "../../../src/emergo/web/static/page/format.js";
import {Tree} from "../../../src/emergo/web/static/page/tree.js";

const isState = (/** @type {any} */ m) => m.type === "state";

test("the socket takes messages in order, drops old states and resyncs on a gap", () => {
  assert.equal(versionCheck({type: "state", version: 3}, -1, isState), "take"); // the first
  assert.equal(versionCheck({type: "event", version: 4}, 3, isState), "take");
  assert.equal(versionCheck({type: "state", version: 4}, 4, isState), "take"); // the state after its event
  assert.equal(versionCheck({type: "state", version: 2}, 4, isState), "stale");
  assert.equal(versionCheck({type: "event", version: 6}, 4, isState), "gap"); // 5 was missed
  assert.equal(versionCheck({type: "event", event: "Thinking"}, 4, isState), "take"); // no version
});

test("move numbers as a record writes them", () => {
  assert.equal(moveNumber(1, "white"), "1.");
  assert.equal(moveNumber(2, "white"), "1...");
  assert.equal(moveNumber(1, "black"), "1...");
  assert.deepEqual(lineNumbers(2, "white", 3), ["1...", "2.", ""]);
  assert.deepEqual(lineNumbers(3, "white", 2), ["2.", ""]);
});

test("clocks, dates, positions", () => {
  assert.equal(clockText(245), "4:05");
  assert.equal(clockText(9.34), "0:09.3");
  assert.equal(clockText(3723), "1:02:03");
  assert.equal(clockText(-1), "0:00.0");
  assert.equal(recordDate(new Date(2026, 10, 7)), "2026.11.07");
  assert.equal(otherTurn("w 12/12 c4:w"), "b 12/12 c4:w");
  assert.equal(otherTurn("7x7 b 8/7 c4:w"), "7x7 w 8/7 c4:w");
  assert.equal(otherTurn("nonsense"), null);
  assert.equal(startPosition("9x9", 12), "w 12/12");
  assert.equal(startPosition("hex", 12), "hex w 12/12");
});

test("the status says what the position demands, or how the game ended", () => {
  const base = {turn: /** @type {const} */ ("white"), shadow: false, entrySize: 1, attacked: false, outcome: null};
  const capture = {kind: /** @type {const} */ ("capture"), path: ["e5", "e7", "c7"], text: "e5xe7xc7", checker: "", captured: 2};
  assert.match(statusText({...base, phase: "capture", moves: [capture, capture]}), /must capture 2 men .*2 routes tie/);
  assert.match(statusText({...base, phase: "enter", moves: []}), /^White to enter a man/);
  const outcome = {result: "0-1", termination: "resignation", reason: "White resigned (R20)", winner: "black"};
  assert.equal(statusText({...base, phase: "over", moves: [], outcome}), "Game over: 0-1, White resigned (R20)");
  // a spectator reads the position's facts, never a player's instruction (the review's item 8)
  assert.equal(factsText({...base, phase: "capture", moves: [capture, capture]}), "White to capture 2 men (R8, R11)");
  assert.doesNotMatch(factsText({...base, phase: "capture", moves: [capture]}), /must|chosen|choose/);
  assert.equal(factsText({...base, phase: "enter", moves: []}), "White to enter a man");
});

/** @param {string} t */
const enter = (t) => ({kind: /** @type {const} */ ("enter"), path: [t], text: t, checker: t});

test("the tree: variations, promotion, removal, the study's JSON", () => {
  const tree = Tree.line("7x7 w 8/8", "white", [enter("c4"), enter("e5")]);
  assert.deepEqual(tree.moves.map((m) => m.text), ["c4", "e5"]);
  const c4 = tree.nodes[1];
  const e3 = tree.child(c4, enter("e3")); // a variation of e5
  assert.equal(tree.child(c4, enter("e3")), e3); // a move played here before: the same node
  tree.follow(e3);
  assert.deepEqual(tree.moves.map((m) => m.text), ["c4", "e3"]);
  assert.ok(Tree.inVariation(e3));
  assert.equal(Tree.sibling(e3, 1)?.move?.text, "e5");
  e3.mark = "!?";
  e3.comment = "quiet";
  assert.deepEqual(tree.toJson(), [{move: "c4", children: [{move: "e5", children: []}, {move: "e3", children: [], comment: "quiet", mark: "!?"}]}]);
  tree.promote(e3);
  assert.deepEqual(tree.mainLine().map((n) => n.move?.text), ["c4", "e3"]);
  assert.deepEqual(tree.annotations(), {comments: {2: "quiet"}, marks: {2: "!?"}});
  tree.remove(e3);
  assert.deepEqual(tree.mainLine().map((n) => n.move?.text), ["c4", "e5"]);
  assert.equal(tree.here, c4);
  assert.deepEqual(Tree.path(tree.nodes[2]), ["c4", "e5"]);
});
