// Built from static/page/ and static/board/ by tools/web-check/build.mjs: do not edit.
import {
  $,
  input,
  select,
  title
} from "./chunk-LJW3SSK7.js";

// ../../src/emergo/web/static/page/confirm.js
var pending = null;
function answer(yes) {
  const done = pending;
  pending = null;
  $("confirm").hidden = true;
  if (done) done(yes);
}
function initConfirm() {
  $("confirm-yes").addEventListener("click", () => answer(true));
  $("confirm-no").addEventListener("click", () => answer(false));
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && pending) answer(false);
  });
}
function ask(question, yes, no = "Cancel") {
  if (pending) answer(false);
  $("confirm-text").textContent = question;
  $("confirm-yes").textContent = yes;
  $("confirm-no").textContent = no;
  $("confirm").hidden = false;
  $("confirm-yes").focus({ preventScroll: true });
  return new Promise((resolve) => {
    pending = resolve;
  });
}
function dismiss() {
  if (pending) answer(false);
  $("confirm").hidden = true;
}

// ../../src/emergo/web/static/page/setup.js
function chosenSetup() {
  const opponent = select("opponent").value;
  const color = select("color").value;
  let other = { kind: "engine", level: Number(select("level").value) };
  if (opponent === "movetime") other = { kind: "engine", movetime: Number(select("movetime").value) };
  if (opponent === "human") other = { kind: "human", name: color === "white" ? "Black" : "White" };
  const me = { kind: "human", name: opponent === "human" ? title(color) : "You" };
  const body = { white: color === "white" ? me : other, black: color === "white" ? other : me };
  const clock = select("clock").value;
  if (clock === "fischer") body.clock = { kind: "fischer", base: Number(input("clock-base").value) * 60, increment: Number(input("clock-inc").value) };
  else if (clock === "per-move") body.clock = { kind: "per-move", base: Number(input("clock-move").value) };
  return body;
}
function sameSetup(state) {
  const player = (p) => {
    if (p.kind === "human") return { kind: "human", name: p.name };
    return p.movetime ? { kind: "engine", movetime: p.movetime } : { kind: "engine", level: p.level };
  };
  const body = { white: player(state.players.white), black: player(state.players.black) };
  const c = state.clock;
  if (c) body.clock = c.kind === "fischer" ? { kind: "fischer", base: c.base, increment: c.increment } : { kind: "per-move", base: c.base };
  return body;
}
function wireSetup() {
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

export {
  initConfirm,
  ask,
  dismiss,
  chosenSetup,
  sameSetup,
  wireSetup
};
