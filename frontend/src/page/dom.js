// @ts-check
/** page/dom.js: finding and making the page's elements. */

/** The element with this id (the page's own markup: a missing one is a bug). @param {string} id @returns {HTMLElement} */
export function $(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`no element #${id}`);
  return el;
}

/** @param {string} id */
export const input = (id) => /** @type {HTMLInputElement} */ ($(id));
/** @param {string} id */
export const select = (id) => /** @type {HTMLSelectElement} */ ($(id));
/** @param {string} id */
export const buttonEl = (id) => /** @type {HTMLButtonElement} */ ($(id));

/**
 * An element with a class and a text.
 * @param {string} tag @param {string} [cls] @param {string} [text]
 */
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** A button that runs `action`. @param {string} label @param {() => void} action @param {string} [cls] */
export function button(label, action, cls) {
  const b = /** @type {HTMLButtonElement} */ (el("button", cls, label));
  b.type = "button";
  b.addEventListener("click", action);
  return b;
}

/** Show a message under the board: an error (red) or a note. @param {string} text @param {boolean} [error] */
export function say(text, error = true) {
  const m = $("message");
  m.textContent = text;
  m.classList.toggle("info", !error);
}

/** @param {unknown} e */
export const errorText = (e) => (e instanceof Error ? e.message : String(e));

/**
 * Run `action` on a click of `b`, the button disabled until it is done: a double click makes one
 * request (the server also gives the same seek or game back for the same terms).
 * @param {HTMLElement} b @param {() => Promise<unknown>|unknown} action
 */
export function onceAtATime(b, action) {
  const button = /** @type {HTMLButtonElement} */ (b);
  button.addEventListener("click", async () => {
    if (button.disabled) return;
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    try {
      await action();
    } finally {
      button.disabled = false;
      button.removeAttribute("aria-busy");
    }
  });
}
