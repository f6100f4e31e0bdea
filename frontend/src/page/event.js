// @ts-check
/**
 * page/event.js: an event's page (`/tournament/{id}`, `/swiss/{id}`), rendered by the server
 * (emergo.server.tournament.pages) and working without script. This keeps it live: the
 * countdown ticks every second, the standings and the games table (a new pairing, a finished
 * game's result) come again from the
 * event's API (`GET /api/tournament/{id}` or `/api/swiss/{id}`, the page's `data-api`) every
 * few seconds while the page is seen (lichess's event page polls its standing the same way),
 * and a player whose pairing is made gets the link to their game ("your game is ready") and,
 * in an arena that has it, the berserk button (half the clock, a point more for a win).
 * The page reloads once when the event's status changes (started, finished), so its buttons
 * (join, withdraw, pause) are the server's. Its chat (the game page's component, page/chat.js)
 * waits on `GET {data-api}/chat?since=N&wait=true`, which answers when a line is said (the
 * server's bus) or after a while with nothing, and is asked again at once.
 */
import {api} from "./api.js";
import {Chat} from "./chat.js";
import {button, el, errorText} from "./dom.js";
import {initOnline, pageData} from "./online.js";

const POLL_MS = 3000;
const HIDDEN_POLL_MS = 15000;
const CHAT_RETRY_MS = 3000;

/** @param {number} seconds */
export function leftText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

/** A link to a player's profile. @param {string} name */
function playerEl(name) {
  if (name === "(deleted)") return document.createTextNode(name);
  const a = /** @type {HTMLAnchorElement} */ (el("a", undefined, name));
  a.href = `/@/${encodeURIComponent(name)}`;
  return a;
}

/** A table row of cells (a text, or a node). @param {(string|Node)[]} cells @param {string} [cls] */
function rowEl(cells, cls) {
  const tr = el("tr", cls);
  for (const cell of cells) {
    const td = el("td");
    td.append(cell);
    tr.append(td);
  }
  return tr;
}

/** One line of the standing as the page's table shows it. @param {any} line @param {string} system */
export function standingCells(line, system) {
  const name = /** @type {(string|Node)[]} */ ([playerEl(String(line.username))]);
  if (line.withdraw) name.push(system === "arena" ? " (paused)" : " (withdrawn)");
  const who = el("span");
  who.append(...name);
  const cells = /** @type {(string|Node)[]} */ ([String(line.rank), who, String(line.rating)]);
  if (system === "arena") {
    const sheet = el("span", "sheet", String(line.sheet?.scores ?? ""));
    cells.push(sheet, String(line.score));
  } else {
    cells.push(String(line.points ?? line.score));
    for (const value of line.tieBreaks || []) cells.push(String(value));
  }
  return cells;
}

/** One pairing as the page's games table shows it (the server's `_pairings`). @param {any} p */
export function pairingCells(p) {
  const game = el("span");
  if (p.gameId) {
    const a = /** @type {HTMLAnchorElement} */ (el("a", undefined, String(p.result)));
    a.href = `/game/${encodeURIComponent(p.gameId)}`;
    game.append(a);
  } else {
    game.append(String(p.result));
  }
  if (p.forfeit) game.append(" (forfeit)");
  return /** @type {(string|Node)[]} */ ([String(p.round || ""), playerEl(String(p.white)), playerEl(String(p.black)), game, String(p.ballot || "")]);
}

class EventPage {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    this.data = pageData(root);
    this.api = String(root.dataset.api || "");
    /** @type {string|null} */
    this.status = null;
    /** @type {string|null} */
    this.gameId = null;
    this.busy = false;
    this.berserkable = false;
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    this.timer = undefined;
  }

  start() {
    this.startChat();
    setInterval(() => this.tick(), 1000);
    this.tick();
    this.poll();
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) this.poll();
    });
  }

  /** The event's chat: its last lines, then each new one as it is said. */
  startChat() {
    const box = document.getElementById("chat-lines");
    if (!box || !this.api) return;
    const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
    const note = $("chat-note");
    const chat = new Chat({
      lines: box,
      form: /** @type {HTMLFormElement} */ ($("chat-form")),
      input: /** @type {HTMLInputElement} */ ($("chat-text")),
      note,
      toggle: $("chat-switch"),
      open: /** @type {HTMLInputElement} */ ($("chat-open")),
      send: (_room, text) => {
        api(`${this.api}/chat`, {text}).catch((e) => {
          note.textContent = errorText(e);
        });
      },
      setOpen: () => {},
      me: this.data.me || "",
      report: (line) => {
        api("/api/report", {username: line.username, reason: "abuse", line: Number(line.id)})
          .then(() => {
            note.textContent = `The line of ${line.username} is reported: the moderators will read it.`;
          })
          .catch((e) => {
            note.textContent = errorText(e);
          });
      },
    });
    chat.reset({player: false, signedIn: !!this.data.me, over: false, playerChat: false, event: true});
    this.followChat(chat, 0, false);
  }

  /**
   * Ask for the lines after `since` (waiting for one when `wait`), show them, and ask again.
   * @param {Chat} chat @param {number} since @param {boolean} wait
   */
  async followChat(chat, since, wait) {
    let last = since;
    try {
      const got = /** @type {{lines: any[], removed: number[]}} */ (await api(`${this.api}/chat?since=${last}&wait=${wait}`));
      for (const line of got.lines) {
        chat.add(line);
        last = Math.max(last, Number(line.id));
      }
      for (const id of got.removed) chat.remove(id);
    } catch {
      await new Promise((done) => setTimeout(done, CHAT_RETRY_MS)); // the server away: again soon
    }
    this.followChat(chat, last, true);
  }

  /** The countdowns: seconds to their `data-at` (a wall time, seconds). */
  tick() {
    for (const span of document.querySelectorAll(".countdown[data-at]")) {
      const at = Number(/** @type {HTMLElement} */ (span).dataset.at);
      if (Number.isFinite(at)) span.textContent = leftText(at - Date.now() / 1000);
    }
  }

  async poll() {
    clearTimeout(this.timer);
    if (!this.busy && this.api) {
      this.busy = true;
      try {
        this.show(await api(this.api));
      } catch {
        // the next poll tries again (the server restarting, the network away)
      } finally {
        this.busy = false;
      }
    }
    this.timer = setTimeout(() => this.poll(), document.hidden ? HIDDEN_POLL_MS : POLL_MS);
  }

  /** The event as the API gives it. @param {any} event */
  show(event) {
    const status = String(event.isFinished ? "finished" : event.isStarted || event.status === "started" ? "started" : event.status);
    if (this.status !== null && status !== this.status) {
      location.reload(); // started or finished: the server's page, with its buttons
      return;
    }
    this.status = status;
    const at = event.system === "arena" && event.isStarted ? event.finishesAt / 1000 : null;
    const countdown = /** @type {HTMLElement|null} */ (document.querySelector("#event-clock .countdown"));
    if (countdown && at) countdown.dataset.at = String(at);
    this.berserkable = event.system === "arena" && !!event.berserkable;
    this.showStanding(event);
    this.showPairings(event.pairings);
    this.showMyGame(event.ongoing || []);
  }

  /** @param {any} event */
  showStanding(event) {
    const body = document.getElementById("standings");
    const lines = event.standing?.players;
    if (!body || !Array.isArray(lines) || !lines.length) return;
    body.replaceChildren(...lines.map((line) => rowEl(standingCells(line, event.system), line.sheet?.fire ? "fire" : line.withdraw ? "paused" : "active")));
  }

  /** The games table: the event's pairings, the newest first. @param {any} pairings */
  showPairings(pairings) {
    const body = document.getElementById("pairings");
    if (!body || !Array.isArray(pairings)) return;
    body.replaceChildren(...pairings.map((p) => rowEl(pairingCells(p), String(p.status))));
  }

  /** "Your game is ready": the link to the signed-in player's game in play. @param {any[]} ongoing */
  showMyGame(ongoing) {
    const me = this.data.me.toLowerCase();
    const mine = me ? ongoing.find((p) => p.gameId && p.status === "playing" && [p.white, p.black].some((n) => String(n).toLowerCase() === me)) : null;
    let banner = document.getElementById("my-game");
    if (!mine) {
      banner?.remove();
      this.gameId = null;
      return;
    }
    if (banner && this.gameId === mine.gameId) return;
    this.gameId = mine.gameId;
    if (!banner) {
      banner = el("p", "my-game");
      banner.id = "my-game";
      banner.setAttribute("role", "status");
      document.getElementById("event-clock")?.after(banner);
    }
    const link = /** @type {HTMLAnchorElement} */ (el("a", "button primary", "Your game is ready: play it"));
    link.href = `/game/${encodeURIComponent(mine.gameId)}`;
    banner.replaceChildren(link);
    if (this.berserkable) banner.append(" ", button("Berserk: half your clock", () => this.berserk(mine.gameId), "berserk"));
  }

  /** Berserk (an arena's): half the clock for a point more if the game is won. @param {string} gameId */
  async berserk(gameId) {
    const note = document.getElementById("berserk-note") || el("span", "note");
    note.id = "berserk-note";
    document.getElementById("my-game")?.append(" ", note);
    try {
      await api(`/api/board/game/${encodeURIComponent(gameId)}/berserk`, {});
      note.textContent = "Berserk: half your clock, a point more if you win";
      document.querySelector("#my-game button.berserk")?.remove();
    } catch (e) {
      note.textContent = errorText(e);
    }
  }
}

/** Start the page. */
export function startEvent() {
  const root = /** @type {HTMLElement|null} */ (document.querySelector("main.event"));
  initOnline(root ? pageData(root) : undefined).finally(() => {
    document.documentElement.dataset.ready = "1";
  });
  if (root) new EventPage(root).start();
}
