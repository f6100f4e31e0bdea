// Unit tests of board/state.js: how a config changes the board's state.
import {test} from "node:test";
import assert from "node:assert/strict";
import {configure, defaults} from "../src/board/state.js";

test("a config replaces top-level keys and merges the nested ones key by key", () => {
  const state = defaults();
  const move = () => {};
  configure(state, {flipped: true, events: {move}, drawable: {shapes: [{orig: "c4", brush: "green"}]}, animation: {jump: 100}});
  assert.equal(state.flipped, true);
  assert.equal(state.events.move, move);
  assert.equal(state.drawable.enabled, true); // kept
  assert.equal(state.drawable.shapes.length, 1);
  assert.deepEqual(state.animation, {enabled: true, jump: 100});
});

test("what a config changed: the squares, the position, the frame", () => {
  const state = defaults();
  assert.deepEqual(configure(state, {pieces: {}}), {squares: false, position: true, frame: false});
  assert.deepEqual(configure(state, {movable: null}), {squares: false, position: true, frame: false});
  assert.deepEqual(configure(state, {view: "checker"}), {squares: false, position: false, frame: true});
  assert.deepEqual(configure(state, {squares: []}), {squares: true, position: false, frame: true});
  assert.deepEqual(configure(state, {animate: true}), {squares: false, position: false, frame: false});
  assert.equal("animate" in state, false);
});

test("each board has its own state", () => {
  const a = defaults();
  const b = defaults();
  a.drawable.shapes.push({orig: "c4", brush: "green"});
  assert.equal(b.drawable.shapes.length, 0);
});
