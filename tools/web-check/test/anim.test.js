// Unit tests of board/anim.js: where the mover is, jump by jump.
import {test} from "node:test";
import assert from "node:assert/strict";
import {ease, plan} from "../../../src/emergo/web/static/board/anim.js";

const capture = {kind: /** @type {const} */ ("capture"), path: ["a", "b", "c"], text: "", checker: ""};
const points = [{x: 0, y: 0}, {x: 100, y: 0}, {x: 100, y: 100}];

test("easing starts and ends still", () => {
  assert.equal(ease(0), 0);
  assert.equal(ease(1), 1);
  assert.equal(ease(0.5), 0.5);
});

test("a capture takes one jump time a leg and ends on the last landing", () => {
  const p = plan(capture, points, 200, 10);
  assert.equal(p.duration, 400);
  assert.deepEqual(p.at(-5), {x: 0, y: 0, leg: 0, passed: 0}); // a frame before the start
  const mid = p.at(100);
  assert.equal(mid.x, 50);
  assert.equal(mid.y, -10); // lifted over the jumped piece
  assert.equal(p.at(90).passed, 0);
  assert.equal(p.at(110).passed, 1); // past the middle of the first leg: the first piece flashes
  assert.deepEqual(p.at(1000), {x: 100, y: 100, leg: 2, passed: 2});
});

test("a step glides without a lift and flashes nothing", () => {
  const p = plan({...capture, kind: "step", path: ["a", "b"]}, points.slice(0, 2), 200, 10);
  assert.equal(p.duration, 200);
  assert.deepEqual(p.at(100), {x: 50, y: 0, leg: 0, passed: 0});
});
