// @ts-check
/**
 * page/explorer.js: the opening explorer's panel beside the analysis board, as lichess's (issue
 * 29, docs/explorer.md). For the position shown: each move played there with how many games
 * played it and a bar of how they ended (White's wins, draws, Black's wins), the movers' average
 * rating, and the position's top and recent games, each a link to its game; a click on a move
 * (or Enter on it) plays it on the board. The games are the site's (`source=archive`) or the
 * engine's own (`source=engine`), a switch above the table. The server counts and merges the
 * positions (move orders, the board's symmetries); the panel knows no rule.
 *
 * The panel follows the board by asking `position()` a few times a second and asking the server
 * when it changed (each answer kept for the session): the board's page needs no call on every
 * move, only the mount.
 *
 * @typedef {{move: string, san: string, checker: string, white: number, draws: number,
 *   black: number, averageRating: number|null}} ExplorerMove
 * @typedef {{name: string|null, rating: number|null}} ExplorerPlayer
 * @typedef {{id: string, move: string, checker: string, winner: "white"|"black"|null,
 *   white: ExplorerPlayer, black: ExplorerPlayer, year: number, month: string, mode: string,
 *   speed: string}} ExplorerGame
 * @typedef {{white: number, draws: number, black: number, moves: ExplorerMove[],
 *   topGames: ExplorerGame[], recentGames: ExplorerGame[]}} ExplorerAnswer
 *   `GET /api/explorer`'s answer (lila-openingexplorer's shape)
 * @typedef {{variant?: () => string|null, position: () => string|null, onMove: (text: string) => void,
 *   names?: () => "oblique"|"checker"}} ExplorerOptions
 *   `position()`: the R22 string of the position shown (null: none, the panel waits);
 *   `variant()`: its board (default: read from the position); `onMove(text)`: play the move's
 *   canonical text (R21, oblique names); `names()`: the naming moves are written in
 */
import {api, ApiError} from "./api.js";
import {el} from "./dom.js";
import {settings} from "./settings.js";

/** How often the panel looks whether the board shows another position (ms). */
const FOLLOW_MS = 200;
/** Answers kept (positions by source). */
const KEPT = 500;
const SOURCES = /** @type {const} */ ([["archive", "Site games"], ["engine", "Engine games"]]);

/** A count with thousands separated. @param {number} n */
const count = (n) => n.toLocaleString("en");

/** The share of `part` in `whole` as a whole percent. @param {number} part @param {number} whole */
export const percent = (part, whole) => (whole ? Math.round((100 * part) / whole) : 0);

/**
 * The three parts of a results bar, each a percent of the games, summing to 100 (the rounding
 * taken off the largest part), and the label shown in a part wide enough for it.
 * @param {{white: number, draws: number, black: number}} r
 * @returns {{side: "white"|"draws"|"black", share: number, label: string}[]}
 */
export function resultBar(r) {
  const total = r.white + r.draws + r.black;
  /** @type {("white"|"draws"|"black")[]} */
  const sides = ["white", "draws", "black"];
  const shares = sides.map((s) => (total ? (100 * r[s]) / total : 0));
  const rounded = shares.map(Math.round);
  if (total) {
    const largest = shares.indexOf(Math.max(...shares));
    rounded[largest] += 100 - rounded.reduce((a, b) => a + b, 0);
  }
  return sides.map((side, i) => ({side, share: rounded[i], label: rounded[i] >= 12 ? `${rounded[i]}%` : ""}));
}

/** A game's result as text. @param {ExplorerGame} g */
const resultOf = (g) => (g.winner === "white" ? "1-0" : g.winner === "black" ? "0-1" : "½-½");

/** @param {ExplorerPlayer} p */
const playerText = (p) => `${p.name ?? "?"}${typeof p.rating === "number" ? ` (${p.rating})` : ""}`;

/** The variant of an R22 position string (its first word, or 9x9). @param {string} position */
export const variantOf = (position) => {
  const first = position.trim().split(/\s+/)[0];
  return first === "7x7" || first === "hex" ? first : "9x9";
};

/**
 * Mount the explorer in `root` (an empty element of the page, `#explorer`): returns `refresh()`
 * (ask again now, e.g. after a game ended) and `destroy()`.
 * @param {HTMLElement} root @param {ExplorerOptions} options
 */
export function mountExplorer(root, options) {
  const names = options.names || (() => /** @type {"oblique"|"checker"} */ (settings.names));
  /** @type {Map<string, ExplorerAnswer>} */
  const answers = new Map();
  let source = /** @type {"archive"|"engine"} */ ("archive");
  let shown = "";
  let request = 0;

  root.classList.add("panel", "explorer");
  root.setAttribute("aria-labelledby", "explorer-title");
  const heading = el("h2", "", "Opening explorer");
  heading.id = "explorer-title";
  const switches = el("div", "row explorer-sources");
  switches.setAttribute("role", "group");
  switches.setAttribute("aria-label", "Whose games");
  /** @type {Record<string, HTMLButtonElement>} */
  const sourceButtons = {};
  for (const [key, label] of SOURCES) {
    const b = /** @type {HTMLButtonElement} */ (el("button", "small", label));
    b.type = "button";
    b.dataset.source = key;
    b.addEventListener("click", () => {
      source = key;
      shown = "";
      follow();
    });
    sourceButtons[key] = b;
    switches.append(b);
  }
  const body = el("div", "explorer-body");
  body.setAttribute("aria-live", "polite");
  root.replaceChildren(heading, switches, body);

  /** @param {string} text */
  const note = (text) => body.replaceChildren(el("p", "explorer-note", text));

  /** @param {ExplorerMove} m */
  const moveText = (m) => (names() === "checker" && m.checker ? m.checker : m.move);

  /** @param {{white: number, draws: number, black: number}} r */
  function bar(r) {
    const b = el("div", "explorer-bar");
    const total = r.white + r.draws + r.black;
    b.title = `White won ${count(r.white)}, ${count(r.draws)} drawn, Black won ${count(r.black)}`;
    b.setAttribute("aria-label", b.title);
    for (const part of resultBar(r)) {
      if (!part.share && total) continue;
      const span = el("span", `explorer-${part.side}`, part.label);
      span.style.width = `${part.share}%`;
      b.append(span);
    }
    return b;
  }

  /** @param {ExplorerAnswer} answer */
  function draw(answer) {
    const total = answer.white + answer.draws + answer.black;
    if (!answer.moves.length) {
      note(source === "engine" ? "No engine game reached this position." : "No game of the site reached this position yet.");
      return;
    }
    const table = el("table", "explorer-moves");
    const head = el("tr");
    for (const text of ["Move", "Games", "White · Draw · Black"]) head.append(el("th", "", text));
    const thead = el("thead");
    thead.append(head);
    const tbody = el("tbody");
    for (const m of answer.moves) {
      const games = m.white + m.draws + m.black;
      const row = el("tr", "explorer-move");
      row.dataset.move = m.move;
      row.tabIndex = 0;
      row.setAttribute("role", "button");
      const average = typeof m.averageRating === "number" ? `, average rating ${m.averageRating}` : "";
      row.title = `Play ${moveText(m)}: ${count(games)} games${average}`;
      const play = () => options.onMove(m.move);
      row.addEventListener("click", play);
      row.addEventListener("keydown", (e) => {
        if (e.key !== "Enter" && e.key !== " ") return;
        e.preventDefault();
        play();
      });
      const cell = el("td");
      cell.append(bar(m));
      row.append(el("td", "explorer-text", moveText(m)), el("td", "explorer-count", `${count(games)} (${percent(games, total)}%)`), cell);
      tbody.append(row);
    }
    const sum = el("tr", "explorer-total");
    const cell = el("td");
    cell.append(bar(answer));
    sum.append(el("td", "", "Σ"), el("td", "explorer-count", count(total)), cell);
    tbody.append(sum);
    table.append(thead, tbody);
    body.replaceChildren(table);
    for (const [title, list, cls] of /** @type {const} */ ([["Top games", answer.topGames, "top"], ["Recent games", answer.recentGames, "recent"]])) {
      if (!list.length) continue;
      body.append(el("h3", "explorer-games-title", title));
      const ul = el("ul", `explorer-games explorer-${cls}`);
      for (const g of list) {
        const a = /** @type {HTMLAnchorElement} */ (el("a", "explorer-game"));
        a.href = `/game/${encodeURIComponent(g.id)}`;
        a.append(
          el("span", "explorer-players", `${playerText(g.white)} – ${playerText(g.black)}`),
          el("span", "explorer-result", resultOf(g)),
          el("span", "explorer-when", `${names() === "checker" && g.checker ? g.checker : g.move} · ${g.month}`),
        );
        const li = el("li");
        li.append(a);
        ul.append(li);
      }
      body.append(ul);
    }
  }

  /** Ask for the position shown when it is not the one drawn (or `force`). @param {boolean} [force] */
  async function follow(force = false) {
    for (const [key, b] of Object.entries(sourceButtons)) b.setAttribute("aria-pressed", String(key === source));
    const position = options.position();
    if (!position) return;
    const variant = (options.variant && options.variant()) || variantOf(position);
    const key = `${source} ${variant} ${position}`;
    if (key === shown && !force) return;
    shown = key;
    const id = ++request;
    let answer = force ? undefined : answers.get(key);
    if (!answer) {
      root.classList.add("stale");
      try {
        const query = new URLSearchParams({variant, fen: position, source});
        answer = /** @type {ExplorerAnswer} */ (await api(`/api/explorer?${query}`));
      } catch (e) {
        if (id !== request) return;
        root.classList.remove("stale");
        // the panel is a help: the board works without it
        note(e instanceof ApiError && e.status === 429 ? "Too many requests: the explorer waits a moment." : "The explorer cannot answer now.");
        shown = "";
        return;
      }
      answers.set(key, answer);
      if (answers.size > KEPT) answers.delete(answers.keys().next().value ?? "");
      if (id !== request) return;
    }
    root.classList.remove("stale");
    draw(answer);
  }

  let lastNames = names();
  const timer = setInterval(() => {
    if (document.hidden) return;
    if (names() !== lastNames) {
      lastNames = names();
      shown = ""; // the moves written in the other naming
    }
    follow();
  }, FOLLOW_MS);
  follow();
  return {
    refresh: () => follow(true),
    destroy() {
      clearInterval(timer);
      request++;
      root.replaceChildren();
    },
  };
}
