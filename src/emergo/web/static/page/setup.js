// @ts-check
/**
 * page/setup.js: a new game as the Play panel sets it up (opponent, colour, clock), as the body
 * of `POST /api/games`; and the same players again for "New game" after a game.
 */
import {input, select} from "./dom.js";
import {title} from "./format.js";

/** The players and clock chosen in the Play panel. */
export function chosenSetup() {
  const opponent = select("opponent").value;
  const color = select("color").value;
  /** @type {Record<string, unknown>} */
  let other = {kind: "engine", level: Number(select("level").value)};
  if (opponent === "movetime") other = {kind: "engine", movetime: Number(select("movetime").value)};
  if (opponent === "human") other = {kind: "human", name: color === "white" ? "Black" : "White"};
  const me = {kind: "human", name: opponent === "human" ? title(color) : "You"};
  /** @type {Record<string, unknown>} */
  const body = {white: color === "white" ? me : other, black: color === "white" ? other : me};
  const clock = select("clock").value;
  if (clock === "fischer") body.clock = {kind: "fischer", base: Number(input("clock-base").value) * 60, increment: Number(input("clock-inc").value)};
  else if (clock === "per-move") body.clock = {kind: "per-move", base: Number(input("clock-move").value)};
  return body;
}

/** The players and clock of a game's state again (for a new game like it). @param {any} state */
export function sameSetup(state) {
  /** @param {any} p */
  const player = (p) => {
    if (p.kind === "human") return {kind: "human", name: p.name};
    return p.movetime ? {kind: "engine", movetime: p.movetime} : {kind: "engine", level: p.level};
  };
  /** @type {Record<string, unknown>} */
  const body = {white: player(state.players.white), black: player(state.players.black)};
  const c = state.clock;
  if (c) body.clock = c.kind === "fischer" ? {kind: "fischer", base: c.base, increment: c.increment} : {kind: "per-move", base: c.base};
  return body;
}

/** Show the clock fields of the clock kind chosen, and the engine's level or time. */
export function wireSetup() {
  document.getElementById("new-game")?.addEventListener("submit", (e) => e.preventDefault());
  select("clock").addEventListener("change", () => {
    const v = select("clock").value;
    input("clock-base").closest("label")?.toggleAttribute("hidden", v !== "fischer");
    input("clock-inc").closest("label")?.toggleAttribute("hidden", v !== "fischer");
    input("clock-move").closest("label")?.toggleAttribute("hidden", v !== "per-move");
  });
  select("opponent").addEventListener("change", () => {
    const v = select("opponent").value;
    select("level").hidden = v !== "engine";
    select("movetime").hidden = v !== "movetime";
  });
}
