// @ts-check
/**
 * page/confirm.js: a question asked in the page before an action that cannot be undone
 * (resign, offer a draw, abort, leave a game under way), as lichess asks: the row `#confirm`
 * with the question, a button that does it and one that does not.
 */
import {$} from "./dom.js";

/** @type {((yes: boolean) => void)|null} */
let pending = null;

function answer(/** @type {boolean} */ yes) {
  const done = pending;
  pending = null;
  $("confirm").hidden = true;
  if (done) done(yes);
}

/** Wire the row's buttons (once). */
export function initConfirm() {
  $("confirm-yes").addEventListener("click", () => answer(true));
  $("confirm-no").addEventListener("click", () => answer(false));
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && pending) answer(false);
  });
}

/**
 * Ask; true when the player confirms. A new question drops the one before (as "no").
 * @param {string} question @param {string} yes the button's word ("Resign") @param {string} [no]
 * @returns {Promise<boolean>}
 */
export function ask(question, yes, no = "Cancel") {
  if (pending) answer(false);
  $("confirm-text").textContent = question;
  $("confirm-yes").textContent = yes;
  $("confirm-no").textContent = no;
  $("confirm").hidden = false;
  $("confirm-yes").focus({preventScroll: true});
  return new Promise((resolve) => {
    pending = resolve;
  });
}

/** Drop a question still asked (the page changed under it). */
export function dismiss() {
  if (pending) answer(false);
  $("confirm").hidden = true;
}
