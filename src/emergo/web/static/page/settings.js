// @ts-check
/**
 * page/settings.js: the page's settings (view, naming, theme, coordinates, animation, flip,
 * sound), kept in the local app's store (`/api/settings`) or, on the online site, in this
 * browser (`keepSettingsInBrowser`), and shown on the toolbar's buttons the page has.
 *
 * @typedef {{view: "diamond"|"checker", names: "oblique"|"checker", theme: "light"|"dark",
 *   coordinates: boolean, animation: boolean, flipped: boolean, sound: boolean}} Settings
 */
import {api} from "./api.js";

/** @type {Settings} */
export const settings = {view: "diamond", names: "oblique", theme: "light", coordinates: true, animation: true, flipped: false, sound: true};

/** @type {Set<() => void>} */
const listeners = new Set();

const BROWSER_KEY = "emergo-settings";

/** Where the settings are kept: the local app's server store. */
let keep = {
  load: () => api("/api/settings"),
  /** @param {Partial<Settings>} change */
  save: (change) => api("/api/settings", change, "PUT"),
};

/** Keep the settings in this browser (localStorage): the online site has no settings store. */
export function keepSettingsInBrowser() {
  const read = () => {
    try {
      return JSON.parse(localStorage.getItem(BROWSER_KEY) || "{}");
    } catch {
      return {};
    }
  };
  keep = {
    load: async () => read(),
    save: async (change) => localStorage.setItem(BROWSER_KEY, JSON.stringify({...read(), ...change})),
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
  document.documentElement.dataset.theme = settings.theme;
  /** @type {[string, boolean][]} */
  const pressed = [
    ["view", settings.view === "checker"],
    ["flip", settings.flipped],
    ["coords", settings.coordinates],
    ["names", settings.names === "checker"],
    ["anim", settings.animation],
    ["theme", settings.theme === "dark"],
    ["sound", settings.sound],
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
