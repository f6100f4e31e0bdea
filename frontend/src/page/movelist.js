// @ts-check
/**
 * page/movelist.js: the move list: the main line in two columns, each of its variations on a
 * line of its own under the move it replaces, variations of variations in parentheses, marks
 * after the moves and comments under them. The current move is kept in view by scrolling the
 * list itself, never the page (on a phone the page must not jump at every move).
 *
 * @typedef {import("./tree.js").TreeNode} TreeNode
 * @typedef {import("./tree.js").Tree} Tree
 * @typedef {import("../board/types.js").MoveInfo} MoveInfo
 */
import {el} from "./dom.js";
import {moveNumber, whiteMoves} from "./format.js";
import {markOf} from "./tree.js";

/**
 * @param {HTMLElement} box the list's element
 * @param {{names: () => "oblique"|"checker", go: (node: TreeNode) => void}} options
 */
export function MoveList(box, options) {
  /** @param {MoveInfo} move */
  const text = (move) => (options.names() === "checker" ? move.checker : move.text);

  /** @param {Tree} tree @param {TreeNode} node @param {boolean} main */
  function moveButton(tree, node, main) {
    const b = /** @type {HTMLButtonElement} */ (el("button", main ? "main" : "var"));
    b.type = "button";
    b.dataset.ply = String(node.ply);
    b.dataset.node = String(node.id);
    b.setAttribute("role", "listitem");
    b.textContent = text(/** @type {MoveInfo} */ (node.move));
    const own = markOf(node);
    const mark = own || (node.review ? node.review.mark : "");
    if (mark) b.append(el("span", `mark${own ? " own" : ""}`, mark));
    if (node.review) {
      b.title = node.review.comment;
      if (node.review.kind) b.classList.add(node.review.kind);
    }
    if (node === tree.here) {
      b.classList.add("current");
      b.setAttribute("aria-current", "step");
    }
    b.addEventListener("click", () => options.go(node));
    return b;
  }

  /** @param {Tree} tree @param {TreeNode} node */
  const number = (tree, node) => el("span", "no", moveNumber(node.ply, tree.firstTurn));

  /** A variation inline, from its first move. @param {Tree} tree @param {HTMLElement} into @param {TreeNode} node */
  function variation(tree, into, node) {
    if (node.startingComment) into.append(el("span", "comment", node.startingComment), " ");
    into.append(number(tree, node), " ", moveButton(tree, node, false));
    if (node.comment) into.append(" ", el("span", "comment", node.comment));
    let n = node;
    let numbered = !!node.comment;
    while (n.children.length) {
      const [first, ...others] = n.children;
      into.append(" ");
      if (numbered || whiteMoves(first.ply, tree.firstTurn)) into.append(number(tree, first), " ");
      into.append(moveButton(tree, first, false));
      if (first.comment) into.append(" ", el("span", "comment", first.comment));
      for (const other of others) {
        const inner = el("span", "paren");
        variation(tree, inner, other);
        into.append(" ", inner);
      }
      numbered = others.length > 0 || !!first.comment;
      n = first;
    }
  }

  /** @param {Tree} tree */
  function draw(tree) {
    box.replaceChildren();
    if (tree.root.comment) box.append(el("div", "comment full", tree.root.comment));
    let n = tree.root;
    let numbered = true;
    while (n.children.length) {
      const [first, ...others] = n.children;
      const label = moveNumber(first.ply, tree.firstTurn).replace("...", ".");
      const white = whiteMoves(first.ply, tree.firstTurn);
      if (white) box.append(el("span", "no", label));
      else if (numbered) box.append(el("span", "no", label), el("span", "skip", "…"));
      box.append(moveButton(tree, first, true));
      const breaks = others.length > 0 || !!first.comment;
      if (breaks && white) box.append(el("span", "skip", "…"));
      if (first.comment) box.append(el("div", "comment full", first.comment));
      if (others.length) {
        const block = el("div", "variation");
        for (const other of others) {
          const row = el("div", "vline");
          variation(tree, row, other);
          block.append(row);
        }
        box.append(block);
      }
      numbered = breaks;
      n = first;
    }
    const current = /** @type {HTMLElement|null} */ (box.querySelector(".current"));
    if (current) keepInView(box, current);
    else box.scrollTop = 0;
  }

  return {draw};
}

/** Scroll `box` (only it) so that `item` is visible. @param {HTMLElement} box @param {HTMLElement} item */
export function keepInView(box, item) {
  const b = box.getBoundingClientRect();
  const i = item.getBoundingClientRect();
  if (i.top < b.top) box.scrollTop -= b.top - i.top;
  else if (i.bottom > b.bottom) box.scrollTop += i.bottom - b.bottom;
}
