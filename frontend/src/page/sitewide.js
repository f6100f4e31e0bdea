// @ts-check
/**
 * page/sitewide.js: what a signed-in player must know on every page of the online site, as
 * lichess tells it on any page: the header's unread notifications, a challenge to you (accept or
 * decline it from a note in the corner), your game started (a seek or challenge of yours was
 * accepted: the page goes to the game, unless you are playing another one here: then a note with
 * a link), a game of yours ended, your challenge declined (with the reason in words). One small
 * socket a page, `/ws/site` (docs/online.md); the lobby shows challenges and opens games
 * itself, so there this only keeps the count.
 *
 * @typedef {{id: string, challenger: {name: string}|null, destUser: {name: string}|null,
 *   variant: {key: string}, rated: boolean, timeControl: any, color: string,
 *   declineReason?: string}} Challenge
 */
import {api} from "./api.js";
import {isLeaving, openGame} from "./leave.js";
import {button, el, errorText} from "./dom.js";
import {Socket} from "./socket.js";
import {timeControlText, variantName} from "./online-terms.js";

const PING_MS = 25000;
const DISMISSED = "emergo-dismissed-challenges";

/** lichess's decline reasons a player picks from (the server words them for the challenger). */
export const DECLINE_CHOICES = [
  ["generic", "no reason given"],
  ["later", "Not now"],
  ["tooFast", "Too fast"],
  ["tooSlow", "Too slow"],
  ["timeControl", "Not this time control"],
  ["rated", "Rated only"],
  ["casual", "Casual only"],
  ["variant", "Not this board"],
];

/** A challenge's terms in a sentence for the one challenged. @param {Challenge} c */
export function challengeWords(c) {
  const who = c.challenger ? c.challenger.name : "someone";
  const colour = c.color === "random" ? "random colours" : `you play ${c.color === "white" ? "Black" : "White"}`;
  return `${who} challenges you: ${variantName(c.variant.key)} · ${timeControlText(c.timeControl)} · ${c.rated ? "Rated" : "Casual"} · ${colour}`;
}

class Sitewide {
  /** @param {string} me @param {string} csrf */
  constructor(me, csrf) {
    this.me = me;
    this.lobby = !!document.getElementById("lobby");
    const gameRoot = document.getElementById("game");
    /** The game this page shows, and whether you play it. */
    this.gameId = gameRoot?.dataset.game || "";
    this.playsHere = !!gameRoot?.dataset.you;
    /** @type {Map<string, HTMLElement>} */
    this.challengeNotes = new Map();
    this.box = el("div", "toasts");
    this.box.id = "toasts";
    this.box.setAttribute("role", "region");
    this.box.setAttribute("aria-label", "Notices");
    this.box.setAttribute("aria-live", "polite");
    // On a game page the notes go right after the game panel: on a phone (online.css) they sit
    // there in the flow, under the result and the buttons, never over them; elsewhere, and on
    // a wide screen, they are in the corner (fixed), wherever they are in the document.
    const panel = document.getElementById("game-panel");
    if (panel) panel.after(this.box);
    else document.body.append(this.box);
    const path = `/ws/site?csrf=${encodeURIComponent(csrf)}`;
    this.socket = new Socket(path, {reconnect: true, onMessage: (msg) => this.message(msg)});
    setInterval(() => this.socket.send({t: "ping"}), PING_MS);
  }

  /** @param {any} msg */
  message(msg) {
    if (msg.t === "unread") this.unread(Number(msg.unread) || 0);
    else if (msg.t === "challenges") {
      this.badge((msg.in || []).length);
      if (!this.lobby) this.challenges(msg.in || []);
    }
    else if (msg.t === "event" && msg.event) this.event(msg.event);
  }

  /** The header's count. @param {number} n */
  unread(n) {
    for (const badge of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-unread]"))) {
      badge.textContent = n > 99 ? "99+" : String(n);
      badge.hidden = n === 0;
      badge.setAttribute("aria-label", `${n} unread`);
    }
  }

  /** The header's count of challenges to you (a link to them in the lobby). @param {number} n */
  badge(n) {
    const link = document.getElementById("challenges-link");
    if (!link) return;
    link.hidden = n === 0;
    const count = link.querySelector("[data-challenges]");
    if (count) count.textContent = n > 99 ? "99+" : String(n);
    link.setAttribute("aria-label", `${n} challenge${n === 1 ? "" : "s"} to you`);
  }

  /** @param {any} event */
  event(event) {
    const game = event.game || {};
    if (event.type === "gameStart" && game.gameId) this.started(String(game.gameId));
    else if (event.type === "gameFinish" && game.gameId && game.gameId !== this.gameId && !this.lobby) {
      this.note(`game-${game.gameId}`, "A game of yours has ended.", [this.link("See the game", game.gameId)]);
    } else if (event.type === "challengeDeclined" && event.challenge && !this.lobby) {
      const c = /** @type {Challenge} */ (event.challenge);
      const who = c.destUser ? c.destUser.name : "Your opponent";
      this.note(`declined-${c.id}`, `${who} declined your challenge${c.declineReason ? `: “${c.declineReason}”` : "."}`, []);
    }
  }

  /** A game of yours started: go to it, unless you play another game on this page. @param {string} id */
  async started(id) {
    if (id === this.gameId || this.lobby || isLeaving()) return;
    if (this.playsHere) {
      try {
        const playing = await api("/api/account/playing");
        const here = (playing.nowPlaying || []).some((/** @type {any} */ g) => g.gameId === this.gameId);
        if (here) {
          this.note(`game-${id}`, "A new game of yours has started.", [this.link("Go to the game", id)]);
          return;
        }
      } catch {
        // cannot tell: go, as lichess does
      }
    }
    this.open(id);
  }

  /** @param {string} id */
  open(id) {
    if (openGame(id)) this.note(`game-${id}`, "Your game has started: opening it …", [this.link("Open the game", id)]);
  }

  /** @param {string} text @param {string} gameId */
  link(text, gameId) {
    const a = /** @type {HTMLAnchorElement} */ (el("a", "button primary", text));
    a.href = `/game/${encodeURIComponent(gameId)}`;
    return a;
  }

  /** The open challenges to you: one note each (until answered or dismissed). @param {Challenge[]} open */
  challenges(open) {
    const dismissed = dismissedIds();
    const ids = new Set(open.map((c) => c.id));
    for (const [id, note] of this.challengeNotes) {
      if (!ids.has(id)) {
        note.remove();
        this.challengeNotes.delete(id);
      }
    }
    for (const c of open) {
      if (this.challengeNotes.has(c.id) || dismissed.includes(c.id)) continue;
      const reason = /** @type {HTMLSelectElement} */ (el("select", "reason"));
      reason.setAttribute("aria-label", "The reason to decline");
      reason.title = "The reason the challenger reads";
      for (const [key, text] of DECLINE_CHOICES) reason.append(new Option(text, key));
      const note = this.note(`challenge-${c.id}`, challengeWords(c), [
        button("Accept", () => this.answer(c, "accept", note), "primary"),
        button("Decline", () => this.answer(c, "decline", note, reason.value)),
        reason,
      ], () => keepDismissed(c.id));
      note.classList.add("challenge-note");
      note.dataset.challenge = c.id;
      this.challengeNotes.set(c.id, note);
    }
  }

  /** @param {Challenge} c @param {"accept"|"decline"} action @param {HTMLElement} note @param {string} [reason] */
  async answer(c, action, note, reason) {
    try {
      const answer = await api(`/api/challenge/${encodeURIComponent(c.id)}/${action}`, action === "decline" ? {reason} : {});
      note.remove();
      this.challengeNotes.delete(c.id);
      if (action === "accept" && answer.gameId) this.open(answer.gameId);
    } catch (e) {
      const body = /** @type {any} */ (e).body;
      /** @type {HTMLElement} */ (note.querySelector(".text")).textContent = (body && body.words) || errorText(e);
    }
  }

  /**
   * A note in the corner (one per key: a newer one replaces it), closed by its × button.
   * @param {string} key @param {string} text @param {HTMLElement[]} actions @param {() => void} [onClose]
   */
  note(key, text, actions, onClose) {
    this.box.querySelector(`[data-key="${CSS.escape(key)}"]`)?.remove();
    const note = el("div", "toast");
    note.dataset.key = key;
    note.setAttribute("role", "status");
    const close = button("×", () => {
      note.remove();
      onClose?.();
    }, "close");
    close.setAttribute("aria-label", "Close");
    const acts = el("div", "acts");
    acts.append(...actions);
    note.append(el("p", "text", text), acts, close);
    this.box.append(note);
    return note;
  }
}

/** @returns {string[]} */
function dismissedIds() {
  try {
    const list = JSON.parse(sessionStorage.getItem(DISMISSED) || "[]");
    return Array.isArray(list) ? list.map(String) : [];
  } catch {
    return [];
  }
}

/** @param {string} id */
function keepDismissed(id) {
  try {
    sessionStorage.setItem(DISMISSED, JSON.stringify([...dismissedIds(), id].slice(-50)));
  } catch {
    // private mode: the note comes back on the next page
  }
}

/** Start the page's site-wide channel when someone is signed in (the header's `.who` says who). */
export function startSitewide() {
  const header = /** @type {HTMLElement|null} */ (document.querySelector(".site-top .who[data-me]"));
  if (!header || !header.dataset.me || !header.dataset.csrf) return null;
  return new Sitewide(header.dataset.me, header.dataset.csrf);
}
