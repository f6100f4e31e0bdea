// @ts-check
/**
 * page/learn.js: the pages of /learn (docs/learn.md), as lichess's Learn: the course map with
 * the player's stars, and a level played on the board. Both are server-rendered shells in the
 * site's frame; this controller fills them from `GET /api/learn` (the course and the pages'
 * words: no word of the page is written here) and plays a level step by step with
 * `POST /api/learn/judge`, which keeps nothing: the page holds the attempt (the moves both
 * sides played and the mistakes) and sends it with each new move or answer.
 *
 * A level: its goal beside the board, the targets ringed; a move by click, drag, the board's
 * keyboard or typed as text; a refused move's reason (the rule's) and a wrong move's (the
 * goal's) said in words next to the board, the wrong move shown and taken back by Retry (R);
 * the opponent's reply played with the board's animation; a hint that gives the idea first and
 * the move (an arrow) only on a further press (?); at the end the stars and the next level,
 * one press away (Enter, space, → or N), and a replay of the level's line. A practice level
 * against a house bot starts a real game from its position (`POST /api/learn/practice`), which
 * gives the level's stars in the account once the level is met.
 * Stars are kept in the account of a signed-in player (`/api/learn/progress`), else in this
 * browser; a visitor's are merged into the account once he is signed in.
 *
 * @typedef {import("./learn-course.js").Course} Course
 * @typedef {import("./learn-course.js").Level} Level
 * @typedef {import("./learn-course.js").Stars} Stars
 * @typedef {import("../board/types.js").MoveInfo} MoveInfo
 * @typedef {import("../board/types.js").Piece} Piece
 * @typedef {import("./online.js").PageData} PageData
 * @typedef {{move: MoveInfo, pieces: Record<string, Piece>, hands: {white: number, black: number}}} Step
 * @typedef {{pieces: Record<string, Piece>, hands: {white: number, black: number}, turn: "white"|"black",
 *   moves: MoveInfo[], forbidden: Record<string, {oblique: string, checker: string}>, required: string,
 *   lastMove: MoveInfo|null, outcome: unknown}} Position
 * @typedef {{status: string, text: string, notes: string[], move: string|null, reply: string|null,
 *   stars: number|null, attempt: {level: string, moves: string[], mistakes: number},
 *   steps: Step[], board: Position}} Verdict
 */
import {Board} from "../board/index.js";
import {api, ApiError} from "./api.js";
import {openGame} from "./leave.js";
import {$, buttonEl, el, errorText, input} from "./dom.js";
import {initOnline, pageData} from "./online.js";
import {boardSettings} from "./settings.js";
import {best, cleanStars, continueAt, fill, hintsShown, levelsOf, line, moveShape, nextSolutionMove, readLocal, showTime, stageOf, starsText, STORAGE_KEY, summary, typed, writeLocal} from "./learn-course.js";

/** Keys that start a typed move (square letters, digits, the separators of R21). */
const MOVE_KEY = /^[a-ix0-9-]$/i;

/** A replay's pause before each move (ms), besides the board's animation of it. */
const REPLAY_PAUSE = 600;
const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The player's stars: the account's when signed in (a visitor's from this browser merged in once), else this browser's. */
class Progress {
  /** @param {PageData} data @param {Course} course */
  constructor(data, course) {
    this.account = !!data.me;
    this.known = new Set(levelsOf(course).map((l) => l.id));
    /** @type {Stars} */
    this.stars = {};
  }

  async load() {
    const local = readLocal(localStorage);
    if (!this.account) {
      this.stars = cleanStars(local, this.known);
      return;
    }
    const mine = cleanStars(local, this.known);
    if (Object.keys(mine).length) {
      // a visitor's stars, now signed in: merged into the account (the best kept), then dropped here
      const merged = await api("/api/learn/progress", {levels: mine});
      localStorage.removeItem(STORAGE_KEY);
      this.stars = cleanStars(merged.levels, this.known);
    } else {
      this.stars = cleanStars((await api("/api/learn/progress")).levels, this.known);
    }
  }

  /** @param {string} level @param {number} stars */
  async keep(level, stars) {
    if (!this.account) {
      this.stars = cleanStars(writeLocal(localStorage, {[level]: stars}), this.known);
      return;
    }
    this.stars = best(this.stars, {[level]: stars});
    this.stars = cleanStars((await api("/api/learn/progress", {level, stars})).levels, this.known);
  }
}

/** Mark the level links (`a.dot[data-level]`) with the player's stars. @param {Course} course @param {Stars} stars */
function drawDots(course, stars) {
  for (const a of document.querySelectorAll("a.dot[data-level]")) {
    const id = a.getAttribute("data-level") || "";
    const n = stars[id] || 0;
    const place = Number(a.textContent) || 0;
    a.classList.toggle("done", n > 0);
    a.setAttribute("data-stars", String(n));
    a.setAttribute("aria-label", n ? fill(course.texts["dot-stars"], {n: place, stars: n}) : fill(course.texts.dot, {n: place}));
    a.setAttribute("title", n ? starsText(n) : "");
  }
}

/** The course map (/learn): stars on the levels, where to continue, how far the player is. @param {Course} course @param {Progress} progress @param {PageData} data */
function startMap(course, progress, data) {
  const t = course.texts;
  drawDots(course, progress.stars);
  const s = summary(course, progress.stars);
  $("learn-progress").textContent = s.done ? fill(t.progress, s) : "";
  const next = continueAt(course, progress.stars);
  const go = /** @type {HTMLAnchorElement} */ ($("continue"));
  if (next) go.href = `/learn/${next.id}`;
  if (s.done) go.textContent = t.continue;
  const kept = $("learn-kept");
  if (data.me) kept.textContent = t["kept-account"];
  else {
    const link = /** @type {HTMLAnchorElement} */ (el("a", "", t["keep-account"]));
    link.href = "/signup?next=/learn";
    kept.replaceChildren(`${t["kept-browser"]} `, link);
  }
}

class LevelPage {
  /** @param {Course} course @param {Level} level @param {Progress} progress @param {PageData} data */
  constructor(course, level, progress, data) {
    this.course = course;
    this.t = course.texts;
    this.level = level;
    this.progress = progress;
    this.data = data;
    /** The attempt: the moves both sides played since the start, and the mistakes. @type {string[]} */
    this.moves = [];
    this.mistakes = 0;
    /** The position the attempt stands at (the server's board data). @type {Position|null} */
    this.position = null;
    /** The position a level starts from. @type {Position|null} */
    this.start = null;
    this.hints = 0;
    /** The replay under way (its number: a second press or a restart ends it), and how many began. */
    this.replaying = 0;
    this.replays = 0;
    /** Steps sent to be judged (the page's mark for tests: `<html data-sent>`). */
    this.sent = 0;
    /** What the page waits for: "move", "retry" (a wrong move on show), "over", "busy". */
    this.mode = "busy";
    this.board = Board($("board"), {
      ...boardSettings(),
      view: level.view,
      names: level.names,
      flipped: false,
      viewOnly: true,
      events: {
        move: (move) => this.send({move: move.text, names: "oblique"}), // the board's text is canonical
        refused: (_square, reason, hint) => this.say(reason, !hint),
        select: () => this.say(""),
      },
    });
  }

  async init() {
    const level = this.level;
    const geometry = await api(`/api/geometry?variant=${encodeURIComponent(level.variant)}`);
    this.board.set({squares: geometry.squares, size: geometry.size, shape: geometry.shape});
    const from = level.prelude ? level.prelude.position : level.position;
    const query = new URLSearchParams({pos: from, moves: (level.prelude ? level.prelude.moves : []).join(" ")});
    this.start = /** @type {Position} */ (await api(`/api/position?${query}`));
    $("status").textContent = fill(this.t["you-play"], {color: this.t[`color.${level.side}`]});
    this.wire();
    this.restart();
  }

  wire() {
    const level = this.level;
    /** @type {HTMLFormElement} */ ($("move-form")).addEventListener("submit", (e) => {
      e.preventDefault();
      const text = typed(input("move-text").value);
      if (text && this.mode === "move") this.send({move: text, names: level.names}); // typed as the board names them
    });
    /** @type {HTMLFormElement} */ ($("answer-form")).addEventListener("submit", (e) => {
      e.preventDefault();
      const text = input("answer-text").value.trim();
      if (text && this.mode === "move") this.send({answer: text});
    });
    for (const b of document.querySelectorAll("#choices .choice")) {
      b.addEventListener("click", () => this.mode === "move" && this.send({answer: b.getAttribute("data-choice") || ""}));
    }
    $("hint").addEventListener("click", () => this.hint());
    $("retry").addEventListener("click", () => this.retry());
    $("restart").addEventListener("click", () => this.restart());
    $("replay").addEventListener("click", () => this.replay(this.moves, "replay"));
    // issue 28: a slower win against the tables ends with the tables' fastest line to watch
    $("replay-solution").addEventListener("click", () => this.replay(line(this.level), "replay-solution"));
    document.getElementById("practice-start")?.addEventListener("click", () => this.practice());
    document.addEventListener("keydown", (e) => this.key(e));
    if (level.opponent === "bot" && !this.data.me) {
      $("practice-start").hidden = true;
      $("practice-login").hidden = false;
    }
  }

  /** The page's keys (the board takes its own while it has the focus). @param {KeyboardEvent} e */
  key(e) {
    const target = /** @type {HTMLElement} */ (e.target);
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    // in a field only "?" is the page's (no move or answer holds one)
    if (target.closest("input, textarea, select") && e.key !== "?") return;
    const next = /** @type {HTMLAnchorElement} */ ($("next"));
    const onControl = !!target.closest("button, a");
    // lichess's level-done keys: Enter, space, → (and our N), the "Next level" link focused
    const on = e.key === "n" || e.key === "N" || e.key === "ArrowRight" || ((e.key === "Enter" || e.key === " ") && (!onControl || target === next));
    if (this.mode === "over" && !$("done").hidden && on) {
      if (target === next && e.key === "Enter") return; // the link follows itself
      e.preventDefault();
      location.href = next.href;
    } else if (e.key === "?") {
      e.preventDefault();
      this.hint();
    } else if ((e.key === "r" || e.key === "R") && this.mode === "retry") {
      e.preventDefault();
      this.retry();
    } else if (this.mode === "move" && !$("choices").hidden && /^[1-9]$/.test(e.key)) {
      const choice = /** @type {HTMLButtonElement|undefined} */ (document.querySelectorAll("#choices .choice")[Number(e.key) - 1]);
      if (choice) {
        e.preventDefault();
        choice.click();
      }
    } else if (this.mode === "move" && MOVE_KEY.test(e.key) && !onControl) {
      // a move typed anywhere on the page goes into the move's (or the answer's) field
      const field = !$("move-form").hidden ? input("move-text") : !$("answer-form").hidden ? input("answer-text") : null;
      if (!field) return;
      e.preventDefault();
      field.focus();
      field.value += e.key.toLowerCase();
    }
  }

  /** A message next to the board: a reason (red) or a note. @param {string} text @param {boolean} [error] */
  say(text, error = true) {
    const m = $("message");
    m.textContent = text;
    m.classList.toggle("info", !error);
  }

  /** The players' bars: each colour with its men in hand, the player's below. @param {{white: number, black: number}} hands @param {"white"|"black"|null} turn */
  bars(hands, turn) {
    const mine = this.level.side;
    const other = mine === "white" ? "black" : "white";
    for (const [id, color] of /** @type {[string, "white"|"black"][]} */ ([["player-top", other], ["player-bottom", mine]])) {
      const box = $(id);
      box.className = `player ${color}${turn === color ? " to-move" : ""}`;
      box.dataset.hand = String(hands[color]);
      const name = this.t[`color.${color}`];
      box.replaceChildren(el("span", `hand ${color}`, String(hands[color])), el("span", "name", turn === color ? fill(this.t["to-move"], {color: name}) : name), el("span", "note", fill(this.t["in-hand"], {n: hands[color]})));
    }
  }

  /** Show a position: the board (movable when the player may move), the bars, the targets. @param {Position} position @param {boolean} movable */
  show(position, movable) {
    this.position = position;
    const mine = movable && position.turn === this.level.side && !position.outcome;
    this.board.set({
      pieces: position.pieces,
      lastMove: position.lastMove,
      viewOnly: !mine,
      movable: mine ? {moves: position.moves, forbidden: position.forbidden, required: position.required} : null,
    });
    this.board.setAutoShapes(this.level.targets.map((sq) => ({orig: sq, brush: /** @type {const} */ ("paleBlue")})));
    this.bars(position.hands, mine ? position.turn : null);
  }

  /** Start the level again: the start position, nothing done. */
  restart() {
    const level = this.level;
    this.replaying = 0;
    this.moves = [];
    this.mistakes = 0;
    this.hints = 0;
    $("hints").replaceChildren();
    $("hint").textContent = this.t.hint;
    $("done").hidden = true;
    $("retry").hidden = true;
    this.say("");
    const question = level.kind === "question";
    const choices = !!(level.question && level.question.choices);
    const playable = level.available && level.opponent !== "bot";
    $("move-form").hidden = question || !playable;
    $("answer-form").hidden = !question || choices;
    $("choices").hidden = !question || !choices;
    $("restart").hidden = question || !playable;
    $("unavailable").hidden = level.available;
    $("hint").hidden = !level.hints.length;
    input("move-text").value = "";
    input("answer-text").value = "";
    this.mode = playable ? "move" : "over";
    if (this.start) this.show(this.start, playable && !question);
    document.documentElement.dataset.mode = this.mode;
  }

  /** The next hint, and on the last press the move as an arrow (while the line is followed). */
  hint() {
    const level = this.level;
    if (this.mode === "busy") return;
    this.hints += 1;
    const shown = hintsShown(level.hints, this.hints);
    $("hints").replaceChildren(...shown.texts.map((text) => el("li", "", text)));
    $("hint").textContent = shown.more && hintsShown(level.hints, this.hints + 1).move ? this.t["hint-move"] : this.t.hint;
    $("hint").hidden = !shown.more;
    const text = shown.move ? nextSolutionMove(level, this.moves) : null;
    const move = text && this.position ? this.position.moves.find((m) => m.text === text) : null;
    if (move && this.mode === "move") {
      this.board.setAutoShapes([...level.targets.map((sq) => ({orig: sq, brush: /** @type {const} */ ("paleBlue")})), moveShape(move, "green")]);
      $("hints").append(el("li", "move", fill(this.t["hint-shown"], {move: level.names === "checker" ? move.checker : move.text})));
    }
  }

  /** A wrong move on show: take it back. */
  retry() {
    if (this.mode !== "retry" || !this.position) return;
    $("retry").hidden = true;
    this.say("");
    this.mode = "move";
    document.documentElement.dataset.mode = this.mode;
    this.show(this.position, true);
    if (!$("move-form").hidden) input("move-text").focus();
  }

  /** Judge a move or an answer, and show what follows. @param {{move?: string, answer?: string, names?: string}} what */
  async send(what) {
    const level = this.level;
    this.mode = "busy";
    document.documentElement.dataset.mode = this.mode;
    document.documentElement.dataset.sent = String(++this.sent);
    this.board.set({movable: null, viewOnly: true});
    /** @type {Verdict} */
    let v;
    try {
      v = await api("/api/learn/judge", {level: level.id, moves: this.moves, mistakes: this.mistakes, ...what});
    } catch (e) {
      this.say(fill(this.t.error, {error: e instanceof ApiError ? e.message : errorText(e)}));
      this.mode = "move";
      document.documentElement.dataset.mode = this.mode;
      if (this.position) this.show(this.position, level.kind !== "question");
      return;
    }
    this.moves = v.attempt.moves;
    this.mistakes = v.attempt.mistakes;
    input("move-text").value = "";
    input("answer-text").value = "";
    if (v.status === "refused") {
      this.say(v.text);
      this.mode = "move";
      this.show(v.board, level.kind !== "question");
    } else if (v.status === "wrong") {
      await this.play(v.steps);
      this.say([v.text, ...v.notes].join(" "));
      this.position = v.board;
      if (level.kind === "question") {
        this.mode = "move";
        this.show(v.board, false);
      } else {
        this.mode = "retry";
        $("retry").hidden = false;
        $("retry").focus();
      }
    } else {
      await this.play(v.steps);
      this.say(v.status === "done" ? "" : v.text, v.status === "failed");
      if (v.status === "right") {
        this.mode = "move";
        this.show(v.board, true);
        // the hints spoke of the move just made: the next one starts from the idea again
        this.hints = 0;
        $("hints").replaceChildren();
        $("hint").textContent = this.t.hint;
        $("hint").hidden = !level.hints.length;
      } else {
        this.mode = "over";
        this.show(v.board, false);
        if (v.status === "done" && v.stars) await this.done(v);
        else buttonEl("restart").focus();
      }
    }
    document.documentElement.dataset.mode = this.mode;
  }

  /** The moves of a verdict, one after the other, with the board's animation. @param {Step[]} steps */
  async play(steps) {
    const animation = boardSettings().animation;
    for (const step of steps) {
      this.board.set({pieces: step.pieces, lastMove: step.move, movable: null, viewOnly: true, animate: true});
      this.bars(step.hands, null);
      await sleep(showTime(step.move, animation));
    }
  }

  /**
   * A line replayed from the level's start (the prelude played): the moves played, or the
   * level's solution; a move at a time with the board's animation and a pause to see it; a
   * second press of either button stops it. The board ends where the level did.
   * @param {string[]} moves both sides' moves from the level's position
   * @param {"replay" | "replay-solution"} id the button pressed, which says "Stop" meanwhile
   */
  async replay(moves, id) {
    const button = buttonEl(id);
    if (this.replaying) {
      this.replaying = 0;
      return;
    }
    const run = (this.replaying = ++this.replays);
    button.textContent = this.t["replay-stop"];
    const level = this.level;
    const from = level.prelude ? level.prelude.position : level.position;
    const before = level.prelude ? level.prelude.moves : [];
    const animation = boardSettings().animation;
    const end = this.position;
    const start = /** @type {Position} */ (this.start);
    this.board.set({pieces: start.pieces, lastMove: start.lastMove, movable: null, viewOnly: true, animate: false});
    this.bars(start.hands, null);
    try {
      for (let ply = 1; ply <= moves.length && this.replaying === run; ply++) {
        await sleep(REPLAY_PAUSE);
        const query = new URLSearchParams({pos: from, moves: [...before, ...moves.slice(0, ply)].join(" ")});
        const step = /** @type {Position} */ (await api(`/api/position?${query}`));
        if (this.replaying !== run) break;
        this.board.set({pieces: step.pieces, lastMove: step.lastMove, movable: null, viewOnly: true, animate: true});
        this.bars(step.hands, null);
        if (step.lastMove) await sleep(showTime(step.lastMove, animation));
      }
    } catch (e) {
      this.say(fill(this.t.error, {error: errorText(e)}));
    }
    if (this.replays !== run) return; // a newer replay runs
    this.replaying = 0;
    button.textContent = this.t[id];
    if (this.mode === "over" && end) this.show(end, false); // where the level ended
  }

  /** The level done: the stars, what was learned, the next level one press away. @param {Verdict} v */
  async done(v) {
    const stars = v.stars || 1;
    $("stars").textContent = starsText(stars);
    $("stars").setAttribute("aria-label", fill(this.t.stars, {stars}));
    $("stars-said").textContent = this.t[`stars-${stars}`];
    $("done-text").textContent = v.text;
    $("notes").replaceChildren(...v.notes.map((n) => el("li", "", n)));
    $("move-form").hidden = true;
    $("answer-form").hidden = true;
    $("choices").hidden = true;
    $("hint").hidden = true;
    $("hints").replaceChildren();
    $("replay").hidden = this.level.kind === "question" || !this.moves.length;
    $("replay").textContent = this.t.replay;
    const fastest = line(this.level);
    $("replay-solution").hidden = this.level.opponent !== "tables" || !fastest.length || fastest.join(" ") === this.moves.join(" ");
    $("replay-solution").textContent = this.t["replay-solution"];
    $("done").hidden = false;
    $("next").focus();
    try {
      await this.progress.keep(this.level.id, stars);
    } catch (e) {
      this.say(fill(this.t.error, {error: errorText(e)}));
    }
    drawDots(this.course, this.progress.stars);
  }

  /** A practice level: a real game against the house bot from the level's position. */
  async practice() {
    const level = this.level;
    const said = $("practice-message");
    said.textContent = "";
    buttonEl("practice-start").disabled = true;
    try {
      // the server starts the game from the level's own position and tags it with the level:
      // its end gives the stars (learn/practice.py)
      const answer = await api("/api/learn/practice", {level: level.id});
      if (answer.gameId) openGame(answer.gameId);
    } catch (e) {
      said.textContent = fill(this.t["practice-error"], {error: errorText(e)});
      buttonEl("practice-start").disabled = false;
    }
  }
}

/** Start the page: the map or a level, as the shell says. */
export async function startLearn() {
  const root = $("learn");
  const data = pageData(root);
  await initOnline(data);
  try {
    /** @type {Course} */
    const course = await api("/api/learn");
    const progress = new Progress(data, course);
    try {
      await progress.load();
    } catch {
      // the stars could not be read: the course works without them
    }
    if (root.dataset.view === "map") startMap(course, progress, data);
    else {
      const id = root.dataset.level || "";
      const stage = stageOf(course, id);
      const level = stage && stage.levels.find((l) => l.id === id);
      if (!level) throw new Error(`no level ${id}`);
      drawDots(course, progress.stars);
      await new LevelPage(course, level, progress, data).init();
    }
  } catch (e) {
    // the course's words may be what failed to come: the server's own message then
    const m = document.getElementById("message") || document.getElementById("learn-progress");
    if (m) m.textContent = errorText(e);
  } finally {
    document.documentElement.dataset.ready = "1";
  }
}
