// Unit tests of page/event.js: the countdown's words.
import {test} from "node:test";
import assert from "node:assert/strict";
import {leftText} from "../src/page/event.js";

test("the countdown says minutes and seconds, hours when there are any, never below zero", () => {
  assert.equal(leftText(65), "1:05");
  assert.equal(leftText(3600 + 5 * 60 + 9.7), "1:05:09");
  assert.equal(leftText(-3), "0:00");
});
