// @ts-check
/**
 * page/tree.js: the variation tree of a line of moves (pure, no DOM), as lichess's analysis
 * board keeps it. The root is the start position; every other node is a move, with the position
 * after it once asked for. A node's first child continues its line (the main line is the root's
 * first children all the way down); the others are variations. Each node may carry a comment
 * and a mark written by hand, the engine's review of its move, and the shapes drawn on it.
 *
 * @typedef {import("../board/types.js").MoveInfo} MoveInfo
 * @typedef {import("../board/types.js").Shape} Shape
 * @typedef {{mark: string, kind: string, comment: string}} Review
 * @typedef {{id: number, move: MoveInfo|null, parent: TreeNode|null, children: TreeNode[], ply: number,
 *   data: any, review: Review|null, comment: string, mark: string, shapes: Shape[]}} TreeNode
 * @typedef {{move: string, children: StudyNode[], comment?: string, mark?: string}} StudyNode
 */

let ids = 0;

/** @param {TreeNode|null} parent @param {MoveInfo|null} move @returns {TreeNode} */
export function newNode(parent, move) {
  return {id: ++ids, move, parent, children: [], ply: parent ? parent.ply + 1 : 0, data: null, review: null, comment: "", mark: "", shapes: []};
}

export class Tree {
  /** @param {string} start @param {"white"|"black"} firstTurn */
  constructor(start, firstTurn) {
    this.start = start;
    this.firstTurn = firstTurn;
    this.root = newNode(null, null);
    /** The line shown: the path from the root to a node, continued by first children. @type {TreeNode[]} */
    this.nodes = [this.root];
    /** The index in `nodes` of the node shown. */
    this.ply = 0;
  }

  /** A tree holding one line. @param {string} start @param {"white"|"black"} firstTurn @param {MoveInfo[]} moves */
  static line(start, firstTurn, moves) {
    const tree = new Tree(start, firstTurn);
    let n = tree.root;
    for (const move of moves) n = tree.child(n, move);
    tree.follow(tree.root);
    return tree;
  }

  get here() {
    return this.nodes[this.ply];
  }

  /** The moves of the line shown. */
  get moves() {
    return this.nodes.slice(1).map((n) => /** @type {MoveInfo} */ (n.move));
  }

  /** The last node of the line shown. */
  get end() {
    return this.nodes[this.nodes.length - 1];
  }

  /** Make the line through `node` the one shown, and show `node`. @param {TreeNode} node */
  follow(node) {
    const nodes = [];
    for (let n = /** @type {TreeNode|null} */ (node); n; n = n.parent) nodes.unshift(n);
    for (let n = node; n.children.length; n = n.children[0]) nodes.push(n.children[0]);
    this.nodes = nodes;
    this.ply = node.ply;
  }

  /** The child of `node` with this move (the one there, or a new one, after the others). @param {TreeNode} node @param {MoveInfo} move */
  child(node, move) {
    let c = node.children.find((n) => n.move && n.move.text === move.text);
    if (!c) {
      c = newNode(node, move);
      node.children.push(c);
    }
    return c;
  }

  /** The moves from the root to `node`, as texts. @param {TreeNode} node */
  static path(node) {
    const texts = [];
    for (let n = /** @type {TreeNode|null} */ (node); n && n.move; n = n.parent) texts.unshift(n.move.text);
    return texts;
  }

  /** The main line's nodes after the root. */
  mainLine() {
    const nodes = [];
    for (let n = this.root; n.children.length; n = n.children[0]) nodes.push(n.children[0]);
    return nodes;
  }

  /** Is `node` off the main line? @param {TreeNode} node */
  static inVariation(node) {
    for (let m = node; m.parent; m = m.parent) if (m.parent.children[0] !== m) return true;
    return false;
  }

  /** The other moves played where `node` was: the previous (-1) or next (+1). @param {TreeNode} node @param {number} step */
  static sibling(node, step) {
    const siblings = node.parent ? node.parent.children : [];
    if (siblings.length < 2) return null;
    const k = siblings.indexOf(node);
    return siblings[(k + step + siblings.length) % siblings.length];
  }

  /** Move the variation holding `node` one level up; false on the main line. @param {TreeNode} node */
  promote(node) {
    let n = node;
    while (n.parent && n.parent.children[0] === n) n = n.parent;
    if (!n.parent) return false;
    const siblings = n.parent.children;
    siblings.splice(siblings.indexOf(n), 1);
    siblings.unshift(n);
    this.follow(node);
    return true;
  }

  /** Remove `node` and every move after it; its parent is shown. @param {TreeNode} node */
  remove(node) {
    const parent = node.parent;
    if (!parent) return false;
    parent.children.splice(parent.children.indexOf(node), 1);
    this.follow(parent);
    return true;
  }

  /** The tree as a study stores it (docs/web.md): moves as texts, comments and marks. @param {TreeNode} [node] @returns {StudyNode[]} */
  toJson(node = this.root) {
    return node.children.map((c) => {
      /** @type {StudyNode} */
      const out = {move: /** @type {MoveInfo} */ (c.move).text, children: this.toJson(c)};
      if (c.comment) out.comment = c.comment;
      if (c.mark) out.mark = c.mark;
      return out;
    });
  }

  /** Grow the tree from a study's nodes (their moves as the server's move data). @param {TreeNode} parent @param {any[]} nodes */
  grow(parent, nodes) {
    for (const n of nodes) {
      const child = this.child(parent, n.move);
      child.comment = n.comment || "";
      child.mark = n.mark || "";
      this.grow(child, n.children || []);
    }
  }

  /** The main line's hand-written comments and marks by ply, as the record export takes them. */
  annotations() {
    /** @type {Record<string, string>} */
    const comments = {};
    /** @type {Record<string, string>} */
    const marks = {};
    if (this.root.comment) comments[0] = this.root.comment;
    for (const n of this.mainLine()) {
      if (n.comment) comments[n.ply] = n.comment;
      if (n.mark) marks[n.ply] = n.mark;
    }
    return {comments, marks};
  }
}
