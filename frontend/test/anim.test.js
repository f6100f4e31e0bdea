// Unit tests of board/anim.js: where the mover is, jump by jump.
import {test} from "node:test";
import assert from "node:assert/strict";
import {ease, plan, play} from "../src/board/anim.js";

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

test("finish ends a running animation at once on its last frame (a click during it is not lost)", async () => {
  /** @type {FrameRequestCallback[]} */
  const frames = [];
  const raf = globalThis.requestAnimationFrame;
  globalThis.requestAnimationFrame = (cb) => frames.push(cb);
  try {
    const drawn = [];
    const run = play(plan(capture, points, 200, 10), (f) => drawn.push(f));
    assert.equal(run.running(), true);
    frames.shift()(performance.now() + 50); // one frame in the first leg
    assert.equal(run.running(), true);
    run.finish();
    assert.equal(run.running(), false);
    assert.deepEqual(drawn[drawn.length - 1], {x: 100, y: 100, leg: 2, passed: 2});
    await run.done; // resolved by the finish, no frame needed
    const count = drawn.length;
    for (const f of frames.splice(0)) f(performance.now() + 1000); // a frame left over draws nothing
    run.finish();
    assert.equal(drawn.length, count);
  } finally {
    globalThis.requestAnimationFrame = raf;
  }
});
