// @ts-check
/**
 * page/lobby.js: the online site's lobby (`/`), as lichess's home in small. The open challenges
 * (seeks) come over `/ws/lobby` and are redrawn whenever the lobby changes; a signed-in
 * player also gets the lines of their event stream there (a challenge to them, one canceled or
 * declined, a game started or finished), after which the page asks again for their challenges
 * (`GET /api/challenge`) and games (`GET /api/account/playing`). A game that starts while the
 * lobby is open is opened (the seek or challenge was accepted).
 *
 * Creating: the terms (variant, time control, rated or casual, colour) with three ways to find
 * an opponent: a seek in the lobby, a direct challenge to a named player, an invitation link for
 * a friend; and, when the site has it (issue 20), the computer at a level.
 *
 * @typedef {import("./online.js").PageData} PageData
 * @typedef {{id: string, url: string, kind: string, status: string, challenger: any, destUser: any,
 *   variant: {key: string}, rated: boolean, speed: string, timeControl: any, color: string}} Challenge
 * @typedef {{gameId: string, color: string, variant: {key: string}, speed: string, isMyTurn: boolean,
 *   opponent: {username: string, title?: string|null}, secondsLeft?: number, lastMove: string}} Playing
 */
import {api} from "./api.js";
import {openGame} from "./leave.js";
import {$, button, el, errorText, input, onceAtATime, say, select} from "./dom.js";
import {Socket} from "./socket.js";
import {initOnline, pageData, personEl, socketPath} from "./online.js";
import {clockText, title} from "./format.js";
import {termsFields, timeControlText, variantName} from "./online-terms.js";
import {startTv} from "./tv.js";

const REFRESH_MS = 10000;

class Lobby {
  /** @param {HTMLElement} root */
  constructor(root) {
    /** @type {PageData} */
    this.data = pageData(root);
    this.signedIn = !!this.data.me;
    /** @type {Challenge[]} */
    this.seeks = [];
    this.socket = new Socket(socketPath("/ws/lobby", this.data), {
      reconnect: true,
      onMessage: (msg) => this.message(msg),
      onStatus: (status) => {
        // whether the lobby hears its events now (a game started before it did shows in the
        // lists the refresh fetches, not by going to it); tests wait for it. "1" at the first
        // seeks of a connection: the server sends them after it has noted where its events
        // start, not at the socket's opening
        if (status !== "open") document.documentElement.dataset.live = "0";
        if (status === "open" && this.signedIn) this.refresh();
      },
    });
    if (this.signedIn) {
      this.wire();
      setInterval(() => {
        if (document.visibilityState === "visible") this.refresh();
      }, REFRESH_MS);
    }
  }

  /** @param {any} msg */
  message(msg) {
    if (msg.t === "seeks") {
      document.documentElement.dataset.live = "1";
      this.seeks = msg.seeks;
      this.drawSeeks();
    } else if (msg.t === "event") {
      const event = msg.event || {};
      if (event.type === "gameStart" && event.game && event.game.gameId) {
        this.open(event.game.gameId);
        return;
      }
      if (event.type === "challengeDeclined" && event.challenge) {
        const who = event.challenge.destUser ? event.challenge.destUser.name : "your opponent";
        say(`${who} declined your challenge${event.challenge.declineReason ? `: ${event.challenge.declineReason}` : ""}`, false);
      }
      this.refresh();
    }
  }

  /** Go to a game (once: the answer to an acceptance and the event of its start both say so). @param {string} id */
  open(id) {
    openGame(id);
  }

  // --- creating -------------------------------------------------------------------------------

  wire() {
    const speed = select("speed");
    const showSpeed = () => {
      $("presets").hidden = speed.value !== "live";
      $("custom").hidden = speed.value !== "live";
      $("days-row").hidden = speed.value !== "correspondence";
    };
    speed.addEventListener("change", showSpeed);
    this.prefill(new URLSearchParams(location.search));
    showSpeed();
    for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("#presets .preset"))) {
      b.addEventListener("click", () => {
        input("minutes").value = String(Number(b.dataset.limit) / 60);
        input("increment").value = String(b.dataset.increment);
        this.pressPreset();
      });
    }
    input("minutes").addEventListener("input", () => this.pressPreset());
    input("increment").addEventListener("input", () => this.pressPreset());
    onceAtATime($("post-seek"), () => this.create("/api/lobby/seek", "your seek is in the lobby"));
    onceAtATime($("make-link"), () => this.create("/api/challenge/open", "the link is under Your challenges: send it to a friend"));
    onceAtATime($("challenge"), () => {
      const name = input("opponent").value.trim();
      if (!name) return say("whom? write a player's name");
      return this.create(`/api/challenge/${encodeURIComponent(name)}`, `challenge sent to ${name}`);
    });
    $("opponent").addEventListener("keydown", (e) => {
      if (/** @type {KeyboardEvent} */ (e).key === "Enter") {
        e.preventDefault();
        $("challenge").click();
      }
    });
    for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("#quick .quick"))) onceAtATime(b, () => this.quick(b));
    const ai = document.getElementById("play-ai");
    if (ai) onceAtATime(ai, () => this.playComputer());
    onceAtATime($("play-hotseat"), () => this.playHotseat());
  }

  /**
   * The form filled from the address (the game page's "New opponent": the same seek again):
   * `?variant=9x9&minutes=5&increment=3&rated=true`, `?days=3`, `?speed=unlimited`; what is not
   * a choice of the form is left as it is.
   * @param {URLSearchParams} params
   */
  prefill(params) {
    /** @param {string} id @param {string|null} value */
    const choose = (id, value) => {
      const s = select(id);
      if (value !== null && [...s.options].some((o) => o.value === value)) s.value = value;
    };
    choose("variant", params.get("variant"));
    choose("rated", params.get("rated"));
    choose("color", params.get("color"));
    if (params.has("minutes")) {
      choose("speed", "live");
      const minutes = Number(params.get("minutes"));
      const increment = Number(params.get("increment") || 0);
      if (Number.isFinite(minutes) && minutes > 0) input("minutes").value = String(minutes);
      if (Number.isFinite(increment) && increment >= 0) input("increment").value = String(increment);
      this.pressPreset();
    } else if (params.has("days")) {
      choose("speed", "correspondence");
      choose("days", params.get("days"));
    } else choose("speed", params.get("speed"));
  }

  /** Press the preset that is the minutes and increment written, if one is. */
  pressPreset() {
    const limit = Number(input("minutes").value) * 60;
    const inc = Number(input("increment").value);
    for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("#presets .preset"))) {
      b.setAttribute("aria-pressed", String(Number(b.dataset.limit) === limit && Number(b.dataset.increment) === inc));
    }
  }

  terms() {
    return termsFields({
      variant: select("variant").value,
      speed: select("speed").value,
      minutes: Number(input("minutes").value),
      increment: Number(input("increment").value),
      days: Number(select("days").value),
      rated: select("rated").value === "true",
      color: select("color").value,
    });
  }

  /** @param {string} path @param {string} done */
  async create(path, done) {
    try {
      await api(path, this.terms());
      say(done, false);
      if (path.startsWith("/api/challenge/") && path !== "/api/challenge/open") input("opponent").value = "";
      await this.refresh();
    } catch (e) {
      say(playerWords(e));
    }
  }

  /**
   * Quick pairing: the game at once with whoever waits on these terms, else my seek until
   * someone takes it (the lobby opens the game then). @param {HTMLButtonElement} b
   */
  async quick(b) {
    const fields = b.dataset.days
      ? {variant: select("variant").value, rated: select("rated").value === "true", days: Number(b.dataset.days)}
      : {variant: select("variant").value, rated: select("rated").value === "true", "clock.limit": Number(b.dataset.limit), "clock.increment": Number(b.dataset.increment)};
    try {
      const answer = await api("/api/lobby/quick", fields);
      if (answer.gameId) return this.open(answer.gameId);
      for (const other of document.querySelectorAll("#quick .quick")) other.setAttribute("aria-pressed", String(other === b));
      quickSay(`your ${timeControlText(answer.seek.timeControl)} seek waits: the game opens when someone takes it`, false);
      await this.refresh();
    } catch (e) {
      quickSay(playerWords(e));
    }
  }

  async playComputer() {
    say("asking the computer ...", false);
    try {
      const answer = await api("/api/challenge/ai", {...this.terms(), level: Number(select("ai-level").value)});
      if (answer.gameId) this.open(answer.gameId);
    } catch (e) {
      say(playerWords(e));
    }
  }

  /** A hot-seat game on these terms: you hold both seats (two people at one screen). */
  async playHotseat() {
    try {
      const answer = await api("/api/hotseat", this.terms());
      if (answer.gameId) this.open(answer.gameId);
    } catch (e) {
      say(playerWords(e));
    }
  }

  // --- the lists ------------------------------------------------------------------------------

  /** A challenge's terms as cells: variant, time, mode. @param {Challenge} c */
  terms3(c) {
    return [variantName(c.variant.key), timeControlText(c.timeControl), c.rated ? "Rated" : "Casual"];
  }

  drawSeeks() {
    const body = $("seeks");
    body.replaceChildren();
    if (!this.seeks.length) {
      const row = el("tr", "none");
      const cell = /** @type {HTMLTableCellElement} */ (el("td", "", this.signedIn ? "None yet: post one" : "None yet"));
      cell.colSpan = 6;
      row.append(cell);
      body.append(row);
      return;
    }
    for (const c of this.seeks) {
      const row = el("tr", "seek");
      row.dataset.id = c.id;
      const mine = this.mineName(c.challenger);
      const who = el("td");
      who.append(personEl(c.challenger, this.data.profiles));
      row.append(who);
      for (const text of this.terms3(c)) row.append(el("td", "", text));
      row.append(el("td", "", c.color === "random" ? "Random" : `plays ${title(c.color)}`));
      const act = el("td", "act");
      if (mine) act.append(button("Cancel", () => this.answer(c, "cancel")));
      else if (this.signedIn) act.append(button("Accept", () => this.answer(c, "accept"), "primary"));
      row.append(act);
      body.append(row);
    }
  }

  /** @param {any} user */
  mineName(user) {
    return !!user && this.signedIn && String(user.name).toLowerCase() === this.data.me.toLowerCase();
  }

  /** @param {Challenge} c @param {"accept"|"decline"|"cancel"} action */
  async answer(c, action) {
    try {
      const answer = await api(`/api/challenge/${encodeURIComponent(c.id)}/${action}`, {});
      if (action === "accept" && answer.gameId) {
        this.open(answer.gameId);
        return;
      }
      await this.refresh();
    } catch (e) {
      say(playerWords(e));
    }
  }

  /** Your challenges and games, asked for again. */
  async refresh() {
    try {
      const [mine, playing] = await Promise.all([api("/api/challenge"), api("/api/account/playing")]);
      this.drawChallenges(mine.in || [], mine.out || []);
      this.drawPlaying(playing.nowPlaying || []);
    } catch (e) {
      say(playerWords(e));
    }
  }

  /** @param {Challenge[]} incoming @param {Challenge[]} outgoing */
  drawChallenges(incoming, outgoing) {
    $("incoming-panel").hidden = !incoming.length;
    $("incoming").replaceChildren(
      ...incoming.map((c) => {
        const item = el("li", "challenge");
        item.dataset.id = c.id;
        item.append(personEl(c.challenger, this.data.profiles), el("span", "terms", ` ${this.terms3(c).join(" · ")} · ${colourWords(c.color, true)}`));
        item.append(el("span", "acts"));
        /** @type {HTMLElement} */ (item.lastChild).append(button("Accept", () => this.answer(c, "accept"), "primary"), button("Decline", () => this.answer(c, "decline")));
        return item;
      }),
    );
    $("outgoing-panel").hidden = !outgoing.length;
    $("outgoing").replaceChildren(
      ...outgoing.map((c) => {
        const item = el("li", "challenge");
        item.dataset.id = c.id;
        if (c.kind === "link") {
          item.append(el("span", "", "Invitation link "));
          const link = /** @type {HTMLInputElement} */ (el("input", "link"));
          link.readOnly = true;
          link.value = c.url;
          link.setAttribute("aria-label", "The invitation link");
          link.addEventListener("focus", () => link.select());
          item.append(link, button("Copy", () => copy(link)));
        } else if (c.kind === "seek") item.append(el("span", "", "Seek in the lobby"));
        else item.append(el("span", "", "To "), personEl(c.destUser, this.data.profiles));
        item.append(el("span", "terms", ` ${this.terms3(c).join(" · ")} · ${colourWords(c.color, false)}`));
        item.append(el("span", "acts"));
        /** @type {HTMLElement} */ (item.lastChild).append(button("Cancel", () => this.answer(c, "cancel")));
        return item;
      }),
    );
  }

  /** @param {Playing[]} games */
  drawPlaying(games) {
    const turn = games.filter((g) => g.isMyTurn && g.speed === "correspondence");
    fill($("your-turn"), turn.map((g) => this.gameItem(g)));
    fill($("playing"), games.map((g) => this.gameItem(g)));
  }

  /** @param {Playing} g */
  gameItem(g) {
    const item = el("li", `game${g.isMyTurn ? " my-turn" : ""}`);
    item.dataset.id = g.gameId;
    const a = /** @type {HTMLAnchorElement} */ (el("a", "open"));
    a.href = `/game/${encodeURIComponent(g.gameId)}`;
    a.append(el("span", "", "vs "), personEl({name: g.opponent.username, title: g.opponent.title}, false));
    item.append(a, el("span", "terms", ` ${variantName(g.variant.key)} · ${g.color === "white" ? "White" : "Black"}`));
    const when = typeof g.secondsLeft === "number" ? ` · ${clockText(g.secondsLeft)} left` : "";
    item.append(el("span", g.isMyTurn ? "turn mine" : "turn", g.isMyTurn ? ` · your turn${when}` : ` · their turn`));
    return item;
  }
}

/** An error in a player's words: the server's `words` (the API's message names its fields). @param {unknown} e */
function playerWords(e) {
  const body = /** @type {any} */ (e)?.body;
  return body && typeof body.words === "string" ? body.words : errorText(e);
}

/** @param {string} color the challenger's @param {boolean} forYou the words for the one who accepts */
function colourWords(color, forYou) {
  if (color === "random") return "random colours";
  if (!forYou) return `you play ${title(color)}`;
  return `you play ${color === "white" ? "Black" : "White"}`;
}

/** @param {HTMLElement} list @param {HTMLElement[]} items */
function fill(list, items) {
  list.replaceChildren(...(items.length ? items : [el("li", "none", "None")]));
}

/** @param {HTMLInputElement} field */
async function copy(field) {
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
    say("link copied", false);
  } catch {
    say("select the link and copy it", false);
  }
}

/** Start the page. */
export async function startLobby() {
  const root = $("lobby");
  await initOnline(pageData(root));
  new Lobby(root);
  const tv = document.getElementById("tv-panel");
  if (tv) startTv(tv);
  document.documentElement.dataset.ready = "1";
}

/** Quick pairing's answer under its grid (on a phone the create form's message is out of view). @param {string} text @param {boolean} [error] */
function quickSay(text, error = true) {
  const m = $("quick-message");
  m.textContent = text;
  m.classList.toggle("info", !error);
}
