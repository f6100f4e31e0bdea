// Unit tests of the opening explorer panel's pure part (page/explorer.js): the results bar's
// shares (whole percents summing to 100), the share of a move's games, a position's variant.
import {test} from "node:test";
import assert from "node:assert/strict";
import {percent, resultBar, variantOf} from "../src/page/explorer.js";

test("the bar's parts are whole percents that sum to 100, labelled when wide enough", () => {
  const parts = resultBar({white: 1, draws: 1, black: 1});
  assert.deepEqual(parts.map((p) => p.side), ["white", "draws", "black"]);
  assert.equal(parts.reduce((a, p) => a + p.share, 0), 100);
  assert.deepEqual(parts.map((p) => p.share), [34, 33, 33]);
  const lopsided = resultBar({white: 95, draws: 0, black: 5});
  assert.deepEqual(lopsided.map((p) => p.share), [95, 0, 5]);
  assert.deepEqual(lopsided.map((p) => p.label), ["95%", "", ""]);
  for (let w = 0; w < 7; w++) for (let d = 0; d < 7; d++) for (let b = 0; b < 7; b++) {
    const sum = resultBar({white: w, draws: d, black: b}).reduce((a, p) => a + p.share, 0);
    assert.equal(sum, w + d + b ? 100 : 0, `${w} ${d} ${b}`);
  }
});

test("a move's share of the games, and the variant of a position string", () => {
  assert.equal(percent(1, 3), 33);
  assert.equal(percent(2, 3), 67);
  assert.equal(percent(0, 0), 0);
  assert.equal(variantOf("w 12/12"), "9x9");
  assert.equal(variantOf("7x7 b 7/8 d3:w"), "7x7");
  assert.equal(variantOf("hex w 12/12"), "hex");
});
