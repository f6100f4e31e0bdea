// @ts-check
/**
 * board/tip.js: the tooltip over a square: why it cannot be used now (the server's reason), or a
 * piece's whole column, bottom to top. It belongs to one position: the board hides it whenever
 * the position or the legal moves change, so it never speaks of a position that is gone.
 *
 * @typedef {import("./types.js").Piece} Piece
 * @typedef {import("./geometry.js").Layout} Layout
 */
import {html} from "./dom.js";

/** @param {string} c */
const cap = (c) => c[0].toUpperCase() + c.slice(1);

/** @param {HTMLElement} element the board's element */
export function makeTip(element) {
  const tip = html("div", "eg-tip", element);
  tip.hidden = true;
  tip.setAttribute("role", "status");

  function hide() {
    tip.hidden = true;
    delete tip.dataset.square;
  }

  /**
   * @param {Layout} L @param {string} square @param {string} label the square's name as shown
   * @param {Piece|undefined} piece @param {string} reason why the square cannot be used ("" if none)
   */
  function show(L, square, label, piece, reason) {
    tip.replaceChildren();
    if (!piece && !reason) return hide();
    html("div", "eg-tip-title", tip).textContent = label;
    if (piece) {
      const other = piece.owner === "white" ? "black" : "white";
      html("div", "eg-tip-stack", tip).textContent =
        `${piece.caps} ${cap(piece.owner)}` + (piece.prisoners ? ` over ${piece.prisoners} ${cap(other)}` : "") + " (bottom to top)";
      const column = html("div", "eg-column", tip);
      column.setAttribute("aria-hidden", "true");
      for (let i = 0; i < piece.prisoners; i++) html("span", `man ${other}`, column);
      for (let i = 0; i < piece.caps; i++) html("span", `man ${piece.owner}`, column);
    }
    if (reason) html("div", "eg-tip-reason", tip).textContent = reason;
    const p = L.point(square);
    tip.style.left = `${(100 * p.x) / L.frame.width}%`;
    tip.style.top = `${(100 * (p.y + L.radius)) / L.frame.height}%`;
    tip.dataset.square = square;
    tip.classList.toggle("above", p.y >= L.frame.height * 0.6);
    tip.hidden = false;
  }

  return {show, hide, shown: () => (tip.hidden ? null : tip.dataset.square || null)};
}
