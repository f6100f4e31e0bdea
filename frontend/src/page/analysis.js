// @ts-check
/**
 * page/analysis.js: the analysis board's controller. It keeps a variation tree of moves from a
 * start position (a record's tree: comments, NAGs, clocks, arrows and circles), asks the server
 * for every position it shows (board, legal moves, reasons), runs the engine on the position
 * shown, shows the endgame tables' values in an ending, reviews the main line, edits positions,
 * and reads and writes records. It holds no rules: every move is checked and played by the
 * server. Each edit of the tree is told to `app.edited` by node path (a study saves it).
 *
 * @typedef {import("../board/types.js").MoveInfo} MoveInfo
 * @typedef {import("../board/types.js").BoardApi} BoardApi
 * @typedef {import("../board/types.js").Piece} Piece
 * @typedef {import("./tree.js").TreeNode} TreeNode
 * @typedef {import("./format.js").Outcome} Outcome
 * @typedef {{start: string, moves?: string[], ply?: number, answer?: any, tree?: any,
 *   message?: string}} AnalysisStart
 *   what the board opens with: a position and moves (or the server's answer for them), or a
 *   record's tree (`/api/record/import`'s, a study chapter's)
 * @typedef {{op: string, path: number[], [key: string]: unknown}} Edit
 *   an edit of the tree by node path (emergo.server.study.chapters)
 * @typedef {{go: (route: any) => void, edited?: (edit: Edit) => void, shown?: (tree: import("./tree.js").Tree) => void,
 *   importRecord?: (text: string) => Promise<boolean>}} AnalysisApp
 */
import {Board} from "../board/index.js";
import {api} from "./api.js";
import {$, buttonEl, errorText, input, say, select} from "./dom.js";
import {resultText, startPosition, statusText} from "./format.js";
import {Tree, markOf, recordShapes, withMark} from "./tree.js";
import {MoveList} from "./movelist.js";
import {drawPlayers} from "./players.js";
import {boardSettings, onSettings, settings} from "./settings.js";
import {Analyst, clearLines, drawLines} from "./engine.js";
import {Review} from "./review.js";
import {editSquare, positionText, startEditing, stopEditing} from "./editor.js";
import {exportRecord, showRecord} from "./records.js";
import {playSound} from "./sound.js";
import {TablebasePanel} from "./tablebase.js";

export class AnalysisController {
  /** @param {AnalysisApp} app */
  constructor(app) {
    this.app = app;
    this.tree = new Tree("w 12/12", "white");
    /** The geometry of the board shown. @type {any} */
    this.geometry = null;
    /** The position shown (the server's data). @type {any} */
    this.current = null;
    /** Where a record's game ended when the rules did not end it (resigned, on time, agreed): shown there. @type {{node: TreeNode, outcome: Outcome}|null} */
    this.ending = null;
    /** The tags of the record read, written back on export. @type {Record<string, string>} */
    this.tags = {};
    /** The node a message under the board speaks of: another node shown clears it. @type {TreeNode|null} */
    this.noteNode = null;
    this.request = 0;
    /** @type {{pieces: Record<string, Piece>}|null} */
    this.editing = null;
    /** @type {ReturnType<typeof Review>|null} */
    this.review = null;
    /** The node the engine's lines are of. @type {TreeNode|null} */
    this.analysed = null;
    /** @type {import("./engine.js").Line[]} */
    this.lines = [];
    this.analyst = Analyst({
      info: (lines) => this.showLines(lines),
      done: (lines) => {
        this.showLines(lines);
        this.setAnalysing(false);
      },
      error: (text) => {
        this.note(text);
        this.setAnalysing(false);
      },
    });
    this.tables = TablebasePanel({
      play: (move) => this.play(move.text, "oblique"),
      names: () => settings.names,
    });
    /** The tables' answer for each node asked about. @type {WeakMap<TreeNode, import("./tablebase.js").TableAnswer|null>} */
    this.tableAnswers = new WeakMap();
    this.tablesRequest = 0;
    /** @type {(() => void)[]} */
    this.offs = [];
    this.moveList = MoveList($("moves"), {names: () => settings.names, go: (node) => this.gotoNode(node)});
    this.board = Board($("board"), {
      ...boardSettings(),
      events: {
        move: (move) => this.play(move.text, "oblique"),
        refused: (_square, reason, hint) => this.note(reason, !hint),
        select: () => this.note(""),
        square: (square) => this.editSquare(square),
        shapes: (shapes) => {
          const node = this.tree.here;
          const before = JSON.stringify(recordShapes(node.shapes));
          node.shapes = shapes;
          const after = recordShapes(shapes);
          if (JSON.stringify(after) !== before) this.edited({op: "set", path: Tree.indices(node), shapes: after});
        },
      },
    });
    this.offs.push(onSettings(() => {
      this.board.set(boardSettings());
      if (this.current) this.show(this.current, false);
    }));
    this.wire();
  }

  /** Listen to a page element while this controller lives. @param {string|Element} id @param {string} type @param {(e: any) => void} f */
  on(id, type, f) {
    const target = typeof id === "string" ? $(id) : id;
    target.addEventListener(type, f);
    this.offs.push(() => target.removeEventListener(type, f));
  }

  wire() {
    this.on("var-prev", "click", () => this.switchVariation(-1));
    this.on("var-next", "click", () => this.switchVariation(1));
    this.on("promote", "click", () => this.promote());
    this.on("delete-var", "click", () => this.deleteNode());
    this.on("first", "click", () => this.goto(0));
    this.on("back", "click", () => this.goto(this.tree.ply - 1));
    this.on("forward", "click", () => this.goto(this.tree.ply + 1, true));
    this.on("last", "click", () => this.goto(this.tree.nodes.length - 1));
    this.on("analyse", "click", () => (this.analyst.running ? this.stopAnalysis() : this.startAnalysis()));
    this.on("review", "click", () => this.toggleReview());
    this.on("import", "click", () => this.importRecord(/** @type {HTMLTextAreaElement} */ ($("record")).value));
    this.on("upload", "change", async () => {
      const file = input("upload").files?.[0];
      if (file) await this.importRecord(await file.text());
      input("upload").value = "";
    });
    this.on("export", "click", () => this.exportRecord());
    this.on("edit", "click", () => (this.editing ? this.finishEditing() : this.startEditing()));
    this.on("edit-done", "click", () => this.finishEditing());
    this.on("edit-clear", "click", () => {
      if (!this.editing) return;
      this.editing.pieces = {};
      this.board.set({pieces: {}, lastMove: null, movable: null});
    });
    this.on("move-form", "submit", async (/** @type {Event} */ e) => {
      e.preventDefault();
      if (await this.play(input("move-text").value, settings.names)) input("move-text").value = "";
    });
    this.on("start-game", "click", () => this.startGame(false));
    this.on("start-new", "click", () => this.startGame(true));
    this.on("comment", "input", () => {
      const node = this.tree.here;
      node.comment = /** @type {HTMLTextAreaElement} */ ($("comment")).value.replace(/\s+/g, " ").trimStart();
      this.moveList.draw(this.tree);
      this.edited({op: "set", path: Tree.indices(node), comment: node.comment.trim()});
    });
    for (const b of document.querySelectorAll("#marks button")) {
      const mark = /** @type {HTMLElement} */ (b).dataset.mark || "";
      this.on(b, "click", () => {
        const node = this.tree.here;
        if (!node.move) return;
        node.nags = withMark(node, markOf(node) === mark ? "" : mark);
        this.drawAnnotation();
        this.moveList.draw(this.tree);
        this.edited({op: "set", path: Tree.indices(node), nags: node.nags});
      });
    }
  }

  /** The page's keys (not the board's: its arrows move its cursor). @param {KeyboardEvent} e */
  key(e) {
    if (e.key === "ArrowLeft") this.goto(this.tree.ply - 1);
    else if (e.key === "ArrowRight") this.goto(this.tree.ply + 1, true);
    else if (e.key === "ArrowUp") this.switchVariation(-1);
    else if (e.key === "ArrowDown") this.switchVariation(1);
    else if (e.key === "Home") this.goto(0);
    else if (e.key === "End") this.goto(this.tree.nodes.length - 1);
    else return false;
    return true;
  }

  destroy() {
    this.stopAnalysis();
    this.analyst.close();
    this.review?.close();
    for (const off of this.offs) off();
    this.board.destroy();
    this.request++;
    this.tablesRequest++;
    this.tables.hide();
    clearLines();
  }

  /** Say something of the node shown (an error, or a note): another node shown clears it. @param {string} text @param {boolean} [error] */
  note(text, error = true) {
    this.noteNode = text ? this.tree.here : null;
    say(text, error);
  }

  /** An edit of the tree, for whoever keeps it (a study). @param {Edit} edit */
  edited(edit) {
    this.app.edited?.(edit);
  }

  // --- opening a board ----------------------------------------------------------------------

  /** @param {AnalysisStart} what */
  async open(what) {
    if (what.tree) return this.openTree(what.tree, what.message);
    await this.load(what.start, what.moves || [], what.ply, what.answer);
  }

  /** Show a new tree from its start position's data. @param {Tree} tree @param {any} data the start's or the line's end's answer */
  async setTree(tree, data) {
    this.tree = tree;
    this.ending = null;
    this.tags = {};
    this.tableAnswers = new WeakMap();
    this.geometry = data.geometry;
    this.board.set({squares: this.geometry.squares, size: this.geometry.size, shape: this.geometry.shape});
    this.stopAnalysis();
  }

  /**
   * Start a new tree from a position and moves; a position the server refuses leaves the board
   * as it was (the error is the caller's to say).
   * @param {string} start @param {string[]} [moves] @param {number} [ply] @param {any} [answer] the server's answer for them, if asked already
   */
  async load(start, moves = [], ply, answer) {
    const data = answer || (await api("/api/position", {pos: start, moves}));
    await this.setTree(Tree.line(data.line.start, data.line.turn, data.line.moves), data);
    this.tree.end.data = data;
    await this.goto(ply === undefined ? this.tree.moves.length : ply);
  }

  /**
   * A record's tree (`tree`: the record's JSON form with each move's data): its variations,
   * comments, NAGs, clocks and shapes, and the result where it ended.
   * @param {any} tree @param {string} [message]
   */
  async openTree(tree, message) {
    const data = await api("/api/position", {pos: tree.start, moves: []});
    await this.setTree(Tree.fromJson(tree), data);
    this.tree.root.data = data;
    this.tags = {...(tree.headers || {})};
    if (tree.outcome) this.ending = {node: this.tree.mainEnd, outcome: tree.outcome};
    await this.goto(this.tree.nodes.length - 1);
    if (message) this.note(message, false);
  }

  // --- moving through the tree --------------------------------------------------------------

  /** @param {TreeNode} node @returns {Promise<any>} */
  async positionOf(node) {
    if (!node.data) node.data = await api("/api/position", {pos: this.tree.start, moves: Tree.path(node)});
    return node.data;
  }

  /** Show the move `ply` of the line. @param {number} ply @param {boolean} [animate] */
  async goto(ply, animate = false) {
    ply = Math.max(0, Math.min(this.tree.nodes.length - 1, ply));
    await this.gotoNode(this.tree.nodes[ply], animate);
  }

  /**
   * Show a node; the line becomes the one through it. The cursor moves at once (ten quick
   * presses of → go ten moves on); the board shows the position of the last one asked for.
   * @param {TreeNode} node @param {boolean} [animate]
   */
  async gotoNode(node, animate = false) {
    const id = ++this.request;
    if (this.tree.nodes[node.ply] !== node) this.tree.follow(node);
    this.tree.ply = node.ply;
    this.drawMoves();
    try {
      const data = await this.positionOf(node);
      if (id !== this.request) return;
      this.show(data, animate && !!data.lastMove);
    } catch (e) {
      if (id === this.request) this.note(errorText(e));
    }
  }

  /**
   * Play a move text (any notation, parsed by the server) at the node shown: its child with
   * that move if it has one, else a new child (a variation when it has children).
   * @param {string} text @param {"oblique"|"checker"} names
   */
  async play(text, names) {
    const node = this.tree.here;
    try {
      const data = await api("/api/move", {pos: this.tree.start, moves: Tree.path(node), text, names});
      if (this.tree.here !== node) return false;
      const known = Tree.find(node, data.move);
      const child = this.tree.child(node, data.move);
      child.data = data;
      if (!known) this.edited({op: "add", path: Tree.indices(node), move: data.move.text});
      this.tree.follow(child);
      this.request++;
      playSound(data.move.kind === "capture" ? "capture" : "move");
      this.show(data, true);
      return true;
    } catch (e) {
      this.note(errorText(e));
      this.board.set({});
      return false;
    }
  }

  /** Add a line of moves after `node` (through the children that hold them) and show its end. @param {TreeNode} node @param {MoveInfo[]} moves */
  async addLine(node, moves) {
    let n = node;
    for (const move of moves) {
      if (!Tree.find(n, move)) this.edited({op: "add", path: Tree.indices(n), move: move.text});
      n = this.tree.child(n, move);
    }
    this.tree.follow(n);
    await this.gotoNode(n, true);
  }

  /** @param {number} step */
  switchVariation(step) {
    const other = Tree.sibling(this.tree.here, step);
    if (!other) return this.note("no other move here", false);
    this.gotoNode(other);
  }

  promote() {
    const branch = Tree.branch(this.tree.here);
    if (!branch) return this.note("this is the main line", false);
    const path = Tree.indices(branch);
    this.tree.promote(this.tree.here);
    this.edited({op: "promote", path});
    this.note("");
    this.drawMoves();
  }

  deleteNode() {
    const node = this.tree.here;
    if (!node.parent) return this.note("nothing to delete at the start", false);
    const path = Tree.indices(node);
    for (let n = this.ending ? this.ending.node : null; n; n = n.parent) if (n === node) this.ending = null;
    this.tree.remove(node);
    this.edited({op: "delete", path});
    this.gotoNode(this.tree.here);
  }

  // --- showing ------------------------------------------------------------------------------

  /** The result to show at the node shown: the rules', or the record's where it ended. @param {any} data */
  outcomeHere(data) {
    if (data.outcome) return data.outcome;
    return this.ending && this.ending.node === this.tree.here ? this.ending.outcome : null;
  }

  /** The players' names and clocks of a record (its tags, its moves' [%clk]) at the node shown. */
  bars() {
    const names = {white: this.tags.White, black: this.tags.Black};
    /** @type {import("./players.js").GameBars} */
    const game = {};
    if (names.white && names.white !== "?" && names.black && names.black !== "?") game.names = names;
    const clocks = this.tree.clocksAt(this.tree.here);
    const base = Number((/^(\d+)\+/.exec(this.tags.TimeControl || "") || [])[1]);
    if (clocks.white !== null || clocks.black !== null || (base && this.hasClocks())) {
      const start = base || 0;
      game.clock = {white: clocks.white ?? start, black: clocks.black ?? start, running: null, at: 0, base: start, control: this.tags.TimeControl || "the record's"};
    }
    return game;
  }

  /** Does the tree hold a clock? */
  hasClocks() {
    return this.tree.mainLine().some((n) => n.clock !== null);
  }

  /** @param {any} data @param {boolean} animate */
  show(data, animate) {
    this.current = data;
    const node = this.tree.here;
    if (this.noteNode && this.noteNode !== node) this.note(""); // news of another position
    const outcome = this.outcomeHere(data);
    this.board.set({
      pieces: data.pieces,
      lastMove: data.lastMove,
      movable: outcome || this.editing ? null : {moves: data.moves, forbidden: data.forbidden, required: data.required},
      drawable: {shapes: node.shapes, autoShapes: []},
      animate,
    });
    drawPlayers(data, this.bars());
    $("status").textContent = statusText({...data, outcome});
    $("result").textContent = outcome ? resultText(outcome) : "";
    if (document.activeElement !== $("pos-text")) input("pos-text").value = data.position;
    this.drawMoves();
    this.drawAnnotation();
    this.showTables(node, data, !!outcome);
    if (this.analysed === node) this.showLines(this.lines);
    else if (this.analyst.running) this.startAnalysis(); // the engine follows the position shown
    else {
      this.lines = [];
      this.board.setAutoShapes(clearLines());
    }
    this.app.shown?.(this.tree);
  }

  drawMoves() {
    this.moveList.draw(this.tree);
    const here = this.tree.here;
    buttonEl("var-prev").disabled = buttonEl("var-next").disabled = !here.parent || here.parent.children.length < 2;
    buttonEl("promote").disabled = !Tree.inVariation(here);
    buttonEl("delete-var").disabled = !here.parent;
    buttonEl("first").disabled = buttonEl("back").disabled = this.tree.ply === 0;
    buttonEl("forward").disabled = buttonEl("last").disabled = this.tree.ply >= this.tree.nodes.length - 1;
  }

  /** The comment box and the mark buttons of the node shown. */
  drawAnnotation() {
    const node = this.tree.here;
    const box = /** @type {HTMLTextAreaElement} */ ($("comment"));
    if (document.activeElement !== box) box.value = node.comment;
    box.placeholder = node.move ? `A comment on ${settings.names === "checker" ? node.move.checker : node.move.text}` : "A comment on the game";
    const mark = markOf(node);
    for (const b of document.querySelectorAll("#marks button")) {
      b.setAttribute("aria-pressed", String(!!node.move && mark === /** @type {HTMLElement} */ (b).dataset.mark));
      /** @type {HTMLButtonElement} */ (b).disabled = !node.move;
    }
  }

  /**
   * The endgame tables' panel for the node shown, asked of the server once per node. It asks
   * only where the tables can hold the position (docs/tablebase.md: no man in hand, at most
   * three columns); the server decides, this only saves asking in the middle game.
   * @param {TreeNode} node @param {any} data @param {boolean} over
   */
  async showTables(node, data, over) {
    const id = ++this.tablesRequest;
    const pieces = Object.keys(data.pieces).length;
    if (over || this.editing || data.hands.white || data.hands.black || pieces > 3) return this.tables.hide();
    let answer = this.tableAnswers.get(node);
    if (answer === undefined) {
      this.tables.wait();
      try {
        answer = await api("/api/tablebase", {pos: this.tree.start, moves: Tree.path(node)});
        this.tableAnswers.set(node, answer || null);
      } catch {
        answer = null; // the panel is a help: without it the board works as before
      }
      if (id !== this.tablesRequest || this.tree.here !== node) return;
    }
    this.tables.draw(answer || null, data.turn);
  }

  // --- the engine -----------------------------------------------------------------------------

  /** @param {boolean} on */
  setAnalysing(on) {
    $("analyse").textContent = on ? "Stop" : "Analyse";
    $("analyse").setAttribute("aria-pressed", String(on));
  }

  async startAnalysis() {
    if (!this.current || this.outcomeHere(this.current)) return;
    const node = this.tree.here;
    this.analysed = node;
    this.lines = [];
    this.board.setAutoShapes(clearLines());
    const t = select("atime").value;
    /** @type {Record<string, unknown>} */
    const request = {pos: this.tree.start, moves: Tree.path(node), multipv: Number(select("multipv").value)};
    if (t === "inf") request.infinite = true;
    else request.time = Number(t);
    this.setAnalysing(true);
    try {
      await this.analyst.start(request);
    } catch (e) {
      this.note(errorText(e));
      this.setAnalysing(false);
    }
  }

  stopAnalysis() {
    this.analyst.stop();
    this.setAnalysing(false);
  }

  /** @param {import("./engine.js").Line[]} lines */
  showLines(lines) {
    this.lines = lines;
    const node = this.analysed;
    if (!node || node !== this.tree.here) return;
    const shapes = drawLines(lines, node.ply + 1, this.tree.firstTurn, (line, k) => {
      this.stopAnalysis();
      this.addLine(node, line.pv.slice(0, k + 1));
    });
    this.board.setAutoShapes(shapes);
  }

  toggleReview() {
    if (this.review && !this.review.over) return this.review.stop();
    const nodes = this.tree.mainLine();
    if (!nodes.length) return this.note("no moves to review");
    this.note("");
    this.review = Review(this.tree.start, nodes, () => this.drawMoves());
  }

  // --- the position editor ----------------------------------------------------------------

  startEditing() {
    if (!this.current) return;
    this.stopAnalysis();
    this.tablesRequest++;
    this.tables.hide();
    this.editing = startEditing(this.board, this.current);
  }

  /** @param {string} square */
  editSquare(square) {
    return !!this.editing && editSquare(this.board, this.editing, square);
  }

  async finishEditing() {
    if (!this.editing || !this.geometry) return;
    const pos = positionText(this.editing.pieces, this.geometry.variant);
    try {
      const data = await api("/api/position", {pos, moves: []});
      this.editing = null;
      stopEditing();
      this.app.go({page: "analysis", start: pos, answer: data});
    } catch (e) {
      this.note(errorText(e));
    }
  }

  // --- records ------------------------------------------------------------------------------

  /** @param {string} text */
  async importRecord(text) {
    try {
      if (this.app.importRecord && (await this.app.importRecord(text))) return;
      const data = await api("/api/record/import", {text, names: settings.names});
      const game = data.games[0];
      const more = data.games.length > 1 ? ` (the first of ${data.games.length} games)` : "";
      const message = game.errors.length ? `imported up to an error: ${game.errors[0]}` : `imported ${game.moves.length} moves${more}`;
      this.app.go({page: "record", tree: game.tree, message, error: game.errors.length > 0});
    } catch (e) {
      this.note(errorText(e));
    }
  }

  /** The record of the tree shown: its text. */
  recordText() {
    return exportRecord(this.tree, this.geometry.variant, this.tags, this.ending ? this.ending.node : null);
  }

  async exportRecord() {
    try {
      showRecord(await this.recordText());
    } catch (e) {
      this.note(errorText(e));
    }
  }

  // --- a game from here ---------------------------------------------------------------------

  /** Start a game: from the position shown, or a new one from the variant's start. @param {boolean} fresh */
  startGame(fresh) {
    if (!this.geometry) return;
    const g = this.geometry;
    const from = fresh ? {pos: startPosition(g.variant, g.men), moves: []} : {pos: this.tree.start, moves: Tree.path(this.tree.here)};
    this.app.go({page: "new-game", ...from});
  }
}
