// @ts-check
/**
 * page/chat.js: the chat panel of a game's page and of an event's. A game has two rooms
 * (docs/online.md): the players talk in theirs while the game goes on (either may close it),
 * spectators in theirs, and the players read the spectators' once the game is over. An event
 * (docs/tournaments.md) has one room, `event`, where every signed-in reader writes. Every line is written as text
 * (`textContent`), never as HTML: a name or a message is shown exactly as typed.
 *
 * @typedef {"player"|"spectator"|"event"} ChatRoom
 * @typedef {{id: number, room: ChatRoom, username: string, text: string}} ChatLine
 * @typedef {{
 *   lines: HTMLElement, form: HTMLFormElement, input: HTMLInputElement, note: HTMLElement,
 *   toggle: HTMLElement, open: HTMLInputElement,
 *   send: (room: ChatRoom, text: string) => void,
 *   setOpen: (open: boolean) => void,
 *   report?: (line: ChatLine) => void,
 *   me?: string,
 * }} ChatParts
 *   `report`: a line of someone else's reported to the moderators (a flag beside it)
 */
import {el} from "./dom.js";
import {keepInView} from "./movelist.js";

const MAX_LINES = 200;

export class Chat {
  /** @param {ChatParts} parts */
  constructor(parts) {
    this.parts = parts;
    /** @type {ChatRoom|null} the room this page writes to */
    this.room = null;
    this.event = false;
    this.playerChat = true;
    this.player = false;
    this.signedIn = false;
    this.over = false;
    parts.form.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = parts.input.value.trim();
      if (!text || !this.room) return;
      parts.send(this.room, text);
      parts.input.value = "";
    });
    parts.open.addEventListener("change", () => parts.setOpen(parts.open.checked));
  }

  /**
   * Who reads and writes what: after the page's whole state.
   * @param {{player: boolean, signedIn: boolean, over: boolean, playerChat: boolean, lines?: ChatLine[], event?: boolean}} how
   *   `event`: an event's one room (the rest does not apply)
   */
  reset(how) {
    this.event = !!how.event;
    this.player = how.player;
    this.signedIn = how.signedIn;
    this.over = how.over;
    this.playerChat = how.playerChat;
    if (how.lines) {
      this.parts.lines.replaceChildren();
      for (const line of how.lines) this.add(line);
    }
    this.show();
  }

  show() {
    const {form, note, toggle, open} = this.parts;
    if (this.event) {
      this.room = this.signedIn ? "event" : null;
      form.hidden = !this.room;
      toggle.hidden = true;
      note.textContent = this.signedIn ? "Everyone on this page reads this." : "Log in to chat.";
      this.parts.input.placeholder = "Say something to the event";
      return;
    }
    this.room = !this.signedIn ? null : this.player ? (this.playerChat ? "player" : null) : "spectator";
    form.hidden = !this.room;
    toggle.hidden = !this.player || this.over;
    open.checked = this.playerChat;
    if (!this.signedIn) note.textContent = "Log in to chat.";
    else if (this.player && !this.playerChat) note.textContent = "The players' chat is off.";
    else if (this.player && !this.over) note.textContent = "Your opponent reads this; spectators do not.";
    else if (!this.player) note.textContent = "The spectators' room: the players read it after the game.";
    else note.textContent = "";
    this.parts.input.placeholder = this.room === "player" ? "Say something to your opponent" : "Say something to the spectators";
  }

  /** The players' room opened or closed. @param {boolean} open */
  setRoom(open) {
    this.playerChat = open;
    this.show();
  }

  /** A line, written as text. @param {ChatLine} line */
  add(line) {
    const box = this.parts.lines;
    if (box.querySelector(`[data-id="${Number(line.id)}"]`)) return;
    const item = el("li", `line ${line.room === "spectator" ? "spectator" : "player"}`);
    item.dataset.id = String(Number(line.id));
    if (this.player && line.room === "spectator") item.title = "from the spectators' room";
    item.append(el("span", "user", line.username), " ", el("span", "text", line.text));
    const {report, me} = this.parts;
    if (report && this.signedIn && me && line.username.toLowerCase() !== me.toLowerCase()) {
      const flag = /** @type {HTMLButtonElement} */ (el("button", "report-line", "⚑"));
      flag.type = "button";
      flag.title = `Report this line of ${line.username} to the moderators`;
      flag.setAttribute("aria-label", flag.title);
      flag.addEventListener("click", () => {
        flag.disabled = true;
        report(line);
      });
      item.append(" ", flag);
    }
    box.append(item);
    while (box.children.length > MAX_LINES) box.firstElementChild?.remove();
    keepInView(box, item);
  }

  /** A line removed by a moderator. @param {number} id */
  remove(id) {
    this.parts.lines.querySelector(`[data-id="${Number(id)}"]`)?.remove();
  }
}
