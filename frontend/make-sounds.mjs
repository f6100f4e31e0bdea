// Writes the page's sounds (src/emergo/server/static/sounds/*.wav): short tones of our own, made
// here from sine waves, 16-bit mono at 16 kHz (a few kB each). Run again after changing them:
//     node tools/web-check/make-sounds.mjs
import {writeFileSync, mkdirSync} from "node:fs";

const RATE = 16000;
const out = new URL("../src/emergo/server/static/sounds/", import.meta.url);

/**
 * Notes one after another: [frequency Hz, seconds, loudness 0..1]; each with a quick attack and
 * an exponential decay, a little of the octave above for a wooden knock.
 * @param {[number, number, number][]} notes
 */
function tone(notes) {
  const samples = [];
  for (const [f, seconds, loud] of notes) {
    const n = Math.round(seconds * RATE);
    for (let i = 0; i < n; i++) {
      const t = i / RATE;
      const envelope = Math.min(1, t / 0.004) * Math.exp((-5 * t) / seconds);
      const wave = Math.sin(2 * Math.PI * f * t) + 0.35 * Math.sin(4 * Math.PI * f * t);
      samples.push(loud * envelope * wave * 0.6);
    }
  }
  return samples;
}

/** @param {number[]} samples */
function wav(samples) {
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((s, i) => data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, s)) * 32767), i * 2));
  const head = Buffer.alloc(44);
  head.write("RIFF", 0);
  head.writeUInt32LE(36 + data.length, 4);
  head.write("WAVEfmt ", 8);
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20); // PCM
  head.writeUInt16LE(1, 22); // mono
  head.writeUInt32LE(RATE, 24);
  head.writeUInt32LE(RATE * 2, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write("data", 36);
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}

const SOUNDS = {
  move: tone([[660, 0.07, 0.8]]),
  capture: tone([[520, 0.06, 0.9], [390, 0.09, 0.9]]),
  low: tone([[880, 0.08, 0.6], [880, 0.08, 0.6]]),
  end: tone([[523, 0.12, 0.7], [659, 0.12, 0.7], [784, 0.22, 0.7]]),
};

mkdirSync(out, {recursive: true});
for (const [name, samples] of Object.entries(SOUNDS)) writeFileSync(new URL(`${name}.wav`, out), wav(samples));
