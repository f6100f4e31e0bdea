// @ts-check
/**
 * page/storm.js: the timed run (/storm), as lichess's Storm: puzzles easiest first against a
 * clock of 3 minutes; a right move plays the reply at once, a wrong one costs 10 seconds and goes
 * to the next puzzle, a combo of right moves wins seconds back (training-data.js's comboBonus).
 * The page judges the moves as the run goes (no wait for the server) by each puzzle's
 * `accepted`: the moves the server's one rule (emergo.puzzles.check, as on /training) takes at
 * each of the solver's turns, sent with the run, so a capture route reaching the solution's
 * position is right here too. At the end it sends each solved puzzle's line to
 * `POST /api/storm`, which judges them again and keeps the score of a signed-in player (a
 * visitor's best is kept in this browser).
 * `?seconds=N` (10 to 180) runs a shorter clock, for practice.
 *
 * @typedef {import("./online.js").PageData} PageData
 * @typedef {import("./training.js").PuzzleData} PuzzleData
 * @typedef {import("./training.js").Position} Position
 * @typedef {PuzzleData & {accepted: Record<string, "right"|"solved">[]}} StormPuzzle
 */
import {Board} from "../board/index.js";
import {api} from "./api.js";
import {$, buttonEl, errorText, select} from "./dom.js";
import {boardSettings} from "./settings.js";
import {clockText, comboBonus, positionAt, readLocal, writeLocal} from "./training-data.js";

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));
const mark = (/** @type {string} */ mode) => (document.documentElement.dataset.mode = mode);

class Storm {
  /** @param {PageData} data */
  constructor(data) {
    this.data = data;
    const asked = Number(new URLSearchParams(location.search).get("seconds"));
    this.seconds = Number.isFinite(asked) && asked >= 10 && asked <= 180 ? asked : 180;
    /** @type {StormPuzzle[]} */
    this.puzzles = [];
    this.index = 0;
    /** @type {string[]} */
    this.line = [];
    /** @type {{id: string, moves: string[]}[]} */
    this.solved = [];
    this.errors = 0;
    this.combo = 0;
    this.best = 0;
    this.mistake = 10;
    /** @type {number[][]} */
    this.levels = [];
    this.deadline = 0;
    this.started = 0;
    this.timer = 0;
    this.running = false;
    this.variant = "";
    this.solver = /** @type {"white"|"black"} */ ("white");
    this.board = Board($("board"), {...boardSettings(), animation: {enabled: false}, viewOnly: true, events: {move: (move) => void this.play(move.text)}});
  }

  init() {
    const first = /** @type {HTMLOptionElement|null} */ (select("variant").querySelector("option:not(:disabled)"));
    if (first) select("variant").value = first.value;
    $("storm-clock").textContent = clockText(this.seconds * 1000);
    buttonEl("storm-start").addEventListener("click", () => void this.start());
    buttonEl("storm-again").addEventListener("click", () => void this.start());
    buttonEl("storm-stop").addEventListener("click", () => void this.end());
    this.high(this.data.me ? null : readLocal(localStorage).storm);
    mark("ready");
  }

  /** @param {number|null} best */
  high(best) {
    if (best !== null) $("storm-high").textContent = best ? `Your best run in this browser: ${best}.` : "";
  }

  async start() {
    mark("busy");
    $("storm-end").hidden = true;
    buttonEl("storm-start").hidden = true;
    const run = await api(`/api/storm?variant=${encodeURIComponent(select("variant").value)}`);
    this.puzzles = run.puzzles;
    this.mistake = run.mistake;
    this.levels = run.combo;
    if (run.high) $("storm-high").textContent = `Your best run: ${run.high.score} (today ${run.high.today}), ${run.high.runs} runs.`;
    this.index = 0;
    this.solved = [];
    this.errors = 0;
    this.combo = 0;
    this.best = 0;
    this.score();
    this.started = Date.now();
    this.deadline = this.started + this.seconds * 1000;
    this.running = true;
    buttonEl("storm-stop").hidden = false;
    this.timer = window.setInterval(() => this.tick(), 100);
    await this.setUp();
  }

  tick() {
    const left = this.deadline - Date.now();
    $("storm-clock").textContent = clockText(left);
    if (left <= 0 && this.running) void this.end();
  }

  score() {
    $("storm-score").textContent = String(this.solved.length);
    $("storm-combo").textContent = String(this.combo);
    $("storm-errors").textContent = String(this.errors);
  }

  /** Show the current puzzle (the next one after the last: the run is over). */
  async setUp() {
    const p = this.puzzles[this.index];
    if (!p) return this.end();
    this.line = [];
    const position = await positionAt(p.position, []);
    if (position.geometry && p.variant !== this.variant) {
      this.variant = p.variant;
      this.board.set({squares: position.geometry.squares, size: position.geometry.size, shape: position.geometry.shape});
    }
    this.solver = position.turn;
    this.board.set({flipped: this.solver === "black"});
    document.documentElement.dataset.puzzle = p.id;
    this.show(position);
    mark("move");
  }

  /** @param {Position} position */
  show(position) {
    const mine = this.running && position.turn === this.solver && !position.outcome;
    this.board.set({pieces: position.pieces, lastMove: position.lastMove, viewOnly: !mine, movable: mine ? {moves: position.moves, forbidden: position.forbidden, required: position.required} : null});
  }

  /** @param {string} text */
  async play(text) {
    const p = this.puzzles[this.index];
    if (!this.running || !p) return;
    mark("busy");
    document.documentElement.dataset.sent = String(Number(document.documentElement.dataset.sent || 0) + 1);
    const expected = p.solution[this.line.length];
    const verdict = p.accepted[this.line.length / 2]?.[text];
    if (!verdict) {
      this.errors += 1;
      this.combo = 0;
      this.deadline -= this.mistake * 1000;
      this.tick();
      $("feedback").textContent = `Wrong: ${expected} was the move. −${this.mistake} s`;
      $("feedback").className = "feedback bad";
      this.score();
      this.index += 1;
      await sleep(300);
      if (this.running) await this.setUp();
      return;
    }
    this.line.push(text);
    this.combo += 1;
    this.best = Math.max(this.best, this.combo);
    const bonus = comboBonus(this.combo, this.levels);
    if (bonus) {
      this.deadline += bonus * 1000;
      this.tick();
    }
    $("feedback").textContent = bonus ? `Combo ${this.combo}: +${bonus} s` : "";
    $("feedback").className = "feedback good";
    if (verdict === "solved") {
      this.solved.push({id: p.id, moves: this.line.slice()});
      this.score();
      this.index += 1;
      return this.setUp();
    }
    this.line.push(p.solution[this.line.length]);
    this.score();
    this.show(await positionAt(p.position, this.line));
    mark("move");
  }

  async end() {
    if (!this.running) return;
    this.running = false;
    window.clearInterval(this.timer);
    this.board.set({movable: null, viewOnly: true});
    buttonEl("storm-stop").hidden = true;
    const seconds = Math.round((Date.now() - this.started) / 1000);
    mark("busy");
    try {
      const r = await api("/api/storm", {solved: this.solved, errors: this.errors, combo: this.best, time: seconds});
      let best = r.best;
      if (!this.data.me) {
        const local = readLocal(localStorage);
        best = Math.max(local.storm, r.score);
        writeLocal(localStorage, {...local, storm: best});
      }
      $("storm-summary").textContent = `${r.score} puzzles solved${r.newHigh ? ": a new best!" : ` (your best: ${best})`}. ${r.moves} moves, ${r.errors} mistakes, best combo ${r.combo}, ${r.time} s.`;
      document.documentElement.dataset.score = String(r.score);
    } catch (e) {
      $("storm-summary").textContent = errorText(e);
    }
    $("storm-clock").textContent = clockText(0);
    $("storm-end").hidden = false;
    $("storm-end").focus();
    mark("over");
  }
}

/** Start /storm. @param {PageData} data */
export function startStorm(data) {
  new Storm(data).init();
}
