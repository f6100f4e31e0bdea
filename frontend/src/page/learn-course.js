// @ts-check
/**
 * page/learn-course.js: what the pages of /learn work out from the course (`GET /api/learn`)
 * and the player's stars, without the DOM (unit-tested): the catalogue's texts filled in, stars
 * merged and counted, where to continue, whether an attempt still follows the level's line (and
 * so which move a hint may show), how long the board's animation of a move takes.
 *
 * @typedef {import("../board/types.js").MoveInfo} MoveInfo
 * @typedef {{id: string, kind: string, variant: string, position: string, side: "white"|"black",
 *   prelude: {position: string, moves: string[]}|null, solution: string[], replies: string[],
 *   opponent: string, bot: number|null, targets: string[], question: {choices: {id: string, text: string}[]|null,
 *   answer: string}|null, hints: string[], done: string, view: "diamond"|"checker",
 *   names: "oblique"|"checker", available: boolean, par: number}} Level
 * @typedef {{id: string, title: string, intro: string, levels: Level[]}} Stage
 * @typedef {{stages: Stage[], texts: Record<string, string>}} Course
 * @typedef {Record<string, number>} Stars
 */

export const STORAGE_KEY = "emergo-learn";
/** The stars a level may earn. */
export const MOST = 3;

/** A catalogue text with its fields filled in (`{n} in hand`). @param {string} text @param {Record<string, string|number>} [fields] */
export function fill(text, fields = {}) {
  return text.replace(/\{([a-z]+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole));
}

/** Every level of the course, in order. @param {Course} course @returns {Level[]} */
export const levelsOf = (course) => course.stages.flatMap((s) => s.levels);

/** The stage holding a level. @param {Course} course @param {string} id */
export const stageOf = (course, id) => course.stages.find((s) => s.levels.some((l) => l.id === id)) || null;

/** Stars the course knows, each 1 to 3 (anything else in a browser's store is dropped). @param {unknown} value @param {Set<string>} [known] @returns {Stars} */
export function cleanStars(value, known) {
  /** @type {Stars} */
  const out = {};
  if (!value || typeof value !== "object") return out;
  for (const [id, stars] of Object.entries(value)) {
    if (Number.isInteger(stars) && stars >= 1 && stars <= MOST && (!known || known.has(id))) out[id] = stars;
  }
  return out;
}

/** Both sets of stars, the better of each level kept. @param {Stars} a @param {Stars} b @returns {Stars} */
export function best(a, b) {
  const out = {...a};
  for (const [id, stars] of Object.entries(b)) out[id] = Math.max(out[id] || 0, stars);
  return out;
}

/** The stars kept in this browser (a visitor's). @param {Pick<Storage, "getItem">} storage @returns {Stars} */
export function readLocal(storage) {
  try {
    return cleanStars(JSON.parse(storage.getItem(STORAGE_KEY) || "{}").levels);
  } catch {
    return {};
  }
}

/** Keep `stars` in this browser, the better of each level kept. @param {Pick<Storage, "getItem"|"setItem">} storage @param {Stars} stars */
export function writeLocal(storage, stars) {
  const all = best(readLocal(storage), stars);
  storage.setItem(STORAGE_KEY, JSON.stringify({levels: all}));
  return all;
}

/** Levels done, of how many, and the stars. @param {Course} course @param {Stars} stars */
export function summary(course, stars) {
  const levels = levelsOf(course);
  const done = levels.filter((l) => stars[l.id]);
  return {done: done.length, total: levels.length, stars: done.reduce((n, l) => n + stars[l.id], 0), most: levels.length * MOST};
}

/** Where to go on: the first level the site can play and the player has not done (the first of all when all are). @param {Course} course @param {Stars} stars */
export function continueAt(course, stars) {
  const levels = levelsOf(course).filter((l) => l.available);
  return levels.find((l) => !stars[l.id]) || levels[0] || null;
}

/** `★★☆`: a count of stars out of three. @param {number} n */
export const starsText = (n) => "★".repeat(n) + "☆".repeat(MOST - n);

/**
 * The level's line, both sides in turn: the solution's moves with the replies between them.
 * @param {Level} level @returns {string[]}
 */
export function line(level) {
  const out = [];
  for (let i = 0; i < level.solution.length; i++) {
    out.push(level.solution[i]);
    if (i < level.replies.length) out.push(level.replies[i]);
  }
  return out;
}

/**
 * The solution's next move when the attempt has followed the level's line so far (a hint may
 * show it), else null (a slower win against the tables, a game of one's own).
 * @param {Level} level @param {string[]} moves the attempt's moves, both sides
 */
export function nextSolutionMove(level, moves) {
  const want = line(level);
  if (moves.some((m, i) => want[i] !== m)) return null;
  const i = moves.length;
  if (i >= want.length) return null;
  return i % 2 === 0 ? want[i] : null; // the line's even places are the player's moves
}

/**
 * What the hint button shows after `presses`: the hints so far, and whether the move is shown
 * (the last hint names the move: it comes, with the arrow, only on the last press).
 * @param {string[]} hints @param {number} presses
 */
export function hintsShown(hints, presses) {
  const shown = Math.min(presses, hints.length);
  return {texts: hints.slice(0, shown), move: hints.length > 1 && shown === hints.length, more: shown < hints.length};
}

/**
 * The board's marks for a move: a circle on an entry, an arrow along a step or a capture.
 * @param {MoveInfo} move @param {import("../board/types.js").Brush} brush
 * @returns {import("../board/types.js").Shape}
 */
export function moveShape(move, brush) {
  if (move.kind === "enter") return {orig: move.path[0], brush};
  if (move.path.length > 2) return {orig: move.path[0], path: move.path, brush};
  return {orig: move.path[0], dest: move.path[move.path.length - 1], brush};
}

/**
 * How long the board takes to show a move (its animation, `jump` ms a leg, and a pause to see
 * it); an entry is drawn at once.
 * @param {MoveInfo} move @param {{enabled: boolean, jump: number}} animation
 */
export function showTime(move, animation) {
  if (!animation.enabled) return 0;
  const legs = move.kind === "enter" ? 0 : move.path.length - 1;
  return legs * animation.jump + 350;
}

/** A move's text as a person types it: lower case, no spaces. @param {string} text */
export const typed = (text) => text.trim().toLowerCase().replace(/\s+/g, "");
