// Unit tests of board/shapes.js: arrows and circles drawn with the right button.
import {test} from "node:test";
import assert from "node:assert/strict";
import {arrow, brushOf, shapeSquares, toggle} from "../src/board/shapes.js";

const keys = {shiftKey: false, altKey: false, ctrlKey: false, metaKey: false};

test("the modifier keys choose the brush, as on lichess", () => {
  assert.equal(brushOf(keys), "green");
  assert.equal(brushOf({...keys, shiftKey: true}), "red");
  assert.equal(brushOf({...keys, altKey: true}), "blue");
  assert.equal(brushOf({...keys, shiftKey: true, altKey: true}), "yellow");
});

test("drawing a shape adds it; again removes it; another colour recolours it", () => {
  const a = {orig: "c4", dest: "e6", brush: /** @type {const} */ ("green")};
  let shapes = toggle([], a);
  assert.deepEqual(shapes, [a]);
  shapes = toggle(shapes, {...a, brush: "red"});
  assert.deepEqual(shapes, [{...a, brush: "red"}]);
  assert.deepEqual(toggle(shapes, {...a, brush: "red"}), []);
  const ring = {orig: "c4", brush: /** @type {const} */ ("green")};
  assert.equal(toggle(toggle([], ring), a).length, 2); // a circle and an arrow from it differ
});

test("a shape's squares: a circle, an arrow, a route", () => {
  assert.deepEqual(shapeSquares({orig: "c4", brush: "green"}), ["c4"]);
  assert.deepEqual(shapeSquares({orig: "c4", dest: "c4", brush: "green"}), ["c4"]);
  assert.deepEqual(shapeSquares({orig: "c4", dest: "e6", brush: "green"}), ["c4", "e6"]);
  assert.deepEqual(shapeSquares({orig: "e4", path: ["e4", "c4", "c6"], brush: "blue"}), ["e4", "c4", "c6"]);
});

test("an arrow's head ends at the last point and its shaft stops at the head", () => {
  const {shaft, head} = arrow([{x: 0, y: 0}, {x: 100, y: 0}], 8);
  const [tip, left, right] = head;
  assert.ok(tip.x < 100 && tip.x > 90 && tip.y === 0);
  assert.equal(shaft[1].x, left.x);
  assert.ok(left.y > 0 && right.y < 0);
  assert.equal(shaft[0].x, 0);
  const bent = arrow([{x: 0, y: 0}, {x: 50, y: 0}, {x: 50, y: 50}], 8);
  assert.equal(bent.shaft.length, 3);
  assert.ok(bent.head[0].y > 40 && bent.head[0].x === 50); // the last leg points down
});
