// Unit tests of the online pages' pure parts: the game socket's version rule (`v`, duplicates),
// a challenge's terms, and what a game's state means (its moves, result, clocks, offers).
import {test} from "node:test";
import assert from "node:assert/strict";
import {versionCheck} from "../src/page/socket.js";
import {clockText} from "../src/page/format.js";
import {clockOf, minutes, movesOf, offerOf, rematchFields, resultLine, resultOf, resultWords, ruleOf, sharedPlies, termsFields, timeControlText, UNLIMITED_MS} from "../src/page/online-terms.js";

const isFull = (/** @type {any} */ m) => m.t === "full";
const versionOf = (/** @type {any} */ m) => (m.t === "full" || m.t === "v" ? m.v : undefined);

test("the game socket: `v` in order, duplicates dropped, a gap resyncs, chat has no version", () => {
  const check = (/** @type {any} */ msg, /** @type {number} */ known) => versionCheck(msg, known, isFull, versionOf, true);
  assert.equal(check({t: "full", v: 7}, -1), "take");
  assert.equal(check({t: "v", v: 8}, 7), "take");
  assert.equal(check({t: "v", v: 8}, 8), "stale"); // sent twice (a reconnection's full, then its event)
  assert.equal(check({t: "v", v: 5}, 8), "stale");
  assert.equal(check({t: "v", v: 10}, 8), "gap");
  assert.equal(check({t: "full", v: 8}, 8), "take"); // the answer to a resync
  assert.equal(check({t: "full", v: 6}, 8), "stale");
  assert.equal(check({t: "chat", line: {id: 3}}, 8), "take");
  assert.equal(check({t: "ack", id: 3}, 8), "take"); // a command's id is not a version
  // the local app's rule is unchanged: an event of the version seen is taken
  assert.equal(versionCheck({type: "event", version: 4}, 4, (m) => m.type === "state"), "take");
});

test("a challenge's fields from the form, and its time control in words", () => {
  const form = {variant: "7x7", speed: "live", minutes: 0.5, increment: 2, days: 3, rated: true, color: "white"};
  assert.deepEqual(termsFields(form), {variant: "7x7", rated: true, color: "white", "clock.limit": 30, "clock.increment": 2});
  assert.deepEqual(termsFields({...form, speed: "correspondence"}), {variant: "7x7", rated: true, color: "white", days: 3});
  assert.deepEqual(termsFields({...form, speed: "unlimited"}), {variant: "7x7", rated: true, color: "white"});
  assert.equal(timeControlText({type: "clock", limit: 300, increment: 3, show: "5+3"}), "5+3");
  assert.equal(timeControlText({type: "clock", limit: 15, increment: 0}), "¼+0");
  assert.equal(timeControlText({type: "correspondence", daysPerTurn: 1}), "1 day a move");
  assert.equal(timeControlText({type: "correspondence", daysPerTurn: 3}), "3 days a move");
  assert.equal(timeControlText({type: "unlimited"}), "Unlimited");
  assert.equal(timeControlText(null), "Unlimited");
  assert.equal(minutes(90), "1.5");
});

/** @param {Partial<import("../src/page/online-terms.js").GameState>} s */
const state = (s) => ({moves: "", wtime: 60000, btime: 50000, status: "started", wdraw: false, bdraw: false, wtakeback: false, btakeback: false, turn: /** @type {const} */ ("white"), clockRunning: null, version: 1, ...s});

test("a state's moves, result and offers", () => {
  assert.deepEqual(movesOf(state({})), []);
  assert.deepEqual(movesOf(state({moves: "d4 e6 c5"})), ["d4", "e6", "c5"]);
  assert.equal(sharedPlies(["d4", "e6", "c5"], ["d4", "e6"]), 2); // a takeback
  assert.equal(sharedPlies(["d4", "e6"], ["d4", "e6", "c5"]), 2); // a move
  assert.equal(sharedPlies(["d4", "e6"], ["d4", "f6"]), 1);
  assert.equal(resultOf(state({})), null);
  const resigned = resultOf(state({status: "resign", winner: "black", reason: "White resigned (R20)"}));
  assert.deepEqual(resigned, {result: "0-1", termination: "resign", reason: "White resigned (R20)", winner: "black"});
  // results in words for people; the rule only for a tooltip (the player's review, item 7)
  assert.equal(resultWords(/** @type {any} */ (resigned)), "Black wins: White resigned");
  assert.equal(resultLine(/** @type {any} */ (resigned)), "0-1 · Black wins: White resigned");
  assert.equal(ruleOf(/** @type {any} */ (resigned)), "R20");
  const drawn = resultOf(state({status: "draw", reason: "draw by agreement (R19c)"}));
  assert.equal(drawn && drawn.result, "1/2-1/2");
  assert.equal(drawn && resultLine(drawn), "½-½ · Draw by agreement");
  const words = (/** @type {any} */ s) => resultWords(/** @type {any} */ (resultOf(state(s))));
  assert.equal(words({status: "mate", winner: "black", reason: "White has no pieces and no men in hand (R18)"}), "Black wins: White has no pieces left and no men in hand");
  assert.equal(words({status: "outoftime", winner: "white", reason: "Black lost on time (R20)"}), "White wins: Black ran out of time");
  assert.equal(words({status: "stalemate", reason: "the player to move has no legal move: draw (R19a)"}), "Draw: the player to move cannot move");
  assert.equal(words({status: "draw", reason: "the same position occurred three times: draw (R19b)"}), "Draw: the same position came three times");
  assert.equal(words({status: "timeout", winner: "white", reason: "Black left the game: White claimed the win (R20)"}), "White wins: Black left the game");
  for (const s of [{status: "mate", winner: "white", reason: "x (R18)"}, {status: "odd", reason: "something: draw (R19a)"}]) assert.doesNotMatch(words(s), /R\d/);
  const aborted = resultOf(state({status: "aborted", reason: "the game was aborted"}));
  assert.equal(aborted && resultWords(aborted), "Aborted: the game ended before both sides moved (no result)");
  assert.equal(aborted && ruleOf(aborted), "");
  assert.equal(offerOf(state({})), null);
  assert.deepEqual(offerOf(state({bdraw: true})), {kind: "draw", by: "black"});
  assert.deepEqual(offerOf(state({wtakeback: true})), {kind: "takeback", by: "white"});
});

test("clocks from a state: seconds, the running side, none without a clock", () => {
  const full = {clock: {initial: 300000, increment: 3000}};
  const c = clockOf(state({clockRunning: "black"}), full, 1234);
  assert.deepEqual(c, {white: 60, black: 50, running: "black", at: 1234, base: 300, control: "5+3"});
  assert.equal(clockOf(state({wtime: UNLIMITED_MS, btime: UNLIMITED_MS}), {clock: null}, 0), null);
  const days = clockOf(state({wtime: 2 * 86400000, btime: 3 * 86400000}), {clock: null, daysPerTurn: 3}, 0);
  assert.equal(days && days.base, 3 * 86400);
  assert.equal(days && days.control, "3 days a move");
  assert.equal(clockText(2 * 86400 + 3600 + 5), "2d 1h"); // a correspondence clock
  assert.equal(clockText(86399), "23:59:59");
});

test("a rematch: the same terms, the colours swapped (lichess's)", () => {
  const live = {variant: {key: "7x7"}, rated: true, clock: {initial: 300000, increment: 3000}};
  assert.deepEqual(rematchFields(live, "white"), {variant: "7x7", rated: true, color: "black", "clock.limit": 300, "clock.increment": 3});
  const corr = {variant: {key: "hex"}, rated: false, clock: null, daysPerTurn: 3};
  assert.deepEqual(rematchFields(corr, "black"), {variant: "hex", rated: false, color: "white", days: 3});
  assert.deepEqual(rematchFields({variant: {key: "9x9"}, rated: false, clock: null}, "white"), {variant: "9x9", rated: false, color: "black"});
});
