// @ts-check
/**
 * page/tablebase.js: the endgame tables' panel of the analysis board, as lichess's tablebase
 * panel. In a position of the tables (docs/tablebase.md: every man on the board, two or three
 * columns) it shows the value with perfect play ("White wins in 47 plies", "Draw") and every
 * legal move's: the winning moves first (the shortest win first), then the drawing ones, then
 * the losing ones (the longest loss first); a click on a move plays it. The server probes the
 * tables (`/api/tablebase`); the panel knows no rule and no table.
 *
 * @typedef {import("../board/types.js").MoveInfo} MoveInfo
 * @typedef {{move: MoveInfo, wdl: number, dtm: number}} TableMove
 *   a move with its value for the player making it: wdl 1 win, 0 draw, -1 loss; dtm the
 *   plies from the position to the end (negative when he loses)
 * @typedef {{wdl: number, dtm: number, text: string, moves: TableMove[]}} TableData
 *   the position's value for the player to move, and its moves'
 * @typedef {{tablebase: TableData|null, missing: string|null}} TableAnswer
 *   the server's answer: the tables' data, or null; `missing` the command that builds the
 *   table the position needs when it is not built
 * @typedef {{kind: "win"|"draw"|"loss", title: string, moves: {move: MoveInfo, label: string}[]}} MoveGroup
 */
import {$, el} from "./dom.js";
import {plies, title} from "./format.js";

/** @param {number} wdl @returns {"win"|"draw"|"loss"} */
const kindOf = (wdl) => (wdl > 0 ? "win" : wdl < 0 ? "loss" : "draw");

/**
 * The position's value in words: "White wins in 47 plies", "Black wins in 1 ply", "Draw".
 * @param {TableData} tb @param {"white"|"black"} turn the player to move
 */
export function tableValue(tb, turn) {
  if (tb.wdl === 0) return "Draw";
  const winner = tb.wdl > 0 ? turn : turn === "white" ? "black" : "white";
  return `${title(winner)} wins in ${plies(Math.abs(tb.dtm))}`;
}

/**
 * The moves in the order a player reads them: the winning ones (the shortest win first), the
 * drawing ones, the losing ones (the longest loss first), each with its value for the player
 * making it ("win in 47 plies", "draw", "loss in 12 plies"); empty groups left out.
 * @param {TableData} tb
 * @returns {MoveGroup[]}
 */
export function moveGroups(tb) {
  const pick = (/** @type {"win"|"draw"|"loss"} */ kind) =>
    tb.moves
      .filter((m) => kindOf(m.wdl) === kind)
      .sort((a, b) => a.dtm - b.dtm) // wins: shortest first; losses (negative): longest first
      .map((m) => ({move: m.move, label: kind === "draw" ? "draw" : `${kind} in ${plies(Math.abs(m.dtm))}`}));
  /** @type {MoveGroup[]} */
  const groups = [
    {kind: "win", title: "Winning moves", moves: pick("win")},
    {kind: "draw", title: "Drawing moves", moves: pick("draw")},
    {kind: "loss", title: "Losing moves", moves: pick("loss")},
  ];
  return groups.filter((g) => g.moves.length);
}

/**
 * The panel (`#tablebase-panel` of the page). `play(move)` is a click on a move; `names()` the
 * naming the moves are written in.
 * @param {{play: (move: MoveInfo) => void, names: () => "oblique"|"checker"}} on
 */
export function TablebasePanel(on) {
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
      if (!answer || (!tb && !answer.missing)) return hide();
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
        for (const {move, label} of group.moves) {
          const b = /** @type {HTMLButtonElement} */ (el("button", "tb-move"));
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
    },
  };
}
