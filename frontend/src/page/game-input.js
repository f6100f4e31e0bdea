// @ts-check
/**
 * page/game-input.js: the game page's other ways to move, beside the board: the move text box
 * (keyboard players and screen readers: a move as the move list writes it, in either naming,
 * or its first and last squares), and the confirmation a move may need before it is sent
 * (settings.js `confirm`: correspondence games by default, as lichess).
 *
 * @typedef {import("../board/types.js").MoveInfo} MoveInfo
 */

/** A typed move made plain: no spaces, lower case, `:` and `-` between squares as `x`. @param {string} text */
const plain = (text) => text.trim().toLowerCase().replace(/\s+/g, "").replace(/[:×]/g, "x");

/**
 * The legal move a typed text names, or null: its text in either naming, or (for a move of
 * several squares) its first and last squares when only one legal move has them.
 * @param {MoveInfo[]} moves @param {string} typed
 * @returns {MoveInfo|null}
 */
export function matchMove(moves, typed) {
  const want = plain(typed);
  if (!want) return null;
  const exact = moves.find((m) => plain(m.text) === want || plain(m.checker) === want);
  if (exact) return exact;
  const ends = want.split(/[x-]/).filter(Boolean);
  if (ends.length !== 2) return null;
  const found = moves.filter((m) => m.path.length > 1 && m.path[0] === ends[0] && m.path[m.path.length - 1] === ends[1]);
  return found.length === 1 ? found[0] : null;
}

/**
 * Wire the move box: on Enter the move is found among `moves()` and given to `play`, else
 * `refuse` says why; `/` anywhere on the page (outside a field) goes to the box.
 * @param {{moves: () => MoveInfo[]|null, play: (move: MoveInfo) => void, refuse: (text: string) => void}} how
 */
export function wireMoveBox(how) {
  const form = /** @type {HTMLFormElement|null} */ (document.getElementById("move-form"));
  const field = /** @type {HTMLInputElement|null} */ (document.getElementById("move-text"));
  if (!form || !field) return;
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const moves = how.moves();
    const typed = field.value.trim();
    if (!typed) return;
    if (!moves) return how.refuse("not your turn: the box plays your moves");
    const move = matchMove(moves, typed);
    if (!move) {
      const some = moves.slice(0, 6).map((m) => m.text).join(", ");
      return how.refuse(`${typed} is no legal move here (some are: ${some}${moves.length > 6 ? " …" : ""})`);
    }
    field.value = "";
    how.play(move);
  });
  document.addEventListener("keydown", (e) => {
    const target = /** @type {HTMLElement} */ (e.target);
    if (e.key !== "/" || target.closest("input, textarea, select") || form.hidden) return;
    e.preventDefault();
    field.focus();
  });
}
