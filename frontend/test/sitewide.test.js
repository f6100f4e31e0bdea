// Unit tests of the site-wide notes' words and an unstarted game's countdown to its abort.
import {test} from "node:test";
import assert from "node:assert/strict";
import {abortLeft, abortWords} from "../src/page/online-terms.js";
import {clockText, durationText} from "../src/page/format.js";
import {challengeWords, DECLINE_CHOICES} from "../src/page/sitewide.js";

const state = (/** @type {any} */ more) => ({moves: "", wtime: 3e5, btime: 3e5, status: "started", wdraw: false, bdraw: false, wtakeback: false, btakeback: false, turn: "white", clockRunning: null, version: 0, ...more});

test("an unstarted game counts down to its abort; a started or finished one does not", () => {
  const s = state({expiration: {idleMillis: 5000, millisToMove: 30000}});
  assert.equal(abortLeft(s, 1000, 1000), 25);
  assert.equal(abortLeft(s, 1000, 11000), 15);
  assert.equal(abortLeft(s, 1000, 99000), 0);
  assert.equal(abortLeft(state({}), 0, 0), null);
  assert.equal(abortLeft(state({status: "aborted", expiration: {idleMillis: 0, millisToMove: 1}}), 0, 0), null);
  assert.equal(abortWords(14.2, "white", "white"), "15 seconds for you to play the first move, or the game is aborted");
  assert.equal(abortWords(0.5, "black", "white"), "1 second for Black to play the first move, or the game is aborted");
  assert.equal(abortWords(3, "black", null), "3 seconds for Black to play the first move, or the game is aborted");
  // a correspondence game's: days and hours, as the notices and the lobby say it (not 259126 seconds)
  assert.equal(abortWords(259126, "white", "white"), "2 days 23 hours for you to play the first move, or the game is aborted");
  assert.equal(abortWords(259200, "white", "white"), "3 days for you to play the first move, or the game is aborted");
  assert.equal(durationText(259126), "2 days 23 hours");
  assert.equal(clockText(259126), "2d 23h"); // the lobby's: the same rounding
  assert.equal(clockText(259199.6), "2d 23h");
  assert.equal(durationText(259199.6), "2 days 23 hours");
  assert.equal(durationText(5 * 60 + 59), "5 minutes");
});

test("a challenge in words for the one challenged; decline reasons are lichess's keys", () => {
  const c = {id: "Ab12Cd34", challenger: {name: "ann"}, destUser: {name: "bob"}, variant: {key: "hex"}, rated: true, timeControl: {type: "clock", limit: 300, increment: 3, show: "5+3"}, color: "white"};
  assert.equal(challengeWords(c), "ann challenges you: Hex · 5+3 · Rated · you play Black");
  assert.equal(challengeWords({...c, color: "random", rated: false, timeControl: {type: "correspondence", daysPerTurn: 3}}), "ann challenges you: Hex · 3 days a move · Casual · random colours");
  const keys = DECLINE_CHOICES.map(([key]) => key);
  assert.deepEqual(keys, ["generic", "later", "tooFast", "tooSlow", "timeControl", "rated", "casual", "variant"]);
});
