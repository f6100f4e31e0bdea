// Built from static/page/ and static/board/ by tools/web-check/build.mjs: do not edit.
import {
  $,
  Socket,
  api,
  button,
  clockText,
  el,
  errorText,
  initOnline,
  input,
  pageData,
  personEl,
  say,
  select,
  socketPath,
  termsFields,
  timeControlText,
  title,
  variantName
} from "./chunk-H4UDQUBU.js";

// ../../src/emergo/web/static/page/lobby.js
var REFRESH_MS = 1e4;
var Lobby = class {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.data = pageData(root);
    this.signedIn = !!this.data.me;
    this.seeks = [];
    this.leaving = false;
    this.socket = new Socket(socketPath("/ws/online/lobby", this.data), {
      reconnect: true,
      onMessage: (msg) => this.message(msg),
      onStatus: (status) => {
        document.documentElement.dataset.live = status === "open" ? "1" : "0";
        if (status === "open" && this.signedIn) this.refresh();
      }
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
    if (this.leaving) return;
    this.leaving = true;
    location.assign(`/game/${encodeURIComponent(id)}`);
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
    for (
      const b of
      /** @type {NodeListOf<HTMLButtonElement>} */
      document.querySelectorAll("#presets .preset")
    ) {
      b.addEventListener("click", () => {
        input("minutes").value = String(Number(b.dataset.limit) / 60);
        input("increment").value = String(b.dataset.increment);
        this.pressPreset();
      });
    }
    input("minutes").addEventListener("input", () => this.pressPreset());
    input("increment").addEventListener("input", () => this.pressPreset());
    $("post-seek").addEventListener("click", () => this.create("/api/lobby/seek", "your seek is in the lobby"));
    $("make-link").addEventListener("click", () => this.create("/api/challenge/open", "the link is under Your challenges: send it to a friend"));
    $("challenge").addEventListener("click", () => {
      const name = input("opponent").value.trim();
      if (!name) return say("whom? write a player's name");
      this.create(`/api/challenge/${encodeURIComponent(name)}`, `challenge sent to ${name}`);
    });
    $("opponent").addEventListener("keydown", (e) => {
      if (
        /** @type {KeyboardEvent} */
        e.key === "Enter"
      ) {
        e.preventDefault();
        $("challenge").click();
      }
    });
    document.getElementById("play-ai")?.addEventListener("click", () => this.playComputer());
  }
  /**
   * The form filled from the address (the game page's "New opponent": the same seek again):
   * `?variant=9x9&minutes=5&increment=3&rated=true`, `?days=3`, `?speed=unlimited`; what is not
   * a choice of the form is left as it is.
   * @param {URLSearchParams} params
   */
  prefill(params) {
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
    for (
      const b of
      /** @type {NodeListOf<HTMLButtonElement>} */
      document.querySelectorAll("#presets .preset")
    ) {
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
      color: select("color").value
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
  async playComputer() {
    say("asking the computer ...", false);
    try {
      const answer = await api("/api/challenge/ai", { ...this.terms(), level: Number(select("ai-level").value) });
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
      const cell = (
        /** @type {HTMLTableCellElement} */
        el("td", "", this.signedIn ? "None yet: post one" : "None yet")
      );
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
        item.lastChild.append(button("Accept", () => this.answer(c, "accept"), "primary"), button("Decline", () => this.answer(c, "decline")));
        return item;
      })
    );
    $("outgoing-panel").hidden = !outgoing.length;
    $("outgoing").replaceChildren(
      ...outgoing.map((c) => {
        const item = el("li", "challenge");
        item.dataset.id = c.id;
        if (c.kind === "link") {
          item.append(el("span", "", "Invitation link "));
          const link = (
            /** @type {HTMLInputElement} */
            el("input", "link")
          );
          link.readOnly = true;
          link.value = c.url;
          link.setAttribute("aria-label", "The invitation link");
          link.addEventListener("focus", () => link.select());
          item.append(link, button("Copy", () => copy(link)));
        } else if (c.kind === "seek") item.append(el("span", "", "Seek in the lobby"));
        else item.append(el("span", "", "To "), personEl(c.destUser, this.data.profiles));
        item.append(el("span", "terms", ` ${this.terms3(c).join(" · ")} · ${colourWords(c.color, false)}`));
        item.append(el("span", "acts"));
        item.lastChild.append(button("Cancel", () => this.answer(c, "cancel")));
        return item;
      })
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
    const a = (
      /** @type {HTMLAnchorElement} */
      el("a", "open")
    );
    a.href = `/game/${encodeURIComponent(g.gameId)}`;
    a.append(el("span", "", "vs "), personEl({ name: g.opponent.username, title: g.opponent.title }, false));
    item.append(a, el("span", "terms", ` ${variantName(g.variant.key)} · ${g.color === "white" ? "White" : "Black"}`));
    const when = typeof g.secondsLeft === "number" ? ` · ${clockText(g.secondsLeft)} left` : "";
    item.append(el("span", g.isMyTurn ? "turn mine" : "turn", g.isMyTurn ? ` · your turn${when}` : ` · their turn`));
    return item;
  }
};
function playerWords(e) {
  const body = (
    /** @type {any} */
    e?.body
  );
  return body && typeof body.words === "string" ? body.words : errorText(e);
}
function colourWords(color, forYou) {
  if (color === "random") return "random colours";
  if (!forYou) return `you play ${title(color)}`;
  return `you play ${color === "white" ? "Black" : "White"}`;
}
function fill(list, items) {
  list.replaceChildren(...items.length ? items : [el("li", "none", "None")]);
}
async function copy(field) {
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
    say("link copied", false);
  } catch {
    say("select the link and copy it", false);
  }
}
async function main() {
  const root = $("lobby");
  await initOnline(pageData(root));
  new Lobby(root);
  document.documentElement.dataset.ready = "1";
}
main();
