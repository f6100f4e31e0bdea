// @ts-check
/**
 * page/settings.js: the page's settings (view, naming, theme, coordinates, animation, flip,
 * sound), kept in the server's store (`/api/settings`) and shown on the toolbar's buttons.
 *
 * @typedef {{view: "diamond"|"checker", names: "oblique"|"checker", theme: "light"|"dark",
 *   coordinates: boolean, animation: boolean, flipped: boolean, sound: boolean}} Settings
 */
import {api} from "./api.js";
import {$} from "./dom.js";

/** @type {Settings} */
export const settings = {view: "diamond", names: "oblique", theme: "light", coordinates: true, animation: true, flipped: false, sound: true};

/** @type {Set<() => void>} */
const listeners = new Set();

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
  for (const [id, on] of pressed) $(id).setAttribute("aria-pressed", String(on));
  for (const f of listeners) f();
}

/** Change settings, show them, and keep them. @param {Partial<Settings>} change @param {boolean} [keep] */
export function changeSettings(change, keep = true) {
  Object.assign(settings, change);
  applySettings();
  if (keep) api("/api/settings", change, "PUT").catch(() => {});
}

/** The stored settings, then those the address asks for (`?view=checker&flip=1` ...). @param {URLSearchParams} params */
export async function loadSettings(params) {
  try {
    Object.assign(settings, await api("/api/settings"));
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
