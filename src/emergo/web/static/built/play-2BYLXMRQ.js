// Built from static/page/ and static/board/ by tools/web-check/build.mjs: do not edit.
import {
  $,
  Board,
  MoveList,
  Socket,
  Tree,
  api,
  ask,
  boardSettings,
  buttonEl,
  changeSettings,
  clearLines,
  clockLeft,
  dismiss,
  drawClocks,
  drawLines,
  drawPlayers,
  errorText,
  input,
  isLow,
  onSettings,
  otherTurn,
  playSound,
  refreshSaved,
  resultText,
  sameSetup,
  say,
  settings,
  statusText,
  title
} from "./chunk-BYQIQH3L.js";

// ../../src/emergo/web/static/page/play.js
var PlayController = class {
  /** @param {{go: (route: any) => void}} app @param {number} id */
  constructor(app, id) {
    this.app = app;
    this.id = id;
    this.msg = null;
    this.tree = new Tree("w 12/12", "white");
    this.geometry = null;
    this.clock = null;
    this.lowWarned = false;
    this.request = 0;
    this.premoves = /* @__PURE__ */ new Map();
    this.offs = [];
    let ready = () => {
    };
    this.ready = new Promise((resolve) => {
      ready = resolve;
    });
    this.resolveReady = ready;
    this.moveList = MoveList($("moves"), { names: () => settings.names, go: (node) => this.gotoNode(node) });
    this.board = Board($("board"), {
      ...boardSettings(),
      events: {
        move: (move) => this.send({ type: "move", text: move.text, names: "oblique", by: this.msg?.state.turn, version: this.socket.version }),
        refused: (_square, reason, hint) => say(reason, !hint),
        select: () => say(""),
        premove: (move) => say(`premove ${this.moveText(move)}: played at once if it is legal when your turn comes (Escape or a click cancels it)`, false),
        premoveCancel: (move) => say(`premove ${this.moveText(move)} cancelled`, false)
      }
    });
    this.offs.push(onSettings(() => {
      this.board.set(boardSettings());
      if (this.msg) this.show(false);
    }));
    this.wire();
    this.timer = setInterval(() => this.tick(), 100);
    this.socket = new Socket(`/ws/game/${id}`, {
      versioned: true,
      reconnect: true,
      onMessage: (msg) => this.message(msg),
      onStatus: (status) => {
        if (status === "lost") say("connection lost: reconnecting ...", false);
        else if (status === "open" && $("message").textContent.startsWith("connection lost")) say("");
      }
    });
    document.title = `Emergo · game ${id}`;
  }
  /** @param {MoveInfo} move */
  moveText(move) {
    return settings.names === "checker" ? move.checker : move.text;
  }
  /** @param {string} id @param {string} type @param {(e: any) => void} f */
  on(id, type, f) {
    const target = $(id);
    target.addEventListener(type, f);
    this.offs.push(() => target.removeEventListener(type, f));
  }
  wire() {
    this.on("takeback", "click", () => this.takeback());
    this.on("draw", "click", async () => {
      if (await ask("Offer a draw?", "Offer draw")) this.send({ type: "draw", by: this.actor(), version: this.socket.version });
    });
    this.on("resign", "click", async () => {
      if (await ask(`Resign the game${this.humans().length === 2 ? ` for ${title(this.actor())}` : ""}?`, "Resign")) this.send({ type: "resign", by: this.actor(), version: this.socket.version });
    });
    this.on("abort", "click", () => this.abort());
    this.on("hint", "click", () => this.send({ type: "hint" }));
    this.on("draw-accept", "click", () => this.answerDraw(true));
    this.on("draw-decline", "click", () => this.answerDraw(false));
    this.on("leave", "click", () => this.app.go({ page: "analysis-here", line: this.lineNow() }));
    this.on("rematch", "click", () => this.rematch());
    this.on("analyse-game", "click", () => this.app.go({ page: "analysis-game", id: this.id }));
    this.on("first", "click", () => this.goto(0));
    this.on("back", "click", () => this.goto(this.tree.ply - 1));
    this.on("forward", "click", () => this.goto(this.tree.ply + 1));
    this.on("last", "click", () => this.goto(this.tree.moves.length));
    this.on("move-form", "submit", (e) => {
      e.preventDefault();
      this.send({ type: "move", text: input("move-text").value, names: settings.names, by: this.msg?.state.turn, version: this.socket.version });
      input("move-text").value = "";
    });
    const thinking = () => {
      $("analysis-panel").classList.toggle("quiet", !input("show-thinking").checked);
      if (!input("show-thinking").checked) clearLines();
    };
    thinking();
    this.on("show-thinking", "change", thinking);
  }
  /** @param {KeyboardEvent} e */
  key(e) {
    if (e.key === "ArrowLeft") this.goto(this.tree.ply - 1);
    else if (e.key === "ArrowRight") this.goto(this.tree.ply + 1);
    else if (e.key === "Home") this.goto(0);
    else if (e.key === "End") this.goto(this.tree.moves.length);
    else return false;
    return true;
  }
  destroy() {
    this.socket.close();
    clearInterval(this.timer);
    for (const off of this.offs) off();
    this.board.destroy();
    this.request++;
    dismiss();
    clearLines();
    $("analysis-panel").classList.remove("quiet");
    $("draw-answer").hidden = true;
    document.title = "Emergo";
  }
  // --- the server's messages ------------------------------------------------------------------
  /** @param {any} msg */
  async message(msg) {
    if (msg.type === "state") return this.state(msg);
    if (msg.type === "event") {
      if (msg.event === "Thinking" && input("show-thinking").checked && this.msg) drawLines([msg.info], this.msg.state.ply + 1, this.tree.firstTurn, null);
      if (msg.event === "EngineRestarted" || msg.event === "EngineGaveUp") say(msg.error);
      if (msg.event === "DrawDeclined") say(`${title(msg.color)} declined the draw`, false);
      return;
    }
    if (msg.type === "hint") {
      if (!msg.move) return say("no hint", false);
      say(`Hint: ${this.moveText(msg.move)}${msg.lines[0] ? ` (${msg.lines[0].score})` : ""}`, false);
      const m = msg.move;
      this.board.setAutoShapes([m.kind === "enter" ? { orig: m.path[0], brush: "green" } : { orig: m.path[0], path: m.path, brush: "green" }]);
    } else if (msg.type === "draw" && msg.accepted === false) {
      say("the engine declines the draw", false);
    } else if (msg.type === "error") {
      say(msg.kind === "version" ? "The game changed before your request arrived: look at the board and try again" : msg.error);
      if (msg.status === 404) this.app.go({ page: "analysis" });
      this.board.set({});
    }
  }
  /** @param {any} msg */
  async state(msg) {
    const previous = this.msg;
    if (!this.geometry || this.geometry.variant !== msg.state.variant) {
      this.geometry = await api(`/api/geometry?variant=${encodeURIComponent(msg.state.variant)}`);
      this.board.set({ squares: this.geometry.squares, size: this.geometry.size, shape: this.geometry.shape });
    }
    if (this.msg && this.msg.version > msg.version) return;
    this.msg = msg;
    this.clock = msg.clock ? { ...msg.clock, at: performance.now() } : null;
    this.tree = Tree.line(msg.line.start, msg.line.turn, msg.line.moves);
    this.tree.end.data = msg.state;
    this.tree.ply = this.tree.moves.length;
    this.request++;
    const humans = this.humans();
    if (humans.length === 1 && settings.flipped !== (humans[0] === "black")) changeSettings({ flipped: humans[0] === "black" }, false);
    const newMove = !!previous && msg.state.ply === previous.state.ply + 1;
    const over = !!msg.state.outcome;
    if (newMove) playSound(msg.state.lastMove && msg.state.lastMove.kind === "capture" ? "capture" : "move");
    if (over && previous && !previous.state.outcome) {
      playSound("end");
      refreshSaved();
    }
    this.show(newMove, !previous || msg.state.ply !== previous.state.ply);
    if (msg.analysis && input("show-thinking").checked) drawLines([msg.analysis], msg.state.ply + 1, this.tree.firstTurn, null);
    if (this.mine()) this.board.playPremove();
    else this.offerPremoves();
    this.resolveReady();
  }
  // --- showing --------------------------------------------------------------------------------
  humans() {
    return this.msg ? ["white", "black"].filter((c) => this.msg.players[c].kind === "human") : [];
  }
  /** May a person move now (the latest position shown, a person to move, the game on)? */
  mine() {
    const m = this.msg;
    return !!m && !m.state.outcome && !m.thinking && !m.failed && this.tree.ply === this.tree.moves.length && this.humans().includes(m.state.turn);
  }
  /** The side a person acts for: the one to move in hot-seat, else the person's colour. */
  actor() {
    const humans = this.humans();
    return humans.length === 1 ? humans[0] : this.msg ? this.msg.state.turn : "white";
  }
  /** @param {boolean} animate @param {boolean} [fresh] a new position: the arrows drawn go */
  show(animate, fresh = false) {
    const m = this.msg;
    const node = this.tree.here;
    const data = node.data || m.state;
    const latest = this.tree.ply === this.tree.moves.length;
    const mine = this.mine();
    this.board.set({
      pieces: data.pieces,
      lastMove: data.lastMove,
      movable: mine ? { moves: data.moves, forbidden: data.forbidden, required: data.required } : null,
      premovable: { enabled: latest && !mine && !m.state.outcome && this.humans().length === 1 },
      ...fresh ? { drawable: { shapes: [], autoShapes: [] } } : {},
      animate
    });
    const names = { white: m.players.white.display, black: m.players.black.display };
    drawPlayers(data, { names, clock: this.clock });
    $("status").textContent = statusText(data);
    $("result").textContent = m.state.outcome ? resultText(m.state.outcome) : "";
    this.moveList.draw(this.tree);
    this.showGame();
  }
  /** The game panel: who plays, the buttons that mean something now, a draw offer, the end. */
  showGame() {
    const m = this.msg;
    const over = !!m.state.outcome;
    const p = m.players;
    const thinking = m.thinking ? ` · ${title(m.state.turn)} is thinking ...` : "";
    const restarted = m.restarts ? ` · engine restarted ${m.restarts}×` : "";
    $("game-info").textContent = `Game ${m.game}: ${p.white.display} (White) vs ${p.black.display} (Black)${thinking}${restarted}`;
    const humans = this.humans();
    const offer = m.drawOffer;
    const answer = !over && offer && humans.includes(offer === "white" ? "black" : "white");
    $("draw-answer").hidden = !answer;
    $("draw-text").textContent = answer ? `${title(offer)} offers a draw:` : "";
    const plies = m.line.moves.length - Number(sessionStorage.getItem(`emergo-game-${this.id}-from`) || 0);
    buttonEl("takeback").disabled = over || !m.line.moves.length || !humans.length;
    for (const id of ["draw", "resign", "hint"]) buttonEl(id).disabled = over || !humans.length;
    $("abort").hidden = over || plies >= 2 || !humans.length;
    $("game-controls").hidden = false;
    $("game-over").hidden = !over;
    if (over) {
      $("game-over-text").textContent = resultText(m.state.outcome);
      dismiss();
    }
  }
  tick() {
    const c = this.clock;
    if (!c || !this.msg) return;
    const over = !!this.msg.state.outcome;
    drawClocks(c, over);
    if (!over && !this.lowWarned && c.running && this.humans().includes(c.running) && isLow(c, clockLeft(c, c.running))) {
      this.lowWarned = true;
      playSound("low");
    }
  }
  // --- stepping through the game (to look; moves are taken at the latest position) -------------
  /** @param {number} ply */
  goto(ply) {
    ply = Math.max(0, Math.min(this.tree.moves.length, ply));
    this.gotoNode(this.tree.nodes[ply]);
  }
  /** @param {TreeNode} node */
  async gotoNode(node) {
    const id = ++this.request;
    try {
      if (!node.data) node.data = await api("/api/position", { pos: this.tree.start, moves: Tree.path(node) });
      if (id !== this.request) return;
      this.tree.ply = node.ply;
      this.show(false);
    } catch (e) {
      say(errorText(e));
    }
  }
  /** The line of the game up to the position shown (for the analysis board). */
  lineNow() {
    return { start: this.tree.start, moves: Tree.path(this.tree.here) };
  }
  // --- premoves: the moves the player could make were it his turn ------------------------------
  async offerPremoves() {
    const m = this.msg;
    if (!m || m.state.outcome || this.humans().length !== 1 || this.tree.ply !== this.tree.moves.length) return;
    const pos = otherTurn(m.state.position);
    if (!pos) return;
    let dests = this.premoves.get(pos);
    if (!dests) {
      try {
        dests = /** @type {MoveInfo[]} */
        (await api("/api/position", { pos, moves: [] })).moves;
      } catch {
        dests = [];
      }
      this.premoves.set(pos, dests);
    }
    if (this.msg === m && !this.mine()) this.board.set({ premovable: { enabled: true, dests } });
  }
  // --- commands ---------------------------------------------------------------------------------
  /** @param {Record<string, unknown>} msg */
  send(msg) {
    if (!this.socket.send(msg)) say("not connected to the game");
  }
  takeback() {
    const m = this.msg;
    if (!m) return;
    const humans = this.humans();
    const lastMover = m.line.moves.length % 2 === 1 ? this.tree.firstTurn : this.tree.firstTurn === "white" ? "black" : "white";
    this.send({ type: "takeback", by: humans.length === 1 ? humans[0] : lastMover, version: this.socket.version });
  }
  /** @param {boolean} accept */
  answerDraw(accept) {
    const offer = this.msg?.drawOffer;
    this.send({ type: "answer", accept, by: offer === "white" ? "black" : "white", version: this.socket.version });
  }
  async abort() {
    if (!await ask("Abort this game? It is deleted, as if it had never been played.", "Abort")) return;
    try {
      await api(`/api/games/${this.id}`, void 0, "DELETE");
      refreshSaved();
      this.app.go({ page: "analysis-here", line: { start: this.tree.start, moves: [] } });
    } catch (e) {
      say(errorText(e));
    }
  }
  /** A new game with the same players and clock, from the variant's start. */
  rematch() {
    const g = this.geometry;
    if (!g || !this.msg) return;
    this.app.go({ page: "new-game", setup: sameSetup(this.msg), pos: `${g.variant === "9x9" ? "" : `${g.variant} `}w ${g.men}/${g.men}`, moves: [] });
  }
};
export {
  PlayController
};
