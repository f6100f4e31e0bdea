// @ts-check
/**
 * page/tree.js: the variation tree of a record (pure, no DOM), as lichess's analysis board keeps
 * it and as the server's records are (docs/records.md). The root is the start position; every
 * other node is a move, with the position after it once asked for. A node's first child
 * continues its line (the main line is the root's first children all the way down); the others
 * are variations. A node carries what a record's move carries: comments (before and after the
 * move), NAGs (the marks !, ?, !? ... are NAGs 1 to 6), the mover's clock, an evaluation, arrows
 * and circles; and the engine's review of its move. A node is named by its path of child
 * indices from the root, as the server names it (`GameNode.path()`): a study's edits use it.
 *
 * @typedef {import("../board/types.js").MoveInfo} MoveInfo
 * @typedef {import("../board/types.js").Shape} Shape
 * @typedef {{mark: string, kind: string, comment: string}} Review
 * @typedef {{kind: string, value: number, depth?: number}} Eval
 * @typedef {{id: number, move: MoveInfo|null, parent: TreeNode|null, children: TreeNode[], ply: number,
 *   data: any, review: Review|null, comment: string, startingComment: string, nags: number[],
 *   clock: number|null, eval: Eval|null, shapes: Shape[]}} TreeNode
 * @typedef {{move?: string, info?: MoveInfo, comment?: string, starting_comment?: string, nags?: number[],
 *   clock?: number, eval?: Eval, shapes?: Shape[], children: JsonNode[]}} JsonNode
 *   a node of the record's JSON form (`Game.to_json()`); `info` the move's data the server adds
 */

let ids = 0;

/** The marks a player writes, and the NAG each stands for (PGN's $1 to $6). */
export const NAG_OF_MARK = /** @type {Record<string, number>} */ ({"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6});
const MARK_OF_NAG = Object.fromEntries(Object.entries(NAG_OF_MARK).map(([m, n]) => [n, m]));

/** @param {TreeNode|null} parent @param {MoveInfo|null} move @returns {TreeNode} */
export function newNode(parent, move) {
  return {id: ++ids, move, parent, children: [], ply: parent ? parent.ply + 1 : 0, data: null, review: null,
    comment: "", startingComment: "", nags: [], clock: null, eval: null, shapes: []};
}

/** A node's mark (the first of its NAGs that is one), or "". @param {TreeNode} node */
export function markOf(node) {
  const nag = node.nags.find((n) => MARK_OF_NAG[n]);
  return nag ? MARK_OF_NAG[nag] : "";
}

/** The node's NAGs with `mark` as its only mark ("" : none), its other NAGs kept. @param {TreeNode} node @param {string} mark */
export function withMark(node, mark) {
  const others = node.nags.filter((n) => !MARK_OF_NAG[n]);
  return (mark ? [...others, NAG_OF_MARK[mark]] : others).sort((a, b) => a - b);
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

  /**
   * A tree from a record's JSON form with each move's data (the server's `tree`: `start`,
   * `turn`, the root's fields and its children).
   * @param {{start: string, turn: "white"|"black"} & JsonNode} data
   */
  static fromJson(data) {
    const tree = new Tree(data.start, data.turn);
    setFields(tree.root, data);
    /** @type {[TreeNode, JsonNode][]} */
    const stack = [[tree.root, data]];
    while (stack.length) {
      const [node, item] = /** @type {[TreeNode, JsonNode]} */ (stack.pop());
      for (const c of item.children || []) {
        const child = newNode(node, /** @type {MoveInfo} */ (c.info));
        setFields(child, c);
        node.children.push(child);
        stack.push([child, c]);
      }
    }
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

  /** The last node of the main line. */
  get mainEnd() {
    let n = this.root;
    while (n.children.length) n = n.children[0];
    return n;
  }

  /** Make the line through `node` the one shown, and show `node`. @param {TreeNode} node */
  follow(node) {
    const nodes = [];
    for (let n = /** @type {TreeNode|null} */ (node); n; n = n.parent) nodes.unshift(n);
    for (let n = node; n.children.length; n = n.children[0]) nodes.push(n.children[0]);
    this.nodes = nodes;
    this.ply = node.ply;
  }

  /** The child of `node` with this move, if it has one. @param {TreeNode} node @param {MoveInfo} move */
  static find(node, move) {
    return node.children.find((n) => n.move && n.move.text === move.text) || null;
  }

  /** The child of `node` with this move (the one there, or a new one, after the others). @param {TreeNode} node @param {MoveInfo} move */
  child(node, move) {
    let c = Tree.find(node, move);
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

  /** The child indices from the root to `node` (the server's node path). @param {TreeNode} node */
  static indices(node) {
    const out = [];
    for (let n = node; n.parent; n = n.parent) out.unshift(n.parent.children.indexOf(n));
    return out;
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

  /** The node a promotion of `node` moves: the first of its line, back from it, that is not its parent's main move; null on the main line. @param {TreeNode} node */
  static branch(node) {
    let n = node;
    while (n.parent && n.parent.children[0] === n) n = n.parent;
    return n.parent ? n : null;
  }

  /** Move the variation holding `node` one level up: it becomes its parent's main move; false on the main line. @param {TreeNode} node */
  promote(node) {
    const n = Tree.branch(node);
    if (!n || !n.parent) return false;
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

  /** The last clock of each side on the way to `node` (seconds; null where none is known). @param {TreeNode} node */
  clocksAt(node) {
    /** @type {{white: number|null, black: number|null}} */
    const out = {white: null, black: null};
    const second = this.firstTurn === "white" ? "black" : "white";
    for (let n = /** @type {TreeNode|null} */ (node); n && n.parent; n = n.parent) {
      const mover = n.ply % 2 === 1 ? this.firstTurn : second;
      if (n.clock !== null && out[mover] === null) out[mover] = n.clock;
    }
    return out;
  }

  /**
   * The tree in the record's JSON form (docs/records.md), with `headers`, for the server to
   * write as a record.
   * @param {Record<string, string>} headers
   */
  toJson(headers) {
    /** @type {any} */
    const out = {headers, ...fieldsOf(this.root), children: []};
    /** @type {[TreeNode, any][]} */
    const stack = [[this.root, out]];
    while (stack.length) {
      const [node, item] = /** @type {[TreeNode, any]} */ (stack.pop());
      for (const c of node.children) {
        const child = {move: /** @type {MoveInfo} */ (c.move).text, ...fieldsOf(c), children: []};
        item.children.push(child);
        stack.push([c, child]);
      }
    }
    return out;
  }
}

/** @param {TreeNode} node @param {JsonNode} item */
function setFields(node, item) {
  node.comment = item.comment || "";
  node.startingComment = item.starting_comment || "";
  node.nags = [...(item.nags || [])];
  node.clock = typeof item.clock === "number" ? item.clock : null;
  node.eval = item.eval || null;
  node.shapes = (item.shapes || []).map((s) => ({...s}));
}

/** A node's fields in the JSON form (the empty ones left out). @param {TreeNode} node */
export function fieldsOf(node) {
  /** @type {Record<string, unknown>} */
  const out = {};
  if (node.startingComment) out.starting_comment = node.startingComment;
  if (node.comment) out.comment = node.comment;
  if (node.nags.length) out.nags = [...node.nags];
  if (node.clock !== null) out.clock = node.clock;
  if (node.eval) out.eval = node.eval;
  const shapes = recordShapes(node.shapes);
  if (shapes.length) out.shapes = shapes;
  return out;
}

const RECORD_BRUSHES = new Set(["green", "red", "yellow", "blue"]);

/** The shapes a record keeps: arrows and circles of its four colours. @param {Shape[]} shapes */
export function recordShapes(shapes) {
  return shapes
    .filter((s) => RECORD_BRUSHES.has(s.brush) && !s.path)
    .map((s) => (s.dest ? {orig: s.orig, dest: s.dest, brush: s.brush} : {orig: s.orig, brush: s.brush}));
}
