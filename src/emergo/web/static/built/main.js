// Built from static/page/ and static/board/ by tools/web-check/build.mjs: do not edit.
import {
  $,
  Analyst,
  Board,
  MoveList,
  Socket,
  Tree,
  api,
  applySettings,
  ask,
  boardSettings,
  buttonEl,
  changeSettings,
  chosenSetup,
  clearLines,
  dismiss,
  drawLines,
  drawPlayers,
  el,
  errorText,
  initConfirm,
  initSaved,
  input,
  loadSettings,
  onSettings,
  playSound,
  plies,
  recordDate,
  refreshSaved,
  resultText,
  say,
  select,
  settings,
  startPosition,
  statusText,
  title,
  wireSetup
} from "./chunk-BYQIQH3L.js";

// ../../src/emergo/web/static/page/review.js
function progress(text, done, total) {
  $("review-state").hidden = false;
  $("review-text").textContent = text;
  const bar = (
    /** @type {HTMLProgressElement} */
    $("review-progress")
  );
  if (total) {
    bar.max = total;
    bar.value = done || 0;
  }
}
function Review(start, nodes, changed) {
  let marked = 0;
  let over = false;
  const finish = () => {
    over = true;
    $("review").textContent = "Annotate";
    $("review").setAttribute("aria-pressed", "false");
    socket.close();
  };
  const socket = new Socket("/ws/review", {
    onMessage(msg) {
      if (msg.type === "move") {
        const node = nodes[msg.move.ply - 1];
        if (node) node.review = msg.move;
        marked++;
        changed();
      } else if (msg.type === "progress") {
        progress(`${msg.done} of ${msg.total} positions searched, ${marked} moves reviewed`, msg.done, msg.total);
      } else if (msg.type === "done") {
        $("record").value = msg.text;
        const bad = msg.moves.filter((m) => m.mark).length;
        const what = msg.stopped ? `stopped: ${msg.moves.length} of ${nodes.length} moves reviewed` : "reviewed";
        progress(`${what}: ${bad} move${bad === 1 ? "" : "s"} marked (?! inaccuracy, ? mistake, ?? blunder)`);
        say(`${what}: ${bad} move${bad === 1 ? "" : "s"} marked`, false);
        finish();
        changed();
      } else if (msg.type === "error") {
        say(msg.error);
        finish();
      }
    },
    onStatus(status) {
      if (status !== "open" && !over) {
        say("the review was cut off");
        finish();
      }
    }
  });
  for (const n of nodes) n.review = null;
  $("review").textContent = "Stop";
  $("review").setAttribute("aria-pressed", "true");
  progress("the engine reviews every move ...", 0, nodes.length + 1);
  socket.opened.then(() => {
    const seconds = Number(select("rtime").value);
    socket.send({ type: "start", pos: start, moves: nodes.map((n) => (
      /** @type {any} */
      n.move.text
    )), time: seconds, names: settings.names });
  }, () => finish());
  changed();
  return {
    get over() {
      return over;
    },
    stop() {
      socket.send({ type: "stop" });
    },
    close() {
      if (!over) finish();
    }
  };
}

// ../../src/emergo/web/static/page/editor.js
function brushed(old, brush) {
  const men = (p, color) => !p ? 0 : (p.owner === color ? p.caps : 0) + (p.owner !== color ? p.prisoners : 0);
  let piece;
  if (brush === "empty") piece = null;
  else if (!old) piece = { owner: (
    /** @type {"white"|"black"} */
    brush
  ), caps: 1, prisoners: 0 };
  else if (old.owner === brush) piece = { ...old, caps: old.caps + 1 };
  else piece = { owner: (
    /** @type {"white"|"black"} */
    brush
  ), caps: 1, prisoners: old.prisoners ? 0 : old.caps };
  const after = piece || void 0;
  return { piece, white: men(after, "white") - men(old, "white"), black: men(after, "black") - men(old, "black") };
}
function positionText(pieces, variant) {
  const letter = (owner) => owner === "white" ? "w" : "b";
  const stacks = Object.entries(pieces).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0).map(([sq, p]) => `${sq}:${p.prisoners ? `${letter(p.owner === "white" ? "black" : "white")}${p.prisoners}` : ""}${letter(p.owner)}${p.caps}`);
  const prefix = variant === "9x9" ? "" : `${variant} `;
  return `${prefix}${select("edit-turn").value} ${Number(input("hand-w").value)}/${Number(input("hand-b").value)} ${stacks.join(" ")}`.trim();
}
function takeFromHands(white, black) {
  for (
    const [id, n] of
    /** @type {[string, number][]} */
    [["hand-w", white], ["hand-b", black]]
  ) {
    input(id).value = String(Math.max(0, Number(input(id).value) - n));
  }
}
function startEditing(board, current) {
  const editing = { pieces: structuredClone(current.pieces) };
  input("hand-w").value = String(current.hands.white);
  input("hand-b").value = String(current.hands.black);
  select("edit-turn").value = current.turn === "white" ? "w" : "b";
  $("editor").hidden = false;
  $("edit").setAttribute("aria-pressed", "true");
  board.set({ pieces: editing.pieces, lastMove: null, movable: null });
  $("status").textContent = "Editing the position: click squares with the brush; Done checks it";
  say("a man put on the board comes from its side's hand; Done checks the position", false);
  return editing;
}
function editSquare(board, editing, square) {
  const change = brushed(editing.pieces[square], select("brush").value);
  if (change.piece) editing.pieces[square] = change.piece;
  else delete editing.pieces[square];
  takeFromHands(change.white, change.black);
  board.set({ pieces: { ...editing.pieces }, lastMove: null, movable: null });
  return true;
}
function stopEditing() {
  $("editor").hidden = true;
  $("edit").setAttribute("aria-pressed", "false");
}

// ../../src/emergo/web/static/page/study.js
var mark = (state) => {
  document.documentElement.dataset.study = state;
};
var Study = class {
  /** @param {() => {start: string, tree: any[]}} body the tree as the server takes it */
  constructor(body) {
    this.body = body;
    this.id = null;
    this.epoch = 0;
    this.timer = 0;
    this.saving = false;
    this.again = false;
    this.edits = 0;
  }
  /** A study opened from the store: the tree shown is it. @param {number} id */
  opened(id) {
    this.id = id;
    history.replaceState(null, "", `/?study=${id}`);
    mark("saved");
  }
  /** A new tree: the study is no longer the one shown (its saved copy stays). */
  forget() {
    this.epoch++;
    clearTimeout(this.timer);
    if (this.id === null) return;
    this.id = null;
    if (new URL(location.href).searchParams.has("study")) history.replaceState(null, "", "/");
  }
  /** The tree was edited: save it soon. @param {boolean} empty the tree has no move */
  changed(empty) {
    if (this.id === null && empty) return;
    this.edits++;
    mark("pending");
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.save(), 400);
  }
  async save() {
    if (this.saving) {
      this.again = true;
      return;
    }
    this.saving = true;
    const epoch = this.epoch;
    const sent = this.edits;
    mark("saving");
    try {
      if (this.id === null) {
        const data = await api("/api/studies", this.body());
        if (epoch === this.epoch) {
          this.id = data.id;
          history.replaceState(null, "", `/?study=${data.id}`);
          refreshSaved();
        }
      } else {
        await api(`/api/studies/${this.id}`, this.body(), "PUT");
      }
      if (epoch === this.epoch) mark(this.edits === sent ? "saved" : "pending");
    } catch (e) {
      mark("error");
      say(`the study is not saved: ${errorText(e)}`);
    } finally {
      this.saving = false;
      if (this.again) {
        this.again = false;
        if (epoch === this.epoch) this.save();
      }
    }
  }
};

// ../../src/emergo/web/static/page/records.js
async function exportRecord(tree, tags, ended) {
  const main2 = tree.mainLine();
  const { comments, marks } = tree.annotations();
  const all = { Date: recordDate(/* @__PURE__ */ new Date()), ...tags };
  const end = main2.length ? main2[main2.length - 1] : tree.root;
  if (ended !== end) {
    delete all.Result;
    delete all.Termination;
  }
  const body = { pos: tree.start, moves: main2.map((n) => (
    /** @type {MoveInfo} */
    n.move.text
  )), names: settings.names, tags: all, comments, marks };
  return (await api("/api/record/export", body)).text;
}
function showRecord(text) {
  $("record").value = text;
  const link = (
    /** @type {HTMLAnchorElement} */
    $("download")
  );
  if (link.href) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  link.hidden = false;
}

// ../../src/emergo/web/static/page/tablebase.js
var kindOf = (wdl) => wdl > 0 ? "win" : wdl < 0 ? "loss" : "draw";
function tableValue(tb, turn) {
  if (tb.wdl === 0) return "Draw";
  const winner = tb.wdl > 0 ? turn : turn === "white" ? "black" : "white";
  return `${title(winner)} wins in ${plies(Math.abs(tb.dtm))}`;
}
function moveGroups(tb) {
  const pick = (kind) => tb.moves.filter((m) => kindOf(m.wdl) === kind).sort((a, b) => a.dtm - b.dtm).map((m) => ({ move: m.move, label: kind === "draw" ? "draw" : `${kind} in ${plies(Math.abs(m.dtm))}` }));
  const groups = [
    { kind: "win", title: "Winning moves", moves: pick("win") },
    { kind: "draw", title: "Drawing moves", moves: pick("draw") },
    { kind: "loss", title: "Losing moves", moves: pick("loss") }
  ];
  return groups.filter((g) => g.moves.length);
}
function TablebasePanel(on) {
  const panel = $("tablebase-panel");
  const hide = () => {
    panel.hidden = true;
    panel.classList.remove("stale");
    $("tb-value").textContent = "";
    $("tb-moves").replaceChildren();
  };
  return {
    hide,
    /** A new position is being asked for: the one shown stays, dimmed, until the answer comes. */
    wait() {
      if (!panel.hidden) panel.classList.add("stale");
    },
    /** Show the tables' answer for the position shown, or hide the panel outside them. @param {TableAnswer|null} answer @param {"white"|"black"} turn */
    draw(answer, turn) {
      const tb = answer && answer.tablebase;
      if (!answer || !tb && !answer.missing) return hide();
      panel.hidden = false;
      panel.classList.remove("stale");
      const value = $("tb-value");
      const list = $("tb-moves");
      list.replaceChildren();
      if (!tb) {
        value.className = "tb-value missing";
        value.title = "";
        value.textContent = `Not in the tables built here: ${answer.missing}`;
        return;
      }
      value.className = `tb-value ${kindOf(tb.wdl)}`;
      value.textContent = tableValue(tb, turn);
      value.title = "Perfect play from here, by the endgame tables: distances in plies to the end of the game";
      for (const group of moveGroups(tb)) {
        list.append(el("h3", `tb-group ${group.kind}`, group.title));
        const ul = el("ul", "tb-list");
        for (const { move, label } of group.moves) {
          const b = (
            /** @type {HTMLButtonElement} */
            el("button", "tb-move")
          );
          b.type = "button";
          b.dataset.move = move.text;
          b.title = `Play ${on.names() === "checker" ? move.checker : move.text}`;
          b.append(el("span", "tb-text", on.names() === "checker" ? move.checker : move.text), el("span", `tb-label ${group.kind}`, label));
          b.addEventListener("click", () => on.play(move));
          const li = el("li");
          li.append(b);
          ul.append(li);
        }
        list.append(ul);
      }
    }
  };
}

// ../../src/emergo/web/static/page/analysis.js
var AnalysisController = class {
  /** @param {{go: (route: any) => void}} app */
  constructor(app2) {
    this.app = app2;
    this.tree = new Tree("w 12/12", "white");
    this.geometry = null;
    this.current = null;
    this.ending = null;
    this.tags = {};
    this.request = 0;
    this.editing = null;
    this.review = null;
    this.study = new Study(() => ({ start: this.tree.start, tree: this.tree.toJson() }));
    this.analysed = null;
    this.lines = [];
    this.analyst = Analyst({
      info: (lines) => this.showLines(lines),
      done: (lines) => {
        this.showLines(lines);
        this.setAnalysing(false);
      },
      error: (text) => {
        say(text);
        this.setAnalysing(false);
      }
    });
    this.tables = TablebasePanel({
      play: (move) => this.play(move.text, "oblique"),
      names: () => settings.names
    });
    this.tableAnswers = /* @__PURE__ */ new WeakMap();
    this.tablesRequest = 0;
    this.offs = [];
    this.moveList = MoveList($("moves"), { names: () => settings.names, go: (node) => this.gotoNode(node) });
    this.board = Board($("board"), {
      ...boardSettings(),
      events: {
        move: (move) => this.play(move.text, "oblique"),
        refused: (_square, reason, hint) => say(reason, !hint),
        select: () => say(""),
        square: (square) => this.editSquare(square),
        shapes: (shapes) => {
          this.tree.here.shapes = shapes;
        }
      }
    });
    this.offs.push(onSettings(() => {
      this.board.set(boardSettings());
      if (this.current) this.show(this.current, false);
    }));
    this.wire();
  }
  /** Listen to a page element while this controller lives. @param {string} id @param {string} type @param {(e: any) => void} f */
  on(id, type, f) {
    const target = $(id);
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
    this.on("last", "click", () => this.goto(this.tree.moves.length));
    this.on("analyse", "click", () => this.analyst.running ? this.stopAnalysis() : this.startAnalysis());
    this.on("review", "click", () => this.toggleReview());
    this.on("import", "click", () => this.importRecord(
      /** @type {HTMLTextAreaElement} */
      $("record").value
    ));
    this.on("upload", "change", async () => {
      const file = input("upload").files?.[0];
      if (file) await this.importRecord(await file.text());
    });
    this.on("export", "click", () => this.exportRecord());
    this.on("edit", "click", () => this.editing ? this.finishEditing() : this.startEditing());
    this.on("edit-done", "click", () => this.finishEditing());
    this.on("edit-clear", "click", () => {
      if (!this.editing) return;
      this.editing.pieces = {};
      this.board.set({ pieces: {}, lastMove: null, movable: null });
    });
    this.on("move-form", "submit", async (e) => {
      e.preventDefault();
      if (await this.play(input("move-text").value, settings.names)) input("move-text").value = "";
    });
    this.on("start-game", "click", () => this.startGame(false));
    this.on("start-new", "click", () => this.startGame(true));
    this.on("comment", "input", () => {
      this.tree.here.comment = /** @type {HTMLTextAreaElement} */
      $("comment").value.replace(/\s+/g, " ").trimStart();
      this.moveList.draw(this.tree);
      this.treeChanged();
    });
    for (const b of document.querySelectorAll("#marks button")) {
      const mark2 = (
        /** @type {HTMLElement} */
        b.dataset.mark || ""
      );
      const f = () => {
        const node = this.tree.here;
        if (!node.move) return;
        node.mark = node.mark === mark2 ? "" : mark2;
        this.drawAnnotation();
        this.moveList.draw(this.tree);
        this.treeChanged();
      };
      b.addEventListener("click", f);
      this.offs.push(() => b.removeEventListener("click", f));
    }
  }
  /** The page's keys (not the board's: its arrows move its cursor). @param {KeyboardEvent} e */
  key(e) {
    if (e.key === "ArrowLeft") this.goto(this.tree.ply - 1);
    else if (e.key === "ArrowRight") this.goto(this.tree.ply + 1, true);
    else if (e.key === "ArrowUp") this.switchVariation(-1);
    else if (e.key === "ArrowDown") this.switchVariation(1);
    else if (e.key === "Home") this.goto(0);
    else if (e.key === "End") this.goto(this.tree.moves.length);
    else return false;
    return true;
  }
  destroy() {
    this.stopAnalysis();
    this.analyst.close();
    this.review?.close();
    this.study.forget();
    for (const off of this.offs) off();
    this.board.destroy();
    this.request++;
    this.tablesRequest++;
    this.tables.hide();
    clearLines();
  }
  // --- opening a board ----------------------------------------------------------------------
  /** @param {AnalysisStart} what */
  async open(what) {
    if (what.study) return this.openStudy(what.study);
    if (what.record) return this.openRecord(what.record, what.message);
    await this.load(what.start, what.moves || [], what.ply, what.answer);
  }
  /**
   * Start a new tree from a position and moves.
   * @param {string} start @param {string[]} [moves] @param {number} [ply] @param {any} [answer] the server's answer for them, if asked already
   */
  async load(start, moves = [], ply, answer) {
    const data = answer || await api("/api/position", { pos: start, moves });
    this.study.forget();
    this.tree = Tree.line(data.line.start, data.line.turn, data.line.moves);
    this.tree.end.data = data;
    this.ending = null;
    this.tags = {};
    this.geometry = data.geometry;
    this.board.set({ squares: this.geometry.squares, size: this.geometry.size, shape: this.geometry.shape });
    input("pos-text").value = this.tree.start;
    this.stopAnalysis();
    await this.goto(ply === void 0 ? this.tree.moves.length : ply);
  }
  /** A record's game (as `/api/record/import` reads it): its moves, comments, marks and result. @param {any} game @param {string} [message] */
  async openRecord(game2, message) {
    await this.load(game2.start, game2.moves.map((m) => m.text));
    this.tags = game2.tags || {};
    const nodes = [this.tree.root, ...this.tree.mainLine()];
    for (const [ply, text] of Object.entries(game2.comments || {})) if (nodes[Number(ply)]) nodes[Number(ply)].comment = text;
    for (const [ply, mark2] of Object.entries(game2.marks || {})) if (nodes[Number(ply)]) nodes[Number(ply)].mark = mark2;
    if (game2.outcome) this.ending = { node: this.tree.end, outcome: game2.outcome, tags: this.tags };
    if (message) say(message, false);
    await this.goto(this.tree.moves.length);
  }
  /** Open a saved study: its start, its tree, the end of its main line. @param {number} id */
  async openStudy(id) {
    const data = await api(`/api/studies/${id}`);
    await this.load(data.start, [], 0);
    this.tree.grow(this.tree.root, data.tree);
    this.study.opened(id);
    this.tree.follow(this.tree.root);
    await this.goto(this.tree.moves.length);
  }
  // --- moving through the tree --------------------------------------------------------------
  /** @param {TreeNode} node @returns {Promise<any>} */
  async positionOf(node) {
    if (!node.data) node.data = await api("/api/position", { pos: this.tree.start, moves: Tree.path(node) });
    return node.data;
  }
  /** Show the move `ply` of the line. @param {number} ply @param {boolean} [animate] */
  async goto(ply, animate = false) {
    ply = Math.max(0, Math.min(this.tree.moves.length, ply));
    await this.gotoNode(this.tree.nodes[ply], animate);
  }
  /** Show a node; the line becomes the one through it. @param {TreeNode} node @param {boolean} [animate] */
  async gotoNode(node, animate = false) {
    const id = ++this.request;
    try {
      const data = await this.positionOf(node);
      if (id !== this.request) return;
      if (this.tree.nodes[node.ply] !== node) this.tree.follow(node);
      this.tree.ply = node.ply;
      this.show(data, animate);
    } catch (e) {
      say(errorText(e));
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
      const data = await api("/api/move", { pos: this.tree.start, moves: Tree.path(node), text, names });
      if (this.tree.here !== node) return false;
      const child = this.tree.child(node, data.move);
      child.data = data;
      this.tree.follow(child);
      this.request++;
      say("");
      playSound(data.move.kind === "capture" ? "capture" : "move");
      this.show(data, true);
      this.treeChanged();
      return true;
    } catch (e) {
      say(errorText(e));
      this.board.set({});
      return false;
    }
  }
  /** Add a line of moves after `node` (through the children that hold them) and show its end. @param {TreeNode} node @param {MoveInfo[]} moves */
  async addLine(node, moves) {
    let n = node;
    for (const move of moves) n = this.tree.child(n, move);
    this.tree.follow(n);
    this.treeChanged();
    await this.gotoNode(n, true);
  }
  /** @param {number} step */
  switchVariation(step) {
    const other = Tree.sibling(this.tree.here, step);
    if (!other) return say("no other move here", false);
    this.gotoNode(other);
  }
  promote() {
    if (!this.tree.promote(this.tree.here)) return say("this is the main line", false);
    say("");
    this.drawMoves();
    this.treeChanged();
  }
  deleteNode() {
    const node = this.tree.here;
    if (!this.tree.remove(node)) return say("nothing to delete at the start", false);
    say("");
    this.treeChanged();
    this.gotoNode(this.tree.here);
  }
  // --- showing ------------------------------------------------------------------------------
  /** The result to show at the node shown: the rules', or the record's where it ended. @param {any} data */
  outcomeHere(data) {
    if (data.outcome) return data.outcome;
    return this.ending && this.ending.node === this.tree.here ? this.ending.outcome : null;
  }
  /** @param {any} data @param {boolean} animate */
  show(data, animate) {
    this.current = data;
    const node = this.tree.here;
    const outcome = this.outcomeHere(data);
    this.board.set({
      pieces: data.pieces,
      lastMove: data.lastMove,
      movable: outcome || this.editing ? null : { moves: data.moves, forbidden: data.forbidden, required: data.required },
      drawable: { shapes: node.shapes, autoShapes: [] },
      animate
    });
    drawPlayers(data);
    $("status").textContent = statusText({ ...data, outcome });
    $("result").textContent = outcome ? resultText(outcome) : "";
    this.drawMoves();
    this.drawAnnotation();
    this.showTables(node, data, !!outcome);
    if (this.analysed === node) this.showLines(this.lines);
    else if (this.analyst.running) this.startAnalysis();
    else {
      this.lines = [];
      this.board.setAutoShapes(clearLines());
    }
  }
  drawMoves() {
    this.moveList.draw(this.tree);
    const here = this.tree.here;
    buttonEl("var-prev").disabled = buttonEl("var-next").disabled = !here.parent || here.parent.children.length < 2;
    buttonEl("promote").disabled = !Tree.inVariation(here);
    buttonEl("delete-var").disabled = !here.parent;
  }
  /** The comment box and the mark buttons of the node shown. */
  drawAnnotation() {
    const node = this.tree.here;
    const box = (
      /** @type {HTMLTextAreaElement} */
      $("comment")
    );
    if (document.activeElement !== box) box.value = node.comment;
    box.placeholder = node.move ? `A comment on ${settings.names === "checker" ? node.move.checker : node.move.text}` : "A comment on the game";
    for (const b of document.querySelectorAll("#marks button")) {
      const mark2 = (
        /** @type {HTMLElement} */
        b.dataset.mark || ""
      );
      b.setAttribute("aria-pressed", String(!!node.move && node.mark === mark2));
      b.disabled = !node.move;
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
    if (answer === void 0) {
      this.tables.wait();
      try {
        answer = await api("/api/tablebase", { pos: this.tree.start, moves: Tree.path(node) });
        this.tableAnswers.set(node, answer || null);
      } catch {
        answer = null;
      }
      if (id !== this.tablesRequest || this.tree.here !== node) return;
    }
    this.tables.draw(answer || null, data.turn);
  }
  /** The tree was edited: the study is saved soon. */
  treeChanged() {
    this.study.changed(!this.tree.root.children.length);
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
    const request = { pos: this.tree.start, moves: Tree.path(node), multipv: Number(select("multipv").value) };
    if (t === "inf") request.infinite = true;
    else request.time = Number(t);
    this.setAnalysing(true);
    try {
      await this.analyst.start(request);
    } catch (e) {
      say(errorText(e));
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
    if (!nodes.length) return say("no moves to review");
    say("");
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
      const data = await api("/api/position", { pos, moves: [] });
      this.editing = null;
      stopEditing();
      await this.load(pos, [], void 0, data);
      say("");
    } catch (e) {
      say(errorText(e));
    }
  }
  // --- records ------------------------------------------------------------------------------
  /** @param {string} text */
  async importRecord(text) {
    try {
      const data = await api("/api/record/import", { text, names: settings.names });
      const game2 = data.games[0];
      const message = game2.errors.length ? `imported up to an error: ${game2.errors[0]}` : `imported ${game2.moves.length} moves`;
      history.replaceState(null, "", "/");
      await this.openRecord(game2);
      say(message, game2.errors.length > 0);
    } catch (e) {
      say(errorText(e));
    }
  }
  async exportRecord() {
    try {
      showRecord(await exportRecord(this.tree, this.tags, this.ending ? this.ending.node : null));
    } catch (e) {
      say(errorText(e));
    }
  }
  // --- a game from here ---------------------------------------------------------------------
  /** Start a game: from the position shown, or a new one from the variant's start. @param {boolean} fresh */
  startGame(fresh) {
    if (!this.geometry) return;
    const g = this.geometry;
    const from = fresh ? { pos: startPosition(g.variant, g.men), moves: [] } : { pos: this.tree.start, moves: Tree.path(this.tree.here) };
    this.app.go({ page: "new-game", ...from });
  }
};

// ../../src/emergo/web/static/page/main.js
var controller = null;
var HEX_VIEW = "The hexagon (R4 hex) has one picture and one naming: no diamond/checkerboard view, no checkerboard names";
var TIPS = {
  view: "Switch between the diamond (oblique-line) and the checkerboard view (v)",
  names: "Name squares the oblique-line way (R1) or the checkerboard way (R3)"
};
var setAddress = (url) => history.replaceState(null, "", url);
function mount(page, make) {
  controller?.destroy();
  controller = null;
  dismiss();
  say("");
  document.body.dataset.page = page;
  $("page-title").textContent = page === "game" ? "" : "Analysis board";
  controller = make();
  return controller;
}
var play = null;
var playModule = () => play = play || import("./play-2BYLXMRQ.js");
async function analysis(what) {
  const c = (
    /** @type {AnalysisController} */
    mount("analysis", () => new AnalysisController(app))
  );
  await c.open(what);
  applyShape(c.geometry);
}
async function game(id) {
  const { PlayController } = await playModule();
  setAddress(`/?game=${id}`);
  const c = (
    /** @type {PlayController} */
    mount("game", () => new PlayController(app, id))
  );
  $("page-title").textContent = `Game ${id}`;
  await c.ready;
  applyShape(c.geometry);
  refreshSaved();
}
async function gameRecord(id) {
  const text = await (await fetch(`/api/games/${id}/record`)).text();
  const data = await api("/api/record/import", { text, names: settings.names });
  const record = data.games[0];
  setAddress("/");
  await analysis({ start: record.start, record, message: `game ${id}: ←/→ step through its ${record.moves.length} moves` });
}
var app = {
  /** @param {any} route */
  async go(route) {
    try {
      if (route.page === "analysis") {
        setAddress(route.start && route.start !== "w 12/12" ? `/?pos=${encodeURIComponent(route.start)}` : "/");
        await analysis({ start: route.start || "w 12/12" });
      } else if (route.page === "analysis-here") {
        setAddress("/");
        await analysis({ start: route.line.start, moves: route.line.moves });
      } else if (route.page === "analysis-game") {
        await gameRecord(route.id);
      } else if (route.page === "study") {
        await analysis({ start: "w 12/12", study: route.id });
      } else if (route.page === "game") {
        await game(route.id);
      } else if (route.page === "new-game") {
        const body = { pos: route.pos, moves: route.moves, ...route.setup || chosenSetup() };
        const data = await api("/api/games", body);
        sessionStorage.setItem(`emergo-game-${data.id}-from`, String(data.line ? data.line.moves.length : route.moves.length));
        await game(data.id);
      }
    } catch (e) {
      say(errorText(e));
    }
  }
};
async function leaving(then) {
  if (controller && "msg" in controller && controller.msg && !controller.msg.state.outcome) {
    const clock = controller.msg.clock ? " Its clock keeps running." : "";
    if (!await ask(`Leave game ${controller.id}? It stays in Saved games, to resume.${clock}`, "Leave game", "Stay")) return;
  }
  then();
}
function applyShape(geometry) {
  const hex = !!geometry && geometry.shape === "hexagon";
  for (
    const id of
    /** @type {const} */
    ["view", "names"]
  ) {
    const b = (
      /** @type {HTMLButtonElement} */
      $(id)
    );
    b.disabled = hex;
    b.title = hex ? HEX_VIEW : TIPS[id];
    b.setAttribute("aria-disabled", String(hex));
  }
}
var isHex = () => $("board").dataset.view === "hexagon";
function toggleView() {
  if (isHex()) return say(HEX_VIEW, false);
  changeSettings({ view: settings.view === "diamond" ? "checker" : "diamond" });
}
function wire() {
  initConfirm();
  wireSetup();
  initSaved({
    resume: (id) => leaving(() => app.go({ page: "game", id })),
    replay: (id) => leaving(() => app.go({ page: "analysis-game", id })),
    openStudy: (id) => leaving(() => app.go({ page: "study", id })),
    deleted: (kind, id) => {
      if (kind === "game" && controller && "msg" in controller && controller.id === id) app.go({ page: "analysis" });
    }
  });
  $("view").addEventListener("click", toggleView);
  $("flip").addEventListener("click", () => changeSettings({ flipped: !settings.flipped }));
  $("coords").addEventListener("click", () => changeSettings({ coordinates: !settings.coordinates }));
  $("names").addEventListener("click", () => {
    if (!isHex()) changeSettings({ names: settings.names === "oblique" ? "checker" : "oblique" });
  });
  $("anim").addEventListener("click", () => changeSettings({ animation: !settings.animation }));
  $("theme").addEventListener("click", () => changeSettings({ theme: settings.theme === "dark" ? "light" : "dark" }));
  $("sound").addEventListener("click", () => changeSettings({ sound: !settings.sound }));
  const boards = [["new9", "w 12/12"], ["new7", "7x7 w 8/8"], ["newhex", "hex w 12/12"]];
  for (const [id, start] of boards) $(id).addEventListener("click", () => leaving(() => app.go({ page: "analysis", start })));
  $("pos-load").addEventListener("click", () => leaving(() => app.go({ page: "analysis", start: input("pos-text").value })));
  document.addEventListener("keydown", (e) => {
    const target = (
      /** @type {HTMLElement} */
      e.target
    );
    if (target.closest("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "f") changeSettings({ flipped: !settings.flipped });
    else if (e.key === "v") toggleView();
    else if (!controller || !controller.key(e)) return;
    e.preventDefault();
  });
}
async function main() {
  const params = new URLSearchParams(location.search);
  const moves = (params.get("moves") || "").split(/[\s,]+/).filter(Boolean);
  const pos = params.get("pos") || "w 12/12";
  const plain = !params.get("game") && !params.get("study");
  const first = plain ? api("/api/position", { pos, moves }).catch(() => null) : null;
  if (params.get("game")) playModule();
  wire();
  await loadSettings(params);
  applySettings();
  setTimeout(refreshSaved, 0);
  try {
    if (params.get("study")) await analysis({ start: "w 12/12", study: Number(params.get("study")) });
    else if (params.get("game")) await game(Number(params.get("game")));
    else await analysis({ start: pos, moves, answer: await first || void 0 });
  } catch (e) {
    say(errorText(e));
    await analysis({ start: "w 12/12" }).catch(() => {
    });
  }
  performance.mark("emergo-board-drawn");
  document.documentElement.dataset.ready = "1";
}
main();
