// Unit tests of board/geometry.js: the picture of the boards in both views and the hexagon.
import {test} from "node:test";
import assert from "node:assert/strict";
import {layout, S} from "../src/board/geometry.js";

import {readFileSync} from "node:fs";

/** The boards' squares as the server sends them (emergo.web.positions.geometry_data). */
const GEOMETRY = JSON.parse(readFileSync(new URL("./fixtures/geometry.json", import.meta.url), "utf8"));
const sevenBySeven = () => GEOMETRY["7x7"].squares;

const base = {size: 7, shape: /** @type {const} */ ("diamond"), view: /** @type {const} */ ("diamond"), flipped: false, coordinates: true, names: /** @type {const} */ ("oblique"), squares: sevenBySeven()};

test("the 7x7 board has 25 dark squares in a 7x7 grid", () => {
  const L = layout({...base, view: "checker"});
  assert.equal(base.squares.length, 25);
  assert.equal(L.cells().length, 49);
  assert.equal(L.cells().filter((c) => c.square).length, 25);
});

test("flipping turns the board round: a square goes to the point opposite the centre", () => {
  for (const view of /** @type {const} */ (["diamond", "checker"])) {
    const a = layout({...base, view});
    const b = layout({...base, view, flipped: true});
    for (const name of ["a4", "d4", "g4", "b3", "d1"]) {
      const p = a.point(name);
      const q = b.point(name);
      assert.ok(Math.abs(p.x + q.x - 2 * a.frame.cx) < 1e-9 && Math.abs(p.y + q.y - 2 * a.frame.cy) < 1e-9, `${view} ${name}`);
    }
  }
});

test("the centre square is drawn at the centre in both views", () => {
  for (const view of /** @type {const} */ (["diamond", "checker"])) {
    const L = layout({...base, view});
    const p = L.point("d4");
    assert.deepEqual([Math.round(p.x), Math.round(p.y)], [Math.round(L.frame.cx), Math.round(L.frame.cy)]);
  }
});

test("the diamond's oblique lines run through the squares, 7 of each family", () => {
  assert.equal(layout(base).lines().length, 14);
  assert.equal(layout({...base, view: "checker", names: "checker"}).lines().length, 0);
});

test("the middle of a jump is the square between (geometry, not rules)", () => {
  const L = layout(base);
  assert.equal(L.middle("b3", "d3"), "c3");
  assert.equal(L.middle("b3", "b5"), "b4");
  assert.equal(L.middle("b3", "c3"), null);
});

test("coordinates: letters and digits in the diamond, by the edges with checker names", () => {
  const diamond = layout(base).labels();
  assert.ok(diamond.some((l) => l.text === "a") && diamond.some((l) => l.text === "7"));
  const checker = layout({...base, view: "checker", names: "checker"}).labels();
  assert.equal(checker.length, 14);
  assert.equal(layout({...base, coordinates: false}).labels().length, 0);
});

test("checkerboard view with oblique names: each square named inside its own cell (defect 7)", () => {
  const L = layout({...base, view: "checker"});
  const labels = L.labels();
  assert.equal(labels.length, 25);
  for (const l of labels) {
    assert.ok(l.small);
    const p = L.point(l.text);
    // within the square's cell (half a side from its centre), not off the end of a diagonal
    assert.ok(Math.abs(l.p.x - p.x) < S / 2 && Math.abs(l.p.y - p.y) < S / 2, l.text);
  }
});

test("the hexagon: six-cornered cells, one picture", () => {
  const L = layout({...base, size: GEOMETRY.hex.size, shape: "hexagon", view: "checker", squares: GEOMETRY.hex.squares});
  assert.equal(GEOMETRY.hex.squares.length, 37);
  assert.equal(L.view, "hexagon");
  assert.equal(L.outline("d4").split(" ").length, 6);
  assert.deepEqual(L.lines(), []);
});

test("the keyboard cursor goes to the nearest square in a direction", () => {
  const L = layout({...base, view: "checker"});
  const up = L.neighbour("d4", 0, -1);
  assert.ok(up && L.point(up).y < L.point("d4").y);
  assert.equal(L.neighbour("a4", 0, -1), null); // a4 is in the top row of the checkerboard view
});
