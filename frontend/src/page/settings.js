// @ts-check
/**
 * page/settings.js: the page's settings (view, naming, theme, coordinates, animation, flip,
 * sound) and the appearance (board colours, piece style, board size, zen mode, move
 * confirmation), kept with the account when one is signed in (`/api/settings`) and for a
 * visitor in this browser (`keepSettings`), and shown on the toolbar's buttons and the
 * Appearance panel the page has. The appearance is CSS: data attributes on `<html>`
 * (`data-board`, `data-pieces`, `data-size`, `data-zen`) that style.css reads.
 *
 * @typedef {{view: "diamond"|"checker", names: "oblique"|"checker", theme: "light"|"dark",
 *   coordinates: boolean, animation: boolean, flipped: boolean, sound: boolean,
 *   board: "wood"|"blue"|"green"|"grey", pieces: "classic"|"flat"|"ring",
 *   size: "s"|"m"|"l"|"xl", zen: boolean, confirm: "correspondence"|"always"|"never"}} Settings
 */
import {api} from "./api.js";

/** @type {Settings} */
export const settings = {
  view: "diamond",
  names: "oblique",
  theme: "light",
  coordinates: true,
  animation: true,
  flipped: false,
  sound: true,
  board: "wood",
  pieces: "classic",
  size: "m",
  zen: false,
  // lichess confirms a correspondence move by default: a day's move is not clicked by mistake
  confirm: "correspondence",
};

/** The appearance's choices, as the panel offers them (the server's user/preferences.py holds the same). */
export const APPEARANCE = {
  board: [["wood", "Wood"], ["blue", "Blue"], ["green", "Green"], ["grey", "Grey"]],
  pieces: [["classic", "Classic"], ["flat", "Flat"], ["ring", "Ring"]],
  size: [["s", "Small"], ["m", "Medium"], ["l", "Large"], ["xl", "Largest"]],
  confirm: [["correspondence", "In correspondence games"], ["always", "Always"], ["never", "Never"]],
};

/** Must a move of a game of this speed be confirmed? @param {Settings["confirm"]} choice @param {string} speed */
export const confirmsMove = (choice, speed) => choice === "always" || (choice === "correspondence" && speed === "correspondence");

/** @type {Set<() => void>} */
const listeners = new Set();

const BROWSER_KEY = "emergo-settings";

const readBrowser = () => {
  try {
    return JSON.parse(localStorage.getItem(BROWSER_KEY) || "{}");
  } catch {
    return {};
  }
};

/** Where the settings are kept: the account's (signed in) or this browser's. */
let keep = {
  /** @returns {Promise<Partial<Settings>>} */
  load: async () => readBrowser(),
  /** @param {Partial<Settings>} change */
  save: async (change) => localStorage.setItem(BROWSER_KEY, JSON.stringify({...readBrowser(), ...change})),
};

/** Keep the settings with the account (`/api/settings`) when `signedIn`, else in this browser. @param {boolean} signedIn */
export function keepSettings(signedIn) {
  if (!signedIn) return;
  keep = {
    load: () => api("/api/settings"),
    save: (change) => api("/api/settings", change, "PUT"),
  };
}

/** Call `f` after every change of the settings (until the returned function is called). @param {() => void} f */
export function onSettings(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

/** The board's part of the settings. */
export const boardSettings = () => ({
  view: settings.view,
  names: settings.names,
  coordinates: settings.coordinates,
  flipped: settings.flipped,
  animation: {enabled: settings.animation, jump: 220},
});

/** Show the settings (theme, pressed buttons) and tell the page. */
export function applySettings() {
  const root = document.documentElement;
  root.dataset.theme = settings.theme;
  root.dataset.board = settings.board;
  root.dataset.pieces = settings.pieces;
  root.dataset.size = settings.size;
  root.dataset.zen = settings.zen ? "1" : "0";
  for (const key of /** @type {const} */ (["board", "pieces", "size", "confirm"])) {
    const field = /** @type {HTMLSelectElement|null} */ (document.getElementById(`appearance-${key}`));
    if (field) field.value = settings[key];
  }
  const zen = /** @type {HTMLInputElement|null} */ (document.getElementById("appearance-zen"));
  if (zen) zen.checked = settings.zen;
  /** @type {[string, boolean][]} */
  const pressed = [
    ["view", settings.view === "checker"],
    ["flip", settings.flipped],
    ["coords", settings.coordinates],
    ["names", settings.names === "checker"],
    ["anim", settings.animation],
    ["theme", settings.theme === "dark"],
    ["sound", settings.sound],
    ["zen", settings.zen],
  ];
  for (const [id, on] of pressed) document.getElementById(id)?.setAttribute("aria-pressed", String(on));
  for (const f of listeners) f();
}

/** Change settings, show them, and keep them. @param {Partial<Settings>} change @param {boolean} [save] */
export function changeSettings(change, save = true) {
  Object.assign(settings, change);
  applySettings();
  if (save) keep.save(change).catch(() => {});
}

/** The stored settings, then those the address asks for (`?view=checker&flip=1` ...). @param {URLSearchParams} params */
export async function loadSettings(params) {
  try {
    Object.assign(settings, await keep.load());
  } catch {
    // the defaults will do
  }
  for (const key of /** @type {(keyof Settings)[]} */ (["view", "names", "theme"])) {
    const value = params.get(key);
    if (value) Object.assign(settings, {[key]: value});
  }
  if (params.has("flip")) settings.flipped = params.get("flip") === "1";
  if (params.has("animation")) settings.animation = params.get("animation") === "1";
  if (params.has("sound")) settings.sound = params.get("sound") === "1";
}

/**
 * Fill and wire the Appearance panel, where the page has one (an empty `<details
 * id="appearance">`): a select for the board's colours, the pieces, the board's size and the
 * move confirmation, and a checkbox for zen mode; a change is shown at once and kept (the
 * account's, or this browser's).
 */
export function wireAppearance() {
  const panel = document.getElementById("appearance");
  if (!panel || panel.querySelector("select")) return;
  const summary = document.createElement("summary");
  summary.textContent = "Appearance";
  const box = document.createElement("div");
  box.className = "appearance-fields";
  /** @type {[keyof typeof APPEARANCE, string][]} */
  const fields = [["board", "Board"], ["pieces", "Pieces"], ["size", "Board size"], ["confirm", "Confirm moves"]];
  for (const [key, text] of fields) {
    const label = document.createElement("label");
    const field = document.createElement("select");
    field.id = `appearance-${key}`;
    for (const [value, words] of APPEARANCE[key]) field.append(new Option(words, value));
    field.value = settings[key];
    field.addEventListener("change", () => changeSettings({[key]: field.value}));
    label.append(`${text} `, field);
    box.append(label);
  }
  const zenLabel = document.createElement("label");
  const zen = document.createElement("input");
  zen.type = "checkbox";
  zen.id = "appearance-zen";
  zen.checked = settings.zen;
  zen.addEventListener("change", () => changeSettings({zen: zen.checked}));
  zenLabel.append(zen, " Zen mode: only the board and the clocks (z)");
  box.append(zenLabel);
  panel.replaceChildren(summary, box);
}
