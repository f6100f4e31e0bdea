// Unit tests of the pages' pure modules: the socket's version rule, words and numbers, the tree.
import {test} from "node:test";
import assert from "node:assert/strict";
import {versionCheck} from "../src/page/socket.js";
import {clockText, durationText, factsText, lineNumbers, moveNumber, otherTurn, recordDate, startPosition, statusText} from "../src/page/format.js";
import {Tree, markOf, withMark} from "../src/page/tree.js";
import {coalesce} from "../src/page/study.js";

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

test("the tree: variations, promotion, removal, node paths, marks as NAGs, the record's JSON form", () => {
  const tree = Tree.line("7x7 w 8/8", "white", [enter("c4"), enter("e5")]);
  assert.deepEqual(tree.moves.map((m) => m.text), ["c4", "e5"]);
  const c4 = tree.nodes[1];
  const e3 = tree.child(c4, enter("e3")); // a variation of e5
  assert.equal(tree.child(c4, enter("e3")), e3); // a move played here before: the same node
  assert.equal(Tree.find(c4, enter("e3")), e3);
  tree.follow(e3);
  assert.deepEqual(tree.moves.map((m) => m.text), ["c4", "e3"]);
  assert.ok(Tree.inVariation(e3));
  assert.equal(Tree.sibling(e3, 1)?.move?.text, "e5");
  assert.deepEqual(Tree.indices(e3), [0, 1]); // the server's node path
  e3.nags = withMark(e3, "!?");
  assert.equal(markOf(e3), "!?");
  e3.nags = withMark({...e3, nags: [...e3.nags, 14]}, "?");
  assert.deepEqual(e3.nags, [2, 14]); // one mark, the other NAGs kept
  e3.comment = "quiet";
  e3.shapes = [{orig: "c4", dest: "e3", brush: "red"}, {orig: "d4", brush: "paleBlue"}];
  assert.deepEqual(tree.toJson({Variant: "7x7"}), {
    headers: {Variant: "7x7"},
    children: [{move: "c4", children: [{move: "e5", children: []},
      {move: "e3", comment: "quiet", nags: [2, 14], shapes: [{orig: "c4", dest: "e3", brush: "red"}], children: []}]}],
  });
  assert.equal(Tree.branch(e3), e3);
  assert.equal(Tree.branch(tree.nodes[1]), null);
  tree.promote(e3);
  assert.deepEqual(tree.mainLine().map((n) => n.move?.text), ["c4", "e3"]);
  tree.remove(e3);
  assert.deepEqual(tree.mainLine().map((n) => n.move?.text), ["c4", "e5"]);
  assert.equal(tree.here, c4);
  assert.deepEqual(Tree.path(tree.nodes[2]), ["c4", "e5"]);
});

// One rounding of spans of time everywhere (issue 31, defect 8): the same table as the server's
// tests/site/core/test_words.py (emergo.server.core.words.duration), and the clock agrees.
const DURATIONS = [
  [0, "no time"],
  [-5, "no time"],
  [0.2, "1 second"],
  [40, "40 seconds"],
  [59.5, "60 seconds"],
  [60, "1 minute"],
  [119, "1 minute"],
  [2530, "42 minutes"],
  [3600, "1 hour"],
  [7199, "1 hour"],
  [86400, "1 day"],
  [172764, "1 day 23 hours"],
  [172800, "2 days"],
  [277259, "3 days 5 hours"],
];

test("a span of time in words as the server says it, and the clock on the same days and hours", () => {
  for (const [seconds, words] of DURATIONS) assert.equal(durationText(Number(seconds)), words);
  assert.equal(clockText(172764), "1d 23h");
  assert.equal(clockText(172800), "2d 0h");
});

test("a tree read from the server's JSON form, with clocks by side", () => {
  const tree = Tree.fromJson({start: "w 12/12", turn: "white", comment: "start", children: [
    {move: "d7", info: enter("d7"), clock: 300, children: [
      {move: "e1", info: enter("e1"), clock: 298.5, nags: [6], children: [{move: "c7", info: enter("c7"), children: []}]},
      {move: "e9", info: enter("e9"), starting_comment: "or", children: []},
    ]},
  ]});
  assert.equal(tree.root.comment, "start");
  assert.deepEqual(tree.mainLine().map((n) => n.move?.text), ["d7", "e1", "c7"]);
  const e9 = tree.root.children[0].children[1];
  assert.equal(e9.startingComment, "or");
  assert.equal(markOf(tree.mainLine()[1]), "?!");
  assert.deepEqual(tree.clocksAt(tree.mainEnd), {white: 300, black: 298.5});
  assert.deepEqual(tree.clocksAt(e9), {white: 300, black: null});
  const json = tree.toJson({});
  assert.equal(json.comment, "start");
  assert.deepEqual(json.children[0].children.map((/** @type {any} */ c) => c.move), ["e1", "e9"]);
});

test("a study's save sends a field set twice on one node once", () => {
  const edits = [
    {op: "add", path: [], move: "d7"},
    {op: "set", path: [0], comment: "a"},
    {op: "set", path: [0], comment: "ab"},
    {op: "set", path: [0], nags: [1]},
    {op: "set", path: [0], nags: [5]},
    {op: "set", path: [1], nags: [2]},
  ];
  assert.deepEqual(coalesce(edits), [edits[0], edits[2], edits[4], edits[5]]);
});
