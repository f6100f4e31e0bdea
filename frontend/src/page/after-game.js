// @ts-check
/**
 * page/after-game.js: what the game page offers once a game is over: the rematch (the same
 * terms, the colours swapped, offered and answered through the player's lobby socket; a new
 * game at the same screen for hot-seat) and, for a practice level of /learn, the level's stars
 * and the ways on (the next level, the lesson, another attempt, a replay of the game).
 *
 * @typedef {import("./online-terms.js").Color} Color
 * @typedef {import("./game.js").GameController} GameController
 */
import {api} from "./api.js";
import {openGame} from "./leave.js";
import {$, buttonEl, errorText, say} from "./dom.js";
import {title} from "./format.js";
import {Socket} from "./socket.js";
import {socketPath} from "./online.js";
import {other, rematchFields} from "./online-terms.js";

/** A replay's pause between moves (ms), after the board's animation of the last. */
const REPLAY_PAUSE = 700;

export class AfterGame {
  /** @param {GameController} game */
  constructor(game) {
    this.game = game;
    /** The rematch I offered (a challenge id), the one offered to me. @type {string|null} */
    this.rematchSent = null;
    /** @type {any} */
    this.rematchOffer = null;
    /** The practice level's box (showLearn) was shown: once its level was met, and once more
     * with its stars when the game is over (0 none, 1 met, 2 over). */
    this.learnShown = 0;
    /** The replay of a practice game under way (its number: a new press or a stop ends it). */
    this.replaying = 0;
    this.replays = 0;
    /** The player's events (challenges, game starts), opened when the game is over. @type {Socket|null} */
    this.events = null;
  }

  wire() {
    $("rematch").addEventListener("click", () => this.rematch());
    $("rematch-yes").addEventListener("click", () => this.answerRematch("accept"));
    $("rematch-no").addEventListener("click", () => this.answerRematch("decline"));
    document.getElementById("learn-again")?.addEventListener("click", () => this.tryAgain());
    document.getElementById("learn-replay")?.addEventListener("click", () => this.replay());
  }

  /** The game's state shown: over or not. @param {boolean} over */
  show(over) {
    this.showAfter(over);
    this.showLearn(over);
  }

  /**
   * A practice level of /learn (the game's `learn`, the server's box `#learn-after`): once the
   * level is met (a hold level's par: the learner's moves, as the server counts them, which gave
   * the stars with that move) or the game is over, the level's stars in the player's account and
   * the ways on: the next level (focused: Enter), the lesson, another attempt, a replay.
   * @param {boolean} over
   */
  showLearn(over) {
    const box = document.getElementById("learn-after");
    if (!box || !this.game.you || !this.game.full || !this.game.full.learn) return;
    const par = Number(box.dataset.par || 0);
    const held = par > 0 && (this.game.moves.length + 1) >> 1 >= par; // the learner moves first
    const shown = over ? 2 : held ? 1 : 0;
    if (shown <= this.learnShown) return;
    this.learnShown = shown;
    $("learn-links").hidden = false;
    $("learn-again").hidden = !over;
    $("learn-replay").hidden = !over || !this.game.moves.length;
    /** @type {HTMLElement} */ (document.getElementById("learn-next") || $("learn-back")).focus();
    const level = this.game.full.learn;
    api("/api/learn/progress").then((answer) => {
      const stars = answer && answer.levels ? answer.levels[level] : undefined;
      const said = $("learn-stars");
      const starsSaid = stars ? (box.dataset.stars || "").replace("{stars}", String(stars)) : box.dataset.none || "";
      said.textContent = held && !over ? `${box.dataset.held || ""} ${starsSaid}` : starsSaid;
      said.hidden = false;
    }, () => {
      // the stars could not be read: the lesson's page shows them
    });
  }

  /** Another attempt at a practice level: a new game from its position (not a rematch). */
  async tryAgain() {
    buttonEl("learn-again").disabled = true;
    try {
      const answer = await api("/api/learn/practice", {level: this.game.full.learn});
      if (answer.gameId) openGame(answer.gameId);
    } catch (e) {
      say(errorText(e));
      buttonEl("learn-again").disabled = false;
    }
  }

  /** The practice game replayed from its start, a move at a time with the board's animation;
   * a second press stops it. */
  async replay() {
    const button = buttonEl("learn-replay");
    const box = /** @type {HTMLElement} */ (document.getElementById("learn-after"));
    if (this.replaying) {
      this.replaying = 0;
      button.textContent = box.dataset.replay || "";
      return;
    }
    const run = (this.replaying = ++this.replays);
    button.textContent = box.dataset.stop || "";
    await this.game.goto(0);
    for (let ply = 1; ply <= this.game.moves.length && this.replaying === run; ply++) {
      await new Promise((done) => setTimeout(done, REPLAY_PAUSE));
      if (this.replaying !== run) break;
      await this.game.goto(ply, true);
    }
    if (this.replaying === run) {
      this.replaying = 0;
      button.textContent = box.dataset.replay || "";
    }
  }

  /** The buttons after a game, and the player's events once it is over. @param {boolean} over */
  showAfter(over) {
    const you = this.game.you;
    $("after").hidden = !over || !you;
    if (!over || !you) return;
    const opponent = this.game.full[other(you)];
    // a house bot too: the rematch is a challenge to it with the same terms, the colours
    // swapped, which it accepts as any challenge (the lobby's socket then opens the new game)
    // a practice level's game is tried again from its position (its box), never rematched
    buttonEl("rematch").hidden = !opponent || opponent.name === "(deleted)" || !!this.game.full.learn;
    buttonEl("rematch").disabled = !!this.rematchSent;
    buttonEl("rematch").textContent = this.game.hotseat ? "New game" : this.rematchSent ? "Rematch offered" : "Rematch";
    $("new-opponent").hidden = this.game.hotseat || !!this.game.full.learn;
    const fields = rematchFields(this.game.full, you);
    const prefill = new URLSearchParams({variant: String(fields.variant), rated: String(fields.rated)});
    if (fields["clock.limit"] !== undefined) {
      prefill.set("minutes", String(Number(fields["clock.limit"]) / 60));
      prefill.set("increment", String(fields["clock.increment"]));
    } else if (fields.days !== undefined) prefill.set("days", String(fields.days));
    else prefill.set("speed", "unlimited");
    /** @type {HTMLAnchorElement} */ ($("new-opponent")).href = `/?${prefill}`;
    if (!this.events && !this.game.hotseat) this.listen();
  }

  /** The player's challenges and game starts (the lobby's socket): a rematch offered, accepted. */
  listen() {
    this.events = new Socket(socketPath("/ws/lobby", this.game.data), {
      reconnect: true,
      onMessage: (msg) => {
        if (msg.t === "event") this.playerEvent(msg.event || {});
      },
    });
    this.findRematch();
  }

  /** A rematch the opponent offered before the page was opened. */
  async findRematch() {
    try {
      const mine = await api("/api/challenge");
      for (const c of mine.in || []) this.playerEvent({type: "challenge", challenge: c});
    } catch {
      // the event comes if it is offered later
    }
  }

  /** Is this challenge a rematch between this game's players? @param {any} c */
  isRematch(c) {
    const you = /** @type {Color} */ (this.game.you);
    const opponent = this.game.full[other(you)];
    const names = [c.challenger && c.challenger.name, c.destUser && c.destUser.name].map((n) => String(n || "").toLowerCase());
    return !!opponent && names.includes(String(opponent.name).toLowerCase()) && names.includes(this.game.data.me.toLowerCase());
  }

  /** @param {any} event */
  playerEvent(event) {
    const c = event.challenge;
    if (event.type === "gameStart" && event.game && event.game.gameId && event.game.gameId !== this.game.id && (this.rematchSent || this.rematchOffer)) {
      openGame(event.game.gameId);
    } else if (event.type === "challenge" && c && this.isRematch(c) && c.challenger.name.toLowerCase() !== this.game.data.me.toLowerCase()) {
      this.rematchOffer = c;
      $("rematch-text").textContent = `${c.challenger.name} offers a rematch (you play ${c.color === "random" ? "either colour" : title(other(c.color))})`;
      $("rematch-offer").hidden = false;
    } else if ((event.type === "challengeCanceled" || event.type === "challengeDeclined") && c) {
      if (this.rematchOffer && c.id === this.rematchOffer.id) {
        this.rematchOffer = null;
        $("rematch-offer").hidden = true;
        say(`${c.challenger.name} took the rematch offer back`, false);
      } else if (c.id === this.rematchSent) {
        this.rematchSent = null;
        say(`${c.destUser ? c.destUser.name : "your opponent"} declined the rematch${c.declineReason ? `: ${c.declineReason}` : ""}`, false);
        this.showAfter(true);
      }
    }
  }

  /** Offer the same game with the colours swapped (lichess's rematch). */
  async rematch() {
    const you = this.game.you;
    if (!you) return;
    if (this.game.hotseat) {
      // the same terms, from the same start: another hot-seat game
      const fields = {...rematchFields(this.game.full, you), fen: this.game.full.initialFen};
      try {
        const made = await api("/api/hotseat", fields);
        openGame(made.gameId);
      } catch (e) {
        say(errorText(e));
      }
      return;
    }
    if (this.rematchOffer) return this.answerRematch("accept"); // both asked: it is on
    try {
      const opponent = this.game.full[other(you)].name;
      const c = await api(`/api/challenge/${encodeURIComponent(opponent)}`, rematchFields(this.game.full, you));
      this.rematchSent = c.id;
      say(`rematch offered to ${opponent}`, false);
      this.showAfter(true);
    } catch (e) {
      say(errorText(e));
    }
  }

  /** @param {"accept"|"decline"} action */
  async answerRematch(action) {
    const c = this.rematchOffer;
    if (!c) return;
    try {
      const answer = await api(`/api/challenge/${encodeURIComponent(c.id)}/${action}`, {});
      $("rematch-offer").hidden = true;
      this.rematchOffer = null;
      if (action === "accept" && answer.gameId) openGame(answer.gameId);
    } catch (e) {
      say(errorText(e));
    }
  }
}
