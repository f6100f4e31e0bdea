// @ts-check
/**
 * page/training.js: the training pages (docs/training.md), as lichess's puzzles: a puzzle at the
 * player's level (/training), the day's (/training/daily), one by its id, replay of the failed
 * ones (/training/replay), the dashboard (/training/dashboard), and the timed run (/storm,
 * storm.js).
 *
 * A puzzle: the game's position before the opponent's last move, that move played; the solver
 * moves (click, drag, the board's keys, or typed); each move is sent with the line so far to
 * `POST /api/puzzle/{id}/result`, which judges it (the server never takes the page's word): right
 * (the reply is played by the page), wrong (the refutation is played, then Retry takes both back),
 * solved. The solution on request, then the next puzzle (Enter). ← and → step through the moves.
 * A signed-in player's attempts are kept and rated by the server; a visitor's are kept in this
 * browser (training-data.js), unrated.
 *
 * @typedef {import("../board/types.js").MoveInfo} MoveInfo
 * @typedef {import("../board/types.js").Piece} Piece
 * @typedef {import("./online.js").PageData} PageData
 * @typedef {import("./training-data.js").Dashboard} Dashboard
 * @typedef {{pieces: Record<string, Piece>, hands: {white: number, black: number}, turn: "white"|"black",
 *   moves: MoveInfo[], forbidden: Record<string, {oblique: string, checker: string}>, required: string,
 *   lastMove: MoveInfo|null, outcome: unknown, geometry?: {squares: any[], size: number, shape: "diamond"|"hexagon"}}} Position
 * @typedef {{id: string, rating: number, plays: number, solution: string[], themes: string[], initialPly: number,
 *   variant: string, position: string, gain: number, proof: string}} PuzzleData
 * @typedef {{game: {id: string, moves: string[], start: string, url: string, lastMove: string|null}, puzzle: PuzzleData,
 *   user?: {rating: number, games: number, provisional: boolean}}} PuzzleAnswer
 */
import {Board} from "../board/index.js";
import {api, ApiError} from "./api.js";
import {$, buttonEl, el, errorText, select} from "./dom.js";
import {initOnline, pageData} from "./online.js";
import {boardSettings} from "./settings.js";
import {startStorm} from "./storm.js";
import {keepRound, localDashboard, mergeLocal, positionAt, ratingChart, readLocal, themeName, toReplay, writeLocal} from "./training-data.js";

const PREFS = "emergo-training-prefs";
const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));
const mark = (/** @type {string} */ mode) => (document.documentElement.dataset.mode = mode);

class PuzzlePage {
  /** @param {PageData} data @param {string} view */
  constructor(data, view) {
    this.data = data;
    this.view = view;
    /** @type {PuzzleAnswer|null} */
    this.current = null;
    /** The line played from the puzzle's position (the solver's moves and the replies). @type {string[]} */
    this.line = [];
    /** Positions of the line as shown: [0] the puzzle's, then one a move (for ← and →). @type {Position[]} */
    this.shown = [];
    this.at = 0;
    /** "move", "wrong" (a wrong move on show), "over", "busy". */
    this.mode = "busy";
    this.failed = false;
    this.ended = false;
    /** @type {string[]} */
    this.queue = [];
    this.variant = "";
    this.solver = /** @type {"white"|"black"} */ ("white");
    this.board = Board($("board"), {
      ...boardSettings(),
      viewOnly: true,
      events: {move: (move) => void this.play(move.text), refused: (_sq, reason) => this.say(reason, "bad")},
    });
  }

  async init() {
    const prefs = this.prefs();
    if (prefs.angle) select("angle").value = prefs.angle;
    if (prefs.variant && !select("variant").querySelector(`option[value="${prefs.variant}"]:disabled`)) select("variant").value = prefs.variant;
    else select("variant").value = /** @type {HTMLOptionElement} */ (select("variant").querySelector("option:not(:disabled)"))?.value || "9x9";
    for (const id of ["angle", "variant"]) {
      select(id).addEventListener("change", () => {
        localStorage.setItem(PREFS, JSON.stringify({angle: select("angle").value, variant: select("variant").value}));
        void this.load(this.nextUrl());
      });
    }
    buttonEl("retry").addEventListener("click", () => this.retry());
    buttonEl("solution").addEventListener("click", () => void this.solution());
    buttonEl("next").addEventListener("click", () => void this.next());
    document.addEventListener("keydown", (e) => this.key(e));
    $("kept").textContent = this.data.me ? "Your attempts are kept in your account; the first try of each puzzle is rated." : "Signed out: your progress is kept in this browser (no rating). Sign up to get a puzzle rating.";
    if (this.view === "replay") {
      this.queue = this.data.me ? (await api("/api/puzzle/replay/30/mix")).replay.remaining : toReplay(readLocal(localStorage).rounds);
      $("title").textContent = "Replay the puzzles you failed";
      return this.next();
    }
    const id = String(this.data.puzzle || "");
    const url = this.view === "daily" ? "/api/puzzle/daily" : this.view === "puzzle" && id ? `/api/puzzle/${encodeURIComponent(id)}` : this.nextUrl();
    if (this.view === "daily") $("title").textContent = "The puzzle of the day";
    await this.load(url);
  }

  /** @returns {{angle?: string, variant?: string}} */
  prefs() {
    try {
      return JSON.parse(localStorage.getItem(PREFS) || "{}");
    } catch {
      return {};
    }
  }

  nextUrl() {
    const q = new URLSearchParams({angle: select("angle").value, variant: select("variant").value});
    return `/api/puzzle/next?${q}`;
  }

  /** The next puzzle: the replay list's, else one at the player's level. */
  async next() {
    if (this.view === "replay") {
      const id = this.queue.shift();
      if (!id) {
        this.say("Nothing left to replay: every puzzle you failed is solved.", "good");
        $("status").textContent = "";
        buttonEl("next").hidden = true;
        mark("over");
        return;
      }
      return this.load(`/api/puzzle/${encodeURIComponent(id)}`);
    }
    return this.load(this.nextUrl());
  }

  /** Load a puzzle and set it up: the position before the opponent's move, then that move. @param {string} url */
  async load(url) {
    mark("busy");
    this.mode = "busy";
    this.say("");
    try {
      /** @type {PuzzleAnswer} */
      const answer = await api(url);
      this.current = answer;
      const p = answer.puzzle;
      this.line = [];
      this.failed = false;
      this.ended = false;
      const game = answer.game.moves;
      const before = await positionAt(answer.game.start, game.slice(0, -1));
      const start = game.length ? await positionAt(answer.game.start, game) : before;
      if (before.geometry && p.variant !== this.variant) {
        this.variant = p.variant;
        this.board.set({squares: before.geometry.squares, size: before.geometry.size, shape: before.geometry.shape});
      }
      this.solver = start.turn;
      this.board.set({flipped: this.solver === "black", pieces: before.pieces, lastMove: before.lastMove, movable: null, viewOnly: true});
      this.shown = [start];
      this.at = 0;
      document.documentElement.dataset.puzzle = p.id;
      if (this.view !== "daily" && this.view !== "replay") history.replaceState(null, "", `/training/${p.id}`);
      this.describe(answer);
      buttonEl("next").hidden = true;
      buttonEl("retry").hidden = true;
      buttonEl("solution").hidden = false;
      if (game.length) {
        await sleep(350);
        this.board.set({pieces: start.pieces, lastMove: start.lastMove, animate: true});
        await sleep(300);
      }
      this.show(start, true);
      this.movesList();
      $("status").textContent = `Your turn: find the best move for ${this.solver === "white" ? "White" : "Black"}.`;
      this.mode = "move";
      mark("move");
    } catch (e) {
      this.say(e instanceof ApiError && e.status === 404 ? `${e.message}: choose another theme or board.` : errorText(e), "bad");
      mark("over");
    }
  }

  /** The puzzle's facts, its game's link, the player's rating. @param {PuzzleAnswer} answer */
  describe(answer) {
    const p = answer.puzzle;
    $("about").textContent = `Puzzle ${p.id} · rating ${p.rating} · played ${p.plays} times · ${p.themes.map(themeName).join(", ")}`;
    /** @type {HTMLAnchorElement} */ ($("game-link")).href = answer.game.url;
    if (answer.user) $("rating").textContent = `Your puzzle rating: ${answer.user.rating}${answer.user.provisional ? "?" : ""}`;
    else if (!this.data.me) $("rating").textContent = "";
  }

  /** Show a position: movable when it is the solver's turn in an attempt. @param {Position} position @param {boolean} movable */
  show(position, movable) {
    const mine = movable && position.turn === this.solver && !position.outcome;
    this.board.set({
      pieces: position.pieces,
      lastMove: position.lastMove,
      viewOnly: !mine,
      movable: mine ? {moves: position.moves, forbidden: position.forbidden, required: position.required} : null,
    });
    this.bars(position.hands, mine ? position.turn : null);
  }

  /** @param {{white: number, black: number}} hands @param {"white"|"black"|null} turn */
  bars(hands, turn) {
    const other = this.solver === "white" ? "black" : "white";
    for (const [id, color] of /** @type {[string, "white"|"black"][]} */ ([["player-top", other], ["player-bottom", this.solver]])) {
      const box = $(id);
      box.className = `player ${color}${turn === color ? " to-move" : ""}`;
      const name = color === "white" ? "White" : "Black";
      box.replaceChildren(el("span", `hand ${color}`, String(hands[color])), el("span", "name", color === this.solver ? `${name} (you)` : name), el("span", "note", `${hands[color]} in hand`));
    }
  }

  /** @param {string} text @param {"good"|"bad"|""} [kind] */
  say(text, kind = "") {
    const f = $("feedback");
    f.textContent = text;
    f.className = `feedback ${kind}`;
  }

  /** The line as a list: each move a button that shows its position. */
  movesList() {
    const list = $("moves");
    list.replaceChildren(
      ...this.line.map((text, i) => {
        const li = el("li", i % 2 ? "reply" : "mine");
        const b = /** @type {HTMLButtonElement} */ (el("button", i + 1 === this.at ? "current" : "", text));
        b.type = "button";
        b.addEventListener("click", () => this.step(i + 1));
        li.append(b);
        return li;
      }),
    );
  }

  /** Show the position after `n` moves of the line (movable at the latest during an attempt). @param {number} n */
  step(n) {
    if (this.mode === "busy") return;
    const at = Math.max(0, Math.min(this.shown.length - 1, n));
    this.at = at;
    this.show(this.shown[at], this.mode === "move" && at === this.shown.length - 1);
    this.movesList();
  }

  /** Append a move to the shown line, with the board's animation. @param {string} text */
  async push(text) {
    this.line.push(text);
    const position = await positionAt(this.current ? this.current.game.start : "", [...(this.current ? this.current.game.moves : []), ...this.line]);
    this.shown.push(position);
    this.at = this.shown.length - 1;
    this.board.set({pieces: position.pieces, lastMove: position.lastMove, movable: null, viewOnly: true, animate: true});
    this.bars(position.hands, null);
    this.movesList();
    return position;
  }

  /** The solver's move: judged by the server with the line so far. @param {string} text */
  async play(text) {
    const current = this.current;
    if (!current || this.mode !== "move") return;
    this.mode = "busy";
    mark("busy");
    document.documentElement.dataset.sent = String(Number(document.documentElement.dataset.sent || 0) + 1);
    const p = current.puzzle;
    let v;
    try {
      v = await api(`/api/puzzle/${p.id}/result`, {moves: [...this.line, text]});
    } catch (e) {
      this.say(errorText(e), "bad");
      this.mode = "move";
      mark("move");
      this.step(this.shown.length - 1);
      return;
    }
    await this.push(v.move || text);
    if (v.status === "right") {
      this.say("Best move! Keep going…", "good");
      await sleep(400);
      const position = await this.push(v.reply);
      this.mode = "move";
      this.show(position, true);
      mark("move");
      return;
    }
    if (v.status === "solved") {
      this.say(this.failed ? "Solved, at last." : "Success! You solved it.", "good");
      await this.finish(v, true);
      return;
    }
    // wrong: the refutation shown; Retry takes both back
    this.say(v.refutation ? `That is not the move: ${v.refutation} answers it.` : "That is not the move.", "bad");
    if (v.refutation) {
      await sleep(400);
      await this.push(v.refutation);
    }
    if (!this.failed && !this.ended) await this.keep(v, false);
    this.failed = true;
    this.mode = "wrong";
    mark("wrong");
    buttonEl("retry").hidden = false;
    buttonEl("retry").focus();
  }

  /** A round's end kept: in the account (the server did) or in this browser. @param {any} v @param {boolean} win */
  async keep(v, win) {
    const current = this.current;
    if (!current) return;
    if (!this.data.me) writeLocal(localStorage, keepRound(readLocal(localStorage), current.puzzle, win, Date.now()));
    if (v && v.perf) {
      const diff = v.round && v.round.rated ? v.round.ratingDiff : null;
      const sign = diff > 0 ? "+" : "";
      $("rating").textContent = `Your puzzle rating: ${v.perf.rating}${v.perf.provisional ? "?" : ""}${diff !== null && diff !== undefined ? ` (${sign}${diff})` : ""}`;
      document.documentElement.dataset.rating = String(v.perf.rating);
    }
  }

  /** The attempt over: solved or given up. @param {any} v @param {boolean} win */
  async finish(v, win) {
    if (!this.ended) await this.keep(v, win);
    this.ended = true;
    this.mode = "over";
    this.step(this.shown.length - 1);
    $("status").textContent = "";
    buttonEl("retry").hidden = true;
    buttonEl("solution").hidden = true;
    buttonEl("next").hidden = false;
    buttonEl("next").focus();
    mark("over");
  }

  /** Take back the wrong move and its refutation. */
  retry() {
    if (this.mode !== "wrong") return;
    // the line ends with the wrong move (and its refutation): back to before the wrong move
    const keep = this.line.length - (this.line.length % 2 ? 1 : 2);
    this.line = this.line.slice(0, keep);
    this.shown = this.shown.slice(0, keep + 1);
    this.mode = "move";
    this.say("");
    buttonEl("retry").hidden = true;
    this.step(this.shown.length - 1);
    mark("move");
  }

  /** The solution on request: the attempt lost (the first try's), the whole line played. */
  async solution() {
    const current = this.current;
    if (!current || this.mode === "busy" || this.mode === "over") return;
    this.mode = "busy";
    mark("busy");
    let v = null;
    if (!this.failed) {
      try {
        v = await api(`/api/puzzle/${current.puzzle.id}/result`, {win: false});
      } catch (e) {
        this.say(errorText(e), "bad");
      }
      await this.keep(v, false);
      this.failed = true;
    }
    this.ended = true;
    this.line = [];
    this.shown = this.shown.slice(0, 1);
    this.show(this.shown[0], false);
    for (const text of current.puzzle.solution) {
      await sleep(250);
      await this.push(text);
    }
    this.say(`The solution: ${current.puzzle.solution.join(" ")}`, "");
    await this.finish(null, false);
  }

  /** The page's keys (the board takes its own while it has the focus). @param {KeyboardEvent} e */
  key(e) {
    const target = /** @type {HTMLElement} */ (e.target);
    if (e.ctrlKey || e.metaKey || e.altKey || target.closest("input, textarea, select")) return;
    const onControl = !!target.closest("button, a");
    if (e.key === "ArrowLeft" && !target.closest("#board")) {
      e.preventDefault();
      this.step(this.at - 1);
    } else if (e.key === "ArrowRight" && !target.closest("#board")) {
      e.preventDefault();
      this.step(this.at + 1);
    } else if ((e.key === "Enter" && !onControl) || e.key === "n" || e.key === "N") {
      if (this.mode !== "over" || buttonEl("next").hidden) return;
      e.preventDefault();
      void this.next();
    } else if (e.key === "r" || e.key === "R") {
      e.preventDefault();
      this.retry();
    } else if (e.key === "s" || e.key === "S") {
      e.preventDefault();
      void this.solution();
    }
  }
}

/** An SVG element. @param {string} tag @param {Record<string, string|number>} attrs @param {string} [text] */
function svgEl(tag, attrs, text) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The puzzle rating over the days, drawn at the section's width (text stays legible on a phone). @param {HTMLElement} section @param {number[][]} history */
function drawRating(section, history) {
  section.hidden = false; // measured shown
  const width = Math.max(260, Math.min(720, section.clientWidth || 640));
  const height = width < 480 ? 180 : 220;
  const c = ratingChart(history, width, height);
  const svg = svgEl("svg", {viewBox: `0 0 ${width} ${height}`, width, height, role: "img", class: "rating-chart"});
  svg.append(svgEl("title", {}, `Puzzle rating: ${history.map((p) => p[1]).join(", ")}`));
  for (const g of c.grid) {
    svg.append(svgEl("line", {x1: c.box.left, x2: c.box.right, y1: g.y, y2: g.y, class: "grid"}));
    svg.append(svgEl("text", {x: c.box.left - 6, y: g.y + 4, "text-anchor": "end"}, g.label));
  }
  for (const [i, d] of c.days.entries()) svg.append(svgEl("text", {x: d.x, y: height - 6, "text-anchor": i ? "end" : "start"}, d.label));
  svg.append(svgEl("polyline", {points: c.line.map((p) => `${p[0].toFixed(1)},${p[1].toFixed(1)}`).join(" "), class: "line"}));
  if (history.length > 1 && history.length <= 60) for (const p of c.points.slice(1)) svg.append(svgEl("circle", {cx: p[0].toFixed(1), cy: p[1].toFixed(1), r: 3}));
  svg.append(svgEl("text", {x: Math.min(c.last.x, c.box.right), y: c.last.y - 8, "text-anchor": "end", class: "last"}, c.last.label));
  section.replaceChildren(el("h2", "", "Puzzle rating"), svg);
  section.dataset.points = String(history.length - 1);
}

/** The dashboard: the account's (the server's) or this browser's. @param {PageData} data */
async function startDashboard(data) {
  const days = Number(data.days || 30);
  /** @type {Dashboard} */
  const d = data.me ? await api(`/api/puzzle/dashboard/${days}`) : localDashboard(readLocal(localStorage).rounds, days, Date.now());
  const g = d.global;
  const rating = d.perf ? `Puzzle rating ${d.perf.rating}${d.perf.provisional ? "?" : ""} after ${d.perf.games} puzzles. ` : "";
  $("dash-global").replaceChildren(
    el("p", "", `${rating}Over ${days} days: ${g.nb} puzzles, ${g.firstWins} solved first try, ${g.failed} failed (${g.replayWins} solved later). Performance ${g.nb ? g.performance : "–"}.`),
  );
  $("dash-global").dataset.nb = String(g.nb);
  const rows = Object.entries(d.themes).map(([key, t]) => {
    const tr = el("tr");
    tr.dataset.theme = key;
    if (d.weakest.includes(key)) tr.className = "weak";
    for (const text of [t.theme, String(t.results.nb), String(t.results.firstWins), String(t.results.failed), String(t.results.performance)]) tr.append(el("td", "", text));
    return tr;
  });
  $("dash-themes").querySelector("tbody")?.replaceChildren(...rows);
  const daysRows = d.byDay.map((r) => {
    const tr = el("tr");
    for (const text of [r.day, String(r.nb), String(r.firstWins), String(r.performance)]) tr.append(el("td", "", text));
    return tr;
  });
  $("dash-days").querySelector("tbody")?.replaceChildren(...daysRows);
  if (d.history) drawRating($("dash-chart"), d.history);
  $("kept").textContent = data.me ? "" : "Signed out: these are the puzzles played in this browser.";
}

/** Start the page the shell names. */
export async function startTraining() {
  const root = $("training");
  const data = pageData(root);
  await initOnline(data);
  try {
    // attempts made here signed out, now signed in: into the account once (a failure leaves
    // them for the next page)
    if (data.me) await mergeLocal(localStorage).catch(() => 0);
    const view = String(root.dataset.view || "next");
    if (view === "dashboard") await startDashboard(data);
    else if (view === "storm") await startStorm(data);
    else await new PuzzlePage(data, view).init();
  } catch (e) {
    const m = document.getElementById("feedback") || document.getElementById("kept");
    if (m) m.textContent = errorText(e);
  } finally {
    document.documentElement.dataset.ready = "1";
  }
}
