// @ts-check
/**
 * page/game.js: the online site's game page (`/game/{id}`), for its two players and for
 * spectators. The server runs the game (the round) and is the clock: the page shows its states
 * as they come over `/ws/game/{id}` (docs/online.md: `full` at once and after a resync,
 * then `v` a version; socket.js resyncs on a gap and reconnects by itself), and sends the
 * player's commands on the same socket, each answered by `ack` or `error`.
 *
 * The board holds no rules: for each position shown the page asks `GET /api/position` for its
 * pieces and legal moves as routes, with the position before and the new moves, unless the `v`
 * message of a move brought it (`position`: the server computes it once for every page).
 * A player gets what lichess gives: premoves, a draw offer, a takeback request, resign with a
 * confirmation, abort before both have moved, the claim when the opponent has left (the server's
 * `opponentGone`), the players' chat (which either can close), sounds, flip; everyone gets both
 * clocks counting down, the move list, the spectators' count, the result with its reason, and the
 * finished game's record.
 *
 * @typedef {import("../board/types.js").MoveInfo} MoveInfo
 * @typedef {import("./tree.js").TreeNode} TreeNode
 * @typedef {import("./players.js").Clock} Clock
 * @typedef {import("./online-terms.js").GameState} GameState
 * @typedef {import("./online-terms.js").Color} Color
 * @typedef {import("./online.js").PageData} PageData
 */
import {Board} from "../board/index.js";
import {api} from "./api.js";
import {$, buttonEl, errorText, input, say} from "./dom.js";
import {factsText, otherTurn, statusText, title} from "./format.js";
import {Tree} from "./tree.js";
import {MoveList} from "./movelist.js";
import {clockLeft, drawClocks, drawPlayers, isLow} from "./players.js";
import {boardSettings, changeSettings, confirmsMove, onSettings, settings} from "./settings.js";
import {wireMoveBox} from "./game-input.js";
import {Socket} from "./socket.js";
import {ask, dismiss, initConfirm} from "./confirm.js";
import {playSound} from "./sound.js";
import {initOnline, pageData, personEl, socketPath} from "./online.js";
import {Chat} from "./chat.js";
import {Hint} from "./hint.js";
import {AfterGame} from "./after-game.js";
import {abortLeft, abortWords, clockOf, movesOf, offerOf, other, resultLine, resultOf, resultWords, ruleOf, sharedPlies, timeControlText, variantName} from "./online-terms.js";

const PING_MS = 4000;

export class GameController {
  /** @param {HTMLElement} root */
  constructor(root) {
    /** @type {PageData} */
    this.data = pageData(root);
    this.id = String(root.dataset.game);
    /** A hot-seat game: the player holds both seats (two people at one screen). */
    this.hotseat = root.dataset.you === "both";
    /** The side the player acts for: theirs, or in a hot-seat game the side to move. @type {Color|null} */
    this.you = root.dataset.you === "white" || root.dataset.you === "black" ? root.dataset.you : this.hotseat ? "white" : null;
    /** gameFull (who plays, the variant, the time control). @type {any} */
    this.full = null;
    /** The latest gameState. @type {GameState|null} */
    this.state = null;
    /** When it came (performance.now()). */
    this.stateAt = 0;
    /** The game's moves (canonical texts), their data and the positions known, by ply. */
    /** @type {string[]} */
    this.moves = [];
    /** @type {MoveInfo[]} */
    this.infos = [];
    /** @type {any[]} */
    this.positions = [];
    /** The position a `v` message brought with its move (as `GET /api/position` answers it). @type {any} */
    this.pushed = null;
    this.tree = new Tree("w 12/12", "white");
    /** Who moves first in the game's start position. @type {Color} */
    this.firstTurn = "white";
    /** The players' names as elements (a link, a BOT title). @type {Record<string, HTMLElement>|undefined} */
    this.people = undefined;
    /** @type {any} */
    this.geometry = null;
    /** @type {Clock|null} */
    this.clock = null;
    this.lowWarned = false;
    this.spectators = 0;
    /** The opponent has left: when the claim may be made (performance.now()), or null. @type {number|null} */
    this.claimAt = null;
    this.gone = false;
    /** A move sent and not yet answered: the board takes no other. */
    this.pending = false;
    /**
     * The player's move not known to have reached the server: made while the connection was
     * down (queued), or sent just before it went (no answer). After a reconnection the whole
     * state says: played, or to send again while it is still the player's turn at that ply.
     * @type {{text: string, ply: number, sent: boolean}|null}
     */
    this.unsure = null;
    /** A message about a position on show (a refusal, "Black declined the draw") and the ply it
     * came at: the next move, a takeback or the end clears it. @type {{text: string, plies: number}|null} */
    this.said = null;
    this.commandId = 0;
    this.sent = 0;
    /** @type {Map<number, string>} */
    this.commands = new Map();
    this.lag = 0;
    this.pingAt = 0;
    this.request = 0;
    /** The ply asked for while its position is on its way (presses add up at once), or null. @type {number|null} */
    this.want = null;
    this.prefetching = false;
    /** What comes after the game: the rematch, a practice level's ways on. */
    this.after = new AfterGame(this);
    /** @type {Map<string, MoveInfo[]>} */
    this.premoves = new Map();
    /** Messages are handled one after the other (a state may wait for its position). @type {Promise<void>} */
    this.queue = Promise.resolve();
    this.moveList = MoveList($("moves"), {names: () => settings.names, go: (node) => this.gotoNode(node)});
    this.board = Board($("board"), {
      ...boardSettings(),
      viewOnly: !this.you,
      events: {
        move: (move, how) => {
          if (how && how.premove) this.premoveSaid(""); // played: its message has done its work
          this.playMove(move, !!(how && how.premove));
        },
        refused: (_square, reason, hint) => this.sayRefused(reason, !hint),
        select: () => say(""),
        premove: (move) => this.premoveSaid(`premove ${this.moveText(move)}: played at once if it is legal when your turn comes (Escape or a click cancels it)`),
        premoveCancel: () => this.premoveSaid("premove cancelled"),
      },
    });
    this.hint = new Hint(this.board, (move) => this.moveText(move));
    /** A refusal on show and the ply it came at: a move or a takeback clears it. @type {{text: string, plies: number}|null} */
    this.refusal = null;
    this.chat = new Chat({
      lines: $("chat-lines"),
      form: /** @type {HTMLFormElement} */ ($("chat-form")),
      input: input("chat-text"),
      note: $("chat-note"),
      toggle: $("chat-switch"),
      open: input("chat-open"),
      send: (room, text) => this.command({t: "chat", room, text}, "chat"),
      setOpen: (open) => this.command({t: "chat-room", open}, "chat-room"),
      me: this.data.me || "",
      report: (line) => {
        api("/api/report", {username: line.username, reason: "abuse", line: Number(line.id)})
          .then(() => say(`the line of ${line.username} is reported: the moderators will read it`, false))
          .catch((e) => say(errorText(e)));
      },
    });
    onSettings(() => {
      this.board.set(boardSettings());
      if (this.state) this.show(false);
    });
    this.wire();
    setInterval(() => this.tick(), 100);
    this.socket = new Socket(socketPath(`/ws/game/${encodeURIComponent(this.id)}`, this.data), {
      versioned: true,
      reconnect: true,
      dedupe: true,
      isState: (m) => m.t === "full",
      versionOf: (m) => (m.t === "full" || m.t === "v" ? m.v : undefined),
      resyncMessage: {t: "resync"},
      onMessage: (msg) => {
        const at = performance.now();
        this.queue = this.queue.then(() => this.message(msg, at)).catch((e) => say(errorText(e)));
      },
      onStatus: (status) => {
        if (status === "lost" && !(this.unsure && !this.unsure.sent)) say("connection lost: reconnecting ...", false);
        else if (status === "open" && $("message").textContent.startsWith("connection lost")) say("");
        else if (status === "closed") say("this game is not on the server");
      },
    });
    setInterval(() => this.ping(), PING_MS);
  }

  /** Say (or clear) the premove's message; clearing leaves any other message. @param {string} text */
  premoveSaid(text) {
    if (text) say(text, false);
    else if ($("message").textContent.startsWith("premove ")) say("");
  }

  /** @param {MoveInfo} move */
  moveText(move) {
    return settings.names === "checker" ? move.checker : move.text;
  }

  wire() {
    initConfirm();
    wireMoveBox({
      moves: () => (this.mine() ? this.positions[this.moves.length]?.moves || null : null),
      play: (move) => this.playMove(move, false),
      refuse: (text) => this.sayNow(text),
    });
    $("flip").addEventListener("click", () => changeSettings({flipped: !settings.flipped}, false));
    $("first").addEventListener("click", () => this.goto(0));
    $("back").addEventListener("click", () => this.goto(this.shownPly() - 1));
    $("forward").addEventListener("click", () => this.goto(this.shownPly() + 1));
    $("last").addEventListener("click", () => this.goto(this.moves.length));
    $("resign").addEventListener("click", async () => {
      if (await ask("Resign the game?", "Resign")) this.command({t: "resign"}, "resign");
    });
    $("abort").addEventListener("click", async () => {
      if (await ask("Abort the game? It ends without a result.", "Abort")) this.command({t: "abort"}, "abort");
    });
    $("draw").addEventListener("click", async () => {
      if (await ask("Offer a draw?", "Offer draw")) this.command({t: "draw-yes", v: this.socket.version}, "draw");
    });
    $("takeback").addEventListener("click", () => this.command({t: "takeback-yes", v: this.socket.version}, "takeback"));
    $("hint").addEventListener("click", () => {
      const data = this.positions[this.moves.length];
      if (this.mine() && data) this.hint.ask(data.position, this.moves.length);
      else say("a hint is for your turn, at the latest position", false);
    });
    $("offer-yes").addEventListener("click", () => this.answerOffer(true));
    $("offer-no").addEventListener("click", () => this.answerOffer(false));
    $("claim-victory").addEventListener("click", () => this.command({t: "claim-victory"}, "claim"));
    $("claim-draw").addEventListener("click", () => this.command({t: "claim-draw"}, "claim"));
    for (const answer of ["yes", "no"]) document.getElementById(`swap-${answer}`)?.addEventListener("click", () => this.swap(answer));
    this.after.wire();
    document.addEventListener("keydown", (e) => {
      const target = /** @type {HTMLElement} */ (e.target);
      if (target.closest("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === "ArrowLeft") this.goto(this.shownPly() - 1);
      else if (e.key === "ArrowRight") this.goto(this.shownPly() + 1);
      else if (e.key === "Home") this.goto(0);
      else if (e.key === "End") this.goto(this.moves.length);
      else if (e.key === "f") changeSettings({flipped: !settings.flipped}, false);
      else if (e.key === "z") changeSettings({zen: !settings.zen});
      else return;
      e.preventDefault();
    });
  }

  // --- the server's messages ------------------------------------------------------------------

  /** @param {any} msg @param {number} at when it came (performance.now()) */
  async message(msg, at) {
    switch (msg.t) {
      case "full":
        return this.whole(msg, at);
      case "v":
        for (const event of msg.events || []) this.event(event);
        this.pushed = msg.position || null; // the position after its move: no request for it
        if (msg.state) await this.update(msg.state, at, false);
        return;
      case "chat":
        return this.chat.add(msg.line);
      case "chatRemoved":
        return this.chat.remove(msg.id);
      case "chatRoom":
        return this.chat.setRoom(!!msg.open);
      case "crowd":
        this.spectators = Number(msg.spectators) || 0;
        return this.showInfo();
      case "opponentGone":
        this.gone = !!msg.gone;
        this.claimAt = msg.gone && typeof msg.claimInSeconds === "number" ? at + msg.claimInSeconds * 1000 : null;
        return this.showClaim();
      case "ack":
        if (this.commands.get(msg.id) === "move") this.unsure = null;
        this.commands.delete(msg.id);
        return;
      case "error":
        return this.refused(msg);
      case "pong":
        if (this.pingAt) this.lag = Math.min(1, (performance.now() - this.pingAt) / 2000);
        this.pingAt = 0;
        return;
      default:
        return;
    }
  }

  /** The whole state: at once, after a reconnection, after a resync. @param {any} msg @param {number} at */
  async whole(msg, at) {
    const first = !this.full;
    // the seats exchanged (the swap rule taken, its event not kept for this page): the page
    // again, its side panel with them
    if (!first && msg.you !== (this.hotseat ? "both" : this.you || null)) return location.reload();
    this.full = msg.game;
    this.hotseat = msg.you === "both";
    this.you = msg.you === "white" || msg.you === "black" ? msg.you : this.hotseat ? msg.game.state.turn : null;
    this.spectators = Number(msg.spectators) || 0;
    if (!this.geometry || this.geometry.variant !== this.full.variant.key) {
      this.geometry = await api(`/api/geometry?variant=${encodeURIComponent(this.full.variant.key)}`);
      this.board.set({squares: this.geometry.squares, size: this.geometry.size, shape: this.geometry.shape, viewOnly: !this.you});
    }
    if (first && this.you && !this.hotseat) changeSettings({flipped: this.you === "black"}, false);
    // the names with their ratings (and, once a rated game is over, the change)
    // hot-seat: one person in both seats, the bars say the sides alone ("White to move")
    this.people = this.hotseat ? undefined : {white: personEl(this.full.white, this.data.profiles), black: personEl(this.full.black, this.data.profiles)};
    const over = !!resultOf(this.full.state);
    this.chat.reset({player: !!this.you, signedIn: !!this.data.me, over, playerChat: !!msg.playerChat, lines: msg.chat || []});
    await this.update(this.full.state, at, first);
    this.resend();
  }

  /** After a (re)connection: send the move the server may not have, or say why it is dropped. */
  resend() {
    const move = this.unsure;
    if (!move || !this.state) return;
    if (this.moves.length > move.ply && this.moves[move.ply] === move.text) {
      this.unsure = null; // it arrived before the connection went
      if ($("message").textContent.includes("once the connection is back")) say("");
      return;
    }
    this.unsure = null;
    if (this.moves.length === move.ply && this.mine()) {
      const info = this.positions[move.ply]?.moves?.find((/** @type {MoveInfo} */ m) => m.text === move.text);
      if (info) {
        if ($("message").textContent.includes("once the connection is back")) say("");
        this.sendMove(info);
        return;
      }
    }
    say(`your move ${move.text} was not played: the game went on without it`);
  }

  /** A round's event: what the state alone does not say. @param {any} event */
  event(event) {
    const mine = this.you && event.color === this.you;
    if (event.t === "drawDeclined" && !mine) this.sayDeclined(`${title(event.color)} declined the draw`);
    else if (event.t === "takebackDeclined" && !mine) this.sayDeclined(`${title(event.color)} declined the takeback`);
    else if (event.t === "timeGiven") say("the server was away: the time is given back", false);
    else if (event.t === "swap") {
      // the swap rule (issue 30): the seats exchanged, the page again with them
      if (event.taken) location.reload();
      else document.getElementById("swap-offer")?.remove();
    }
  }

  /** Black's choice under the swap rule: take White's side ("yes") or stay Black. @param {string} answer */
  async swap(answer) {
    try {
      await api(`/api/board/game/${encodeURIComponent(this.id)}/swap/${answer}`, {});
    } catch (e) {
      say(errorText(e));
    }
  }

  /** The swap offer: shown to Black at the ply of the choice, until it is made or passes. */
  showSwap() {
    const row = document.getElementById("swap-offer"); // only while a swap is offered
    if (!row) return;
    const ply = Number(row.dataset.swapPly);
    row.hidden = this.you !== "black" || this.hotseat || this.moves.length !== ply || !!(this.state && resultOf(this.state));
  }

  /** An answer to an offer: shown until the next move or the end (update clears it). @param {string} text */
  sayDeclined(text) {
    this.sayNow(text, false);
  }

  /** A message about the position shown now: gone with the next move, a takeback or the end. @param {string} text @param {boolean} [error] */
  sayNow(text, error = true) {
    say(text, error);
    this.said = text ? {text, plies: this.moves.length} : null;
  }

  /** @param {any} msg */
  refused(msg) {
    const what = this.commands.get(msg.id);
    this.commands.delete(msg.id);
    if (what === "move") this.unsure = null;
    this.sayRefused(msg.error || "refused");
    if (msg.status === 409) {
      // the game moved on before this arrived (another move or answer came first): show it as
      // it is now, the words said why
      this.pending = false;
      this.socket.resync();
      return;
    }
    if (what === "move") {
      this.pending = false;
      if (this.state) this.show(false);
    }
  }

  /** A refusal: shown until the game moves on (a move, a takeback). @param {string} text @param {boolean} [error] */
  sayRefused(text, error = true) {
    say(text, error);
    this.refusal = text ? {text, plies: this.moves.length} : null;
  }

  /** Hints in this game: hot-seat, or casual against the computer. */
  hintable() {
    const f = this.full;
    if (!f || !this.you) return false;
    return this.hotseat || (!f.rated && f[other(this.you)].title === "BOT");
  }

  /** A new state: its moves (asking for the positions they lead to), clocks, offers, result. @param {GameState} state @param {number} at @param {boolean} first */
  async update(state, at, first) {
    const moves = movesOf(state);
    const shared = sharedPlies(this.moves, moves);
    const grew = !first && shared === this.moves.length && moves.length === shared + 1;
    if (shared !== moves.length || shared !== this.moves.length || !this.positions[moves.length]) await this.follow(moves, shared);
    const wasOver = !!(this.state && resultOf(this.state));
    // a refusal or "Black declined the draw" is news of its position only: the next move (or
    // takeback) or the end clears it
    const said = this.said;
    if (said && (moves.length !== said.plies || resultOf(state))) {
      if ($("message").textContent === said.text) say("");
      this.said = null;
    }
    const refusal = this.refusal; // a refusal of another position is no news: gone
    if (refusal && moves.length !== refusal.plies) {
      if ($("message").textContent === refusal.text) say("");
      this.refusal = null;
    }
    this.hint.forget(moves.length);
    this.state = state;
    this.stateAt = at;
    this.pending = false;
    if (this.hotseat) this.you = state.turn; // the seat is the side to move
    this.clock = clockOf(state, this.full, at);
    const result = resultOf(state);
    const shownPly = this.tree.ply;
    const wasLatest = first || shownPly >= this.tree.moves.length;
    this.tree = Tree.line(this.full.initialFen, this.firstTurn, this.infos);
    this.positions.forEach((data, ply) => {
      if (data && this.tree.nodes[ply]) this.tree.nodes[ply].data = data;
    });
    this.tree.ply = wasLatest ? this.moves.length : Math.min(shownPly, this.moves.length);
    if (grew && !first) {
      const last = this.infos[this.infos.length - 1];
      playSound(last && last.kind === "capture" ? "capture" : "move");
    }
    if (result && !wasOver && !first) {
      playSound("end");
      // the whole state again: the players may now read the spectators' room, and everyone
      // sees the rating changes (the server's end put them in the archive with the result)
      this.socket.resync();
    }
    if (result) {
      dismiss();
      this.prefetch();
    }
    this.show(grew && wasLatest, shared !== this.moves.length || first);
    // the first board with the game's pieces is drawn: tools/bench_web.py times this mark
    if (first && !performance.getEntriesByName("emergo-board-drawn").length) performance.mark("emergo-board-drawn");
    if (this.mine()) this.board.playPremove();
    else this.offerPremoves();
    this.showSwap();
    document.documentElement.dataset.ready = "1";
  }

  /** Learn the moves after `shared` (their data and the new position) from the server. @param {string[]} moves @param {number} shared */
  async follow(moves, shared) {
    this.moves = moves.slice();
    this.infos = this.infos.slice(0, shared);
    this.positions = this.positions.slice(0, shared + 1);
    const base = this.positions[shared];
    const pushed = this.pushed;
    this.pushed = null;
    if (base && moves.length === shared) return; // moves taken back: a position seen before
    if (base) {
      const one = pushed && moves.length === shared + 1 ? pushed : null;
      const data = one || (await this.position(base.position, moves.slice(shared)));
      this.infos.push(...data.line.moves);
      this.positions[moves.length] = data;
    } else {
      const data = await this.position(this.full.initialFen, moves);
      this.firstTurn = data.line.turn;
      this.infos = data.line.moves;
      this.positions = [];
      this.positions[moves.length] = data;
    }
  }

  /** @param {string} pos @param {string[]} moves */
  position(pos, moves) {
    const query = new URLSearchParams({pos, moves: moves.join(" ")});
    return api(`/api/position?${query}`);
  }

  // --- showing --------------------------------------------------------------------------------

  /** May the player move now (the game on, the latest position shown, their turn, no move in flight)? */
  mine() {
    const s = this.state;
    return !!s && !!this.you && !resultOf(s) && s.turn === this.you && this.tree.ply === this.moves.length && !this.pending;
  }

  /** @param {boolean} animate @param {boolean} [fresh] a new position: the arrows drawn go */
  show(animate, fresh = false) {
    const s = /** @type {GameState} */ (this.state);
    const result = resultOf(s);
    const latest = this.tree.ply === this.moves.length;
    const data = this.tree.here.data || this.positions[this.moves.length];
    if (!data) return;
    const mine = this.mine();
    this.board.set({
      pieces: data.pieces,
      lastMove: data.lastMove,
      movable: mine ? {moves: data.moves, forbidden: data.forbidden, required: data.required} : null,
      premovable: {enabled: !!this.you && !this.hotseat && latest && !mine && !result},
      viewOnly: !this.you,
      ...(fresh ? {drawable: {shapes: [], autoShapes: []}} : {}),
      animate,
    });
    drawPlayers(data, {people: this.people, clock: this.clock, toMove: result ? null : latest ? s.turn : data.turn});
    $("move-form").hidden = !this.you || !!result; // the move box: the players', while it goes on
    if (result) $("status").textContent = latest ? "Game over" : `Move ${this.tree.ply} of ${this.moves.length}: → or End for the latest`;
    else if (!latest) $("status").textContent = `Move ${this.tree.ply} of ${this.moves.length}: → or End for the latest`;
    // a spectator gets the position's facts, not the player's instructions ("only the capturing pieces can be chosen")
    else if (!this.you) $("status").textContent = factsText(data);
    else if (this.hotseat) $("status").textContent = statusText(data); // it names the side to move
    else $("status").textContent = s.turn === this.you ? `Your turn: ${statusText(data)}` : `Waiting for ${title(s.turn)}`;
    $("result").textContent = result ? resultLine(result) : "";
    // the rule is a tooltip, not the text (a player reads who won and why)
    $("result").title = result && ruleOf(result) ? `Rule ${ruleOf(result)} of Emergo` : "";
    this.moveList.draw(this.tree);
    this.showGame(result);
  }

  showInfo() {
    const f = this.full;
    if (!f) return;
    const tc = f.clock ? {type: "clock", limit: f.clock.initial / 1000, increment: f.clock.increment / 1000} : f.daysPerTurn ? {type: "correspondence", daysPerTurn: f.daysPerTurn} : {type: "unlimited"};
    const watching = this.spectators ? ` · ${this.spectators} watching` : "";
    $("game-info").textContent = `${variantName(f.variant.key)} · ${timeControlText(/** @type {any} */ (tc))} · ${f.rated ? "Rated" : "Casual"}${watching}`;
    $("game-info").dataset.spectators = String(this.spectators);
  }

  /** The game panel: the buttons that mean something now, the offer waiting, the end. @param {any} result */
  showGame(result) {
    const s = /** @type {GameState} */ (this.state);
    const you = this.you;
    const over = !!result;
    this.showInfo();
    const names = {white: this.full.white.name, black: this.full.black.name};
    $("game-title").textContent = this.hotseat ? "Hot-seat: both sides at this screen" : you ? `You play ${title(you)} against ${names[other(you)]}` : `Watching ${names.white} – ${names.black}`;
    $("game-controls").hidden = !you || over;
    const offer = offerOf(s);
    const both = this.moves.length >= 2;
    buttonEl("abort").hidden = both;
    buttonEl("resign").hidden = !both;
    // a takeback needs a move of yours to take back: none before your first move
    const firstMover = this.moves.length % 2 ? other(s.turn) : s.turn;
    const yoursMade = this.hotseat ? this.moves.length > 0 : !!you && this.moves.length >= (firstMover === you ? 1 : 2);
    buttonEl("takeback").disabled = !yoursMade || (!!offer && offer.kind === "takeback");
    buttonEl("draw").disabled = !!offer && offer.kind === "draw";
    buttonEl("draw").textContent = offer && offer.kind === "draw" && offer.by === you ? "Draw offered" : "Offer draw";
    buttonEl("hint").hidden = !this.hintable();
    buttonEl("takeback").textContent = offer && offer.kind === "takeback" && offer.by === you ? "Takeback asked" : "Takeback";
    // in a hot-seat game the other side answers at the same screen
    const answer = !over && !!you && !!offer && (this.hotseat || offer.by !== you);
    $("offer").hidden = !answer;
    const asked = offer && this.hotseat ? `: ${title(other(offer.by))}, do you accept?` : "";
    if (answer && offer) $("offer-text").textContent = (offer.kind === "draw" ? `${title(offer.by)} offers a draw` : `${title(offer.by)} asks to take back a move`) + asked;
    $("game-over").hidden = !over;
    $("game-over-text").textContent = over ? resultWords(result) : "";
    $("game-over-text").title = over && ruleOf(result) ? `Rule ${ruleOf(result)} of Emergo` : "";
    const download = /** @type {HTMLAnchorElement} */ ($("download"));
    download.hidden = !over || result.termination === "aborted"; // an aborted game has no record worth analysing
    download.href = `/game/export/${encodeURIComponent(this.id)}`;
    download.download = `emergo-${this.id}.egn`;
    // the analysis board on this game: once it is over (hot-seat: any time), never during a game
    const analyse = /** @type {HTMLAnchorElement} */ ($("analyse-game"));
    const analysable = over || this.hotseat;
    if (analysable) analyse.href = `/game/${encodeURIComponent(this.id)}/analysis`;
    else analyse.removeAttribute("href");
    analyse.setAttribute("aria-disabled", String(!analysable));
    analyse.title = analysable ? "The analysis board on this game: its moves, clocks and result, the engine's lines" : "After the game: no analysis while it is played";
    this.after.show(over);
    this.chat.over = over;
    this.chat.show();
    this.showClaim();
    const turn = !over && you && s.turn === you && !this.hotseat;
    document.title = `${turn ? "Your turn · " : ""}${this.full.white.name} – ${this.full.black.name} · Emergo`;
  }

  showClaim() {
    const s = this.state;
    const show = !!s && !!this.you && !this.hotseat && !resultOf(s) && this.gone;
    $("claim").hidden = !show;
    if (!show) return;
    const left = this.claimAt === null ? null : Math.ceil((this.claimAt - performance.now()) / 1000);
    const ready = left !== null && left <= 0;
    $("claim-text").textContent = left === null ? "Your opponent left the game." : ready ? "Your opponent left the game: you may claim." : `Your opponent left the game: you may claim in ${left} s.`;
    buttonEl("claim-victory").hidden = !ready;
    buttonEl("claim-draw").hidden = !ready;
    buttonEl("claim-victory").disabled = !!s && s.turn === this.you;
    buttonEl("claim-victory").title = s && s.turn === this.you ? "the win is claimed while your opponent is to move: move first" : "";
  }

  tick() {
    this.showAbortCountdown();
    const c = this.clock;
    if (this.gone && !$("claim").hidden) this.showClaim();
    if (!c || !this.state) return;
    const over = !!resultOf(this.state);
    drawClocks(c, over);
    if (!over && !this.lowWarned && this.you && c.running === this.you && isLow(c, clockLeft(c, c.running))) {
      this.lowWarned = true;
      playSound("low");
    }
  }

  /** A game not yet started: the seconds left to play the first move (lichess shows them). */
  showAbortCountdown() {
    const box = $("expiration");
    const left = this.state ? abortLeft(this.state, this.stateAt, performance.now()) : null;
    box.hidden = left === null;
    if (left !== null && this.state) box.textContent = abortWords(left, this.state.turn, this.you);
  }

  // --- stepping through the game ----------------------------------------------------------------

  /** The ply shown, or the one asked for (a key pressed again counts from there). */
  shownPly() {
    return this.want ?? this.tree.ply;
  }

  /** @param {number} ply */
  /** @param {number} ply @param {boolean} [animate] the board's animation of the move (a replay) */
  goto(ply, animate = false) {
    ply = Math.max(0, Math.min(this.moves.length, ply));
    return this.gotoNode(this.tree.nodes[ply], animate);
  }

  /** @param {TreeNode} node @param {boolean} [animate] */
  async gotoNode(node, animate = false) {
    if (!node || !this.state) return;
    const id = ++this.request;
    this.want = node.ply;
    try {
      if (!node.data) {
        node.data = this.positions[node.ply] || (await this.position(this.full.initialFen, this.moves.slice(0, node.ply)));
        this.positions[node.ply] = node.data;
      }
      if (id !== this.request) return;
      this.want = null;
      this.tree.ply = node.ply;
      this.show(animate);
      if (!this.mine()) this.offerPremoves();
      this.prefetch();
    } catch (e) {
      if (id === this.request) this.want = null;
      say(errorText(e));
    }
  }

  /**
   * Fetch the game's earlier positions in the background, one at a time from the latest back,
   * once the player steps back or the game is over: the replay then waits for nothing.
   */
  async prefetch() {
    if (this.prefetching || !this.state) return;
    this.prefetching = true;
    try {
      for (let ply = this.moves.length; ply >= 0; ply--) {
        if (this.positions[ply]) continue;
        const moves = this.moves.slice(0, ply);
        const data = await this.position(this.full.initialFen, moves);
        if (sharedPlies(this.moves, moves) !== ply) break; // taken back meanwhile: the next step starts again
        this.positions[ply] = data;
        if (this.tree.nodes[ply] && !this.tree.nodes[ply].data) this.tree.nodes[ply].data = data;
      }
      // every position known: the replay asks the server nothing more (the tests wait for it)
      if (this.positions.filter(Boolean).length === this.moves.length + 1) document.documentElement.dataset.positions = String(this.moves.length + 1);
    } catch {
      // the replay asks again when it needs a position
    } finally {
      this.prefetching = false;
    }
  }

  // --- premoves: the moves the player could make were it his turn ------------------------------

  async offerPremoves() {
    const s = this.state;
    const data = this.positions[this.moves.length];
    if (!s || !this.you || this.hotseat || resultOf(s) || s.turn === this.you || this.tree.ply !== this.moves.length || !data) return;
    const pos = otherTurn(data.position);
    if (!pos) return;
    let dests = this.premoves.get(pos);
    if (!dests) {
      try {
        dests = /** @type {MoveInfo[]} */ ((await this.position(pos, [])).moves);
      } catch {
        dests = [];
      }
      this.premoves.set(pos, dests);
    }
    if (this.state === s && !this.mine()) this.board.set({premovable: {enabled: true, dests}});
  }

  // --- commands ---------------------------------------------------------------------------------

  /** @param {MoveInfo} move */
  sendMove(move) {
    if (!this.mine()) return;
    const ply = this.moves.length;
    if (!this.socket.connected) {
      // lichess keeps it: sent the moment the connection is back (if the game is still there)
      this.unsure = {text: move.text, ply, sent: false};
      this.pending = true;
      this.board.set({movable: null});
      say(`not connected: your move ${this.moveText(move)} is sent once the connection is back`, false);
      return;
    }
    if (this.command({t: "move", move: move.text, v: this.socket.version, lag: Math.round(this.lag * 1000) / 1000}, "move")) {
      this.unsure = {text: move.text, ply, sent: true};
      this.pending = true;
      document.documentElement.dataset.sent = String(++this.sent); // moves sent, for the tests
      this.board.set({movable: null});
    }
  }

  /** A move chosen (board, box or premove): confirmed first when the settings ask, then sent. @param {MoveInfo} move @param {boolean} premove */
  async playMove(move, premove) {
    // hot-seat: one person plays both sides and takes a move back at once; a practice level of
    // /learn (the game's `learn`) is a lesson's exercise: nothing to confirm in either
    const exercise = this.hotseat || !!(this.full && this.full.learn);
    if (!premove && !exercise && this.full && confirmsMove(settings.confirm, this.full.speed)) {
      const yes = await ask(`Play ${this.moveText(move)}?`, "Play");
      if (!yes || !this.mine()) return this.state && this.show(false);
    }
    this.sendMove(move);
  }

  /** Send a command with an id (its answer is an ack or an error). @param {Record<string, unknown>} msg @param {string} what */
  command(msg, what) {
    const id = ++this.commandId;
    this.commands.set(id, what);
    if (this.socket.send({...msg, id})) return true;
    this.commands.delete(id);
    say("not connected to the game: wait a moment");
    return false;
  }

  /** @param {boolean} yes */
  answerOffer(yes) {
    const offer = this.state && offerOf(this.state);
    if (!offer) return;
    this.command({t: `${offer.kind}-${yes ? "yes" : "no"}`, v: this.socket.version}, offer.kind);
  }

  // --- after the game: rematch, a new opponent (lichess's buttons) --------------------------------

  ping() {
    if (this.pingAt || !this.socket.connected) return;
    this.pingAt = performance.now();
    this.socket.send({t: "ping"});
  }
}

/** Start the page. */
export async function startGame() {
  const root = $("game");
  await initOnline(pageData(root));
  new GameController(root);
}
