// @ts-check
/**
 * page/sound.js: the page's sounds (a move, a capture, low time, the end of a game): small
 * files of our own in static/sounds/ (made by frontend/make-sounds.mjs), fetched on first
 * use and played through Web Audio; the toolbar's Sound button mutes them. The last sound asked
 * for is written on <html data-sound> (with a count), for the tests.
 */
import {settings} from "./settings.js";

/** @type {AudioContext|null} */
let context = null;
/** @type {Map<string, Promise<AudioBuffer|null>>} */
const buffers = new Map();
let count = 0;

/** @param {string} name */
function load(name) {
  let b = buffers.get(name);
  if (!b) {
    const ctx = /** @type {AudioContext} */ (context);
    b = fetch(`/static/sounds/${name}.wav`)
      .then((r) => r.arrayBuffer())
      .then((data) => ctx.decodeAudioData(data))
      .catch(() => null);
    buffers.set(name, b);
  }
  return b;
}

/** Play a sound, unless muted: "move", "capture", "low" or "end". @param {"move"|"capture"|"low"|"end"} name */
export function playSound(name) {
  if (!settings.sound) return;
  count++;
  document.documentElement.dataset.sound = `${name} ${count}`;
  try {
    context = context || new AudioContext();
    if (context.state === "suspended") context.resume().catch(() => {});
  } catch {
    return; // no audio here
  }
  const ctx = context;
  load(name).then((buffer) => {
    if (!buffer || !settings.sound) return;
    const source = ctx.createBufferSource();
    source.buffer = buffer;
    source.connect(ctx.destination);
    source.start();
  });
}
