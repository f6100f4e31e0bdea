// @ts-check
/**
 * app.js: the analysis and replay page of `emergo serve`. It keeps a line (a start position and
 * moves), asks the server for every position it shows (board, legal moves, reasons), and draws
 * it with board.js. It holds no rules: every move is checked and played by the server.
 */
import {Board} from "./board.js";

/**
 * @typedef {import("./board.js").MoveInfo} MoveInfo
 * @typedef {import("./board.js").SquareInfo} SquareInfo
 * @typedef {import("./board.js").Piece} Piece
 * @typedef {import("./board.js").Reason} Reason
 * @typedef {{variant: string, size: number, men: number, centre: string, shape: string, squares: SquareInfo[]}} Geometry
 * @typedef {{result: string, termination: string, reason: string, winner: string|null}} Outcome
 * @typedef {{
 *   position: string, variant: string, turn: "white"|"black",
 *   hands: {white: number, black: number}, entrySize: number, shadow: boolean, attacked: boolean,
 *   phase: "enter"|"step"|"capture"|"over", required: string,
 *   pieces: Record<string, Piece>, moves: MoveInfo[], forbidden: Record<string, Reason>,
 *   lastMove: MoveInfo|null, outcome: Outcome|null, ply: number,
 *   geometry?: Geometry, move?: MoveInfo,
 * }} PositionData
 * @typedef {{multipv: number, depth: number, score: string, centimen: number, pv: MoveInfo[],
 *   nodes: number, time: number, nps: number}} Line
 * @typedef {{view: "diamond"|"checker", names: "oblique"|"checker", theme: "light"|"dark",
 *   coordinates: boolean, animation: boolean, flipped: boolean}} Settings
 */

/** @param {string} id @returns {HTMLElement} */
function $(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`no element #${id}`);
  return el;
}

/** @param {string} id */
const input = (id) => /** @type {HTMLInputElement} */ ($(id));

class ApiError extends Error {
  /** @param {string} message @param {number} status @param {Record<string, unknown>} body */
  constructor(message, status, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/**
 * A JSON request to the server.
 * @param {string} path
 * @param {unknown} [body]
 * @param {string} [method]
 * @returns {Promise<any>}
 */
async function api(path, body, method) {
  /** @type {RequestInit} */
  const init = {method: method || (body === undefined ? "GET" : "POST"), headers: {}};
  if (body !== undefined) {
    init.headers = {"content-type": "application/json"};
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data;
  try {
    data = await response.json();
  } catch {
    data = {error: `the server answered ${response.status}`};
  }
  if (!response.ok) {
    const d = /** @type {Record<string, unknown>} */ (data);
    throw new ApiError(String(d.error || response.statusText), response.status, d);
  }
  return data;
}

// --- state ------------------------------------------------------------------------------------

/** @type {Settings} */
const settings = {view: "diamond", names: "oblique", theme: "light", coordinates: true, animation: true, flipped: false};
/**
 * @typedef {{mark: string, kind: string, comment: string}} Mark
 * @typedef {{id: number, move: MoveInfo|null, parent: TreeNode|null, children: TreeNode[], ply: number,
 *   data: PositionData|null, mark: Mark|null}} TreeNode
 */
/**
 * The variation tree of the page: the root is the start position, every other node a move with
 * the position after it (asked for once, then kept). A node's first child continues its line
 * (the main line is the root's first children all the way down); the others are variations.
 */
let nodeIds = 0;
/** @param {TreeNode|null} parent @param {MoveInfo|null} move @returns {TreeNode} */
function newNode(parent, move) {
  return {id: ++nodeIds, move, parent, children: [], ply: parent ? parent.ply + 1 : 0, data: null, mark: null};
}
let root = newNode(null, null);
/**
 * The line on the page: where it starts, and the path through the tree to the node shown
 * (`nodes[ply]`) continued by first children to its end; `moves` are the moves of that path.
 * @type {{start: string, moves: MoveInfo[], nodes: TreeNode[], ply: number, firstTurn: "white"|"black"}}
 */
const line = {start: "w 12/12", moves: [], nodes: [root], ply: 0, firstTurn: "white"};

/** The line through `node`: its path from the root, then its first children. @param {TreeNode} node */
function follow(node) {
  const nodes = [];
  for (let n = /** @type {TreeNode|null} */ (node); n; n = n.parent) nodes.unshift(n);
  for (let n = node; n.children.length; n = n.children[0]) nodes.push(n.children[0]);
  line.nodes = nodes;
  line.moves = nodes.slice(1).map((n) => /** @type {MoveInfo} */ (n.move));
  line.ply = node.ply;
}

/** A new tree holding one line. @param {string} start @param {"white"|"black"} turn @param {MoveInfo[]} moves */
function setLine(start, turn, moves) {
  forgetStudy();
  root = newNode(null, null);
  let n = root;
  for (const move of moves) {
    const child = newNode(n, move);
    n.children.push(child);
    n = child;
  }
  line.start = start;
  line.firstTurn = turn;
  follow(root);
}

// --- the study: the tree kept on the server (/api/studies), saved as it is edited -----------------

/** The study the tree is saved as (`?study=` in the URL); null until the first edit. @type {number|null} */
let studyId = null;
let studyEpoch = 0;
let saveTimer = 0;
let saving = false;
let saveAgain = false;

/** @param {string} state pending, saving, saved or error (the tests wait for "saved") */
function studyState(state) {
  document.documentElement.dataset.study = state;
}

/** The tree as the server takes it: the root's children, move texts only. @param {TreeNode} node @returns {any[]} */
function treeJson(node) {
  return node.children.map((c) => ({move: /** @type {MoveInfo} */ (c.move).text, children: treeJson(c)}));
}

/** A new tree: the study on the page is no longer the one shown (its saved copy stays). */
function forgetStudy() {
  studyEpoch++;
  clearTimeout(saveTimer);
  if (studyId === null) return;
  studyId = null;
  const url = new URL(location.href);
  if (url.searchParams.has("study")) {
    url.searchParams.delete("study");
    history.replaceState(null, "", url);
  }
}

/** The tree was edited: save it soon (one save for a burst of edits). */
function treeChanged() {
  if (game || (studyId === null && !root.children.length)) return;
  studyState("pending");
  clearTimeout(saveTimer);
  saveTimer = setTimeout(saveStudy, 400);
}

async function saveStudy() {
  if (saving) {
    saveAgain = true;
    return;
  }
  saving = true;
  const epoch = studyEpoch;
  studyState("saving");
  try {
    const body = {start: line.start, tree: treeJson(root)};
    if (studyId === null) {
      const data = await api("/api/studies", body);
      if (epoch === studyEpoch) {
        studyId = data.id;
        const url = new URL(location.href);
        url.search = `?study=${data.id}`;
        history.replaceState(null, "", url);
        setTimeout(refreshGames, 0);
      }
    } else {
      await api(`/api/studies/${studyId}`, body, "PUT");
    }
    studyState("saved");
  } catch (e) {
    studyState("error");
    say(`the study is not saved: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    saving = false;
    if (saveAgain) {
      saveAgain = false;
      if (epoch === studyEpoch) saveStudy();
    }
  }
}

/** Open a saved study: its start, its tree, the end of its main line. @param {number} id */
async function openStudy(id) {
  const data = await api(`/api/studies/${id}`);
  await load(data.start, [], 0);
  /** @param {TreeNode} parent @param {any[]} nodes */
  const grow = (parent, nodes) => {
    for (const n of nodes) {
      const child = newNode(parent, n.move);
      parent.children.push(child);
      grow(child, n.children);
    }
  };
  grow(root, data.tree);
  studyId = id;
  const url = new URL(location.href);
  url.search = `?study=${id}`;
  history.replaceState(null, "", url);
  follow(root);
  await goto(line.moves.length);
  studyState("saved");
}

/** The moves from the root to `node`, as texts. @param {TreeNode} node */
function pathTexts(node) {
  const texts = [];
  for (let n = /** @type {TreeNode|null} */ (node); n && n.move; n = n.parent) texts.unshift(n.move.text);
  return texts;
}

/** The main line's nodes after the root. */
function mainLine() {
  const nodes = [];
  for (let n = root; n.children.length; n = n.children[0]) nodes.push(n.children[0]);
  return nodes;
}

/** @type {PositionData|null} */
let current = null;
/** @type {Geometry|null} */
let geometry = null;
let requestId = 0;

const board = Board($("board"), {
  events: {
    move: (move) => (game ? gameMove(move.text, "oblique") : play(move.text, "oblique")),
    refused: (_square, reason) => say(reason),
    square: (square) => editSquare(square),
    select: () => say(""),
  },
});

/** @param {string} text @param {boolean} [error] */
function say(text, error = true) {
  const el = $("message");
  el.textContent = text;
  el.classList.toggle("info", !error);
}

/** @param {MoveInfo} move */
const moveText = (move) => (settings.names === "checker" ? move.checker : move.text);
/** @param {string} color */
const title = (color) => color[0].toUpperCase() + color.slice(1);

// --- loading and showing positions --------------------------------------------------------------

/** @param {TreeNode} node @returns {Promise<PositionData>} */
async function positionOf(node) {
  if (node.data) return node.data;
  const data = /** @type {PositionData} */ (await api("/api/position", {pos: line.start, moves: pathTexts(node)}));
  node.data = data;
  return data;
}

/** Show the move `ply` of the line. @param {number} ply @param {boolean} [animate] */
async function goto(ply, animate = false) {
  ply = Math.max(0, Math.min(line.moves.length, ply));
  await gotoNode(line.nodes[ply], animate);
}

/**
 * Show a node of the tree; the line becomes the one through it.
 * @param {TreeNode} node @param {boolean} [animate]
 */
async function gotoNode(node, animate = false) {
  const id = ++requestId;
  try {
    const data = await positionOf(node);
    if (id !== requestId) return;
    if (!line.nodes.includes(node) || line.nodes[node.ply] !== node) follow(node);
    line.ply = node.ply;
    show(data, animate);
  } catch (e) {
    say(e instanceof Error ? e.message : String(e));
  }
}

/** The node shown. */
const here = () => line.nodes[line.ply];

/**
 * Start a new line.
 * @param {string} start
 * @param {string[]} [moves]
 * @param {number} [ply]
 * @param {any} [answer] the server's answer for this line, when it was asked for already
 */
async function load(start, moves = [], ply, answer) {
  const data = /** @type {PositionData & {geometry: Geometry, line: {start: string, turn: "white"|"black", moves: MoveInfo[]}}} */ (
    answer || (await api("/api/position", {pos: start, moves}))
  );
  setLine(data.line.start, data.line.turn, data.line.moves);
  line.nodes[line.nodes.length - 1].data = data;
  geometry = data.geometry;
  board.set({squares: geometry.squares, size: geometry.size, shape: geometry.shape});
  applyShape();
  input("pos-text").value = line.start;
  stopAnalysis();
  await goto(ply === undefined ? line.moves.length : ply);
}

/**
 * Play a move text (any notation, parsed by the server) at the node shown: the node's child
 * with that move if it has one, else a new child (a new variation when it has children).
 * @param {string} text
 * @param {"oblique"|"checker"} names
 */
async function play(text, names) {
  const node = here();
  try {
    const data = /** @type {PositionData & {move: MoveInfo}} */ (
      await api("/api/move", {pos: line.start, moves: pathTexts(node), text, names})
    );
    if (here() !== node) return;
    let child = node.children.find((c) => c.move && c.move.text === data.move.text);
    if (!child) {
      child = newNode(node, data.move);
      node.children.push(child);
    }
    child.data = data;
    follow(child);
    requestId++;
    say("");
    show(data, true);
    treeChanged();
    if (analysing) startAnalysis();
    return true;
  } catch (e) {
    say(e instanceof Error ? e.message : String(e));
    board.set({});
    return false;
  }
}

/**
 * Add a line of moves (an engine's line) to the tree after `node`, through the children that
 * hold them already, and show its last node.
 * @param {TreeNode} node @param {MoveInfo[]} moves
 */
async function addLine(node, moves) {
  let n = node;
  for (const move of moves) {
    let child = n.children.find((c) => c.move && c.move.text === move.text);
    if (!child) {
      child = newNode(n, move);
      n.children.push(child);
    }
    n = child;
  }
  follow(n);
  treeChanged();
  await gotoNode(n, true);
}

/** Go to the previous (-1) or next (+1) sibling of the node shown: another move there. @param {number} step */
function switchVariation(step) {
  const node = here();
  const siblings = node.parent ? node.parent.children : [];
  if (siblings.length < 2) return say("no other move here", false);
  const k = siblings.indexOf(node);
  gotoNode(siblings[(k + step + siblings.length) % siblings.length]);
}

/** Move the variation holding the node shown one step up: it becomes the line it branched from. */
function promoteVariation() {
  let n = here();
  while (n.parent && n.parent.children[0] === n) n = n.parent;
  if (!n.parent) return say("this is the main line", false);
  const siblings = n.parent.children;
  siblings.splice(siblings.indexOf(n), 1);
  siblings.unshift(n);
  say("");
  follow(here());
  drawMoves();
  treeChanged();
}

/** Delete the node shown and every move after it. */
function deleteVariation() {
  const node = here();
  if (!node.parent) return say("nothing to delete at the start", false);
  if (game) return;
  const siblings = node.parent.children;
  siblings.splice(siblings.indexOf(node), 1);
  say("");
  const parent = node.parent;
  follow(parent);
  treeChanged();
  gotoNode(parent);
}

/** @param {PositionData} data @param {boolean} animate */
function show(data, animate) {
  current = data;
  const mine = !game || (line.ply === line.moves.length && !game.thinking && game.humans.includes(data.turn));
  board.set({
    pieces: data.pieces,
    lastMove: data.lastMove,
    movable: data.phase === "over" || !mine ? null : {moves: data.moves, forbidden: data.forbidden, required: data.required},
    animate,
  });
  const [top, bottom] = settings.flipped ? ["white", "black"] : ["black", "white"];
  player($("player-top"), top, data);
  player($("player-bottom"), bottom, data);
  $("status").textContent = status(data);
  $("result").textContent = data.outcome ? `${data.outcome.result} (${data.outcome.reason})` : "";
  drawMoves();
  if (!analysing) clearLines();
}

/** @param {HTMLElement} el @param {string} color @param {PositionData} data */
function player(el, color, data) {
  const hand = data.hands[/** @type {"white"|"black"} */ (color)];
  const toMove = data.turn === color && !data.outcome;
  el.className = `player ${color}${toMove ? " to-move" : ""}`;
  el.dataset.hand = String(hand);
  el.replaceChildren();
  const disc = document.createElement("span");
  disc.className = `hand ${color}`;
  disc.textContent = String(hand);
  disc.title = `${title(color)}: ${hand} in hand`;
  const name = document.createElement("span");
  name.className = "name";
  name.textContent = `${title(color)}${toMove ? " to move" : ""}`;
  const note = document.createElement("span");
  note.className = "note";
  note.textContent = `${hand} in hand`;
  if (toMove && data.shadow) note.textContent += `: enters all ${data.entrySize} as one shadowpiece (R14)`;
  el.append(disc, name, note);
  if (game && game.clock) {
    const clock = document.createElement("span");
    clock.className = "clock";
    clock.dataset.color = color;
    el.append(clock);
    drawClocks();
  }
}

// --- clocks (the server's; the page counts down between its updates) ---------------------------

/** Seconds as the clock shows them: `4:05`, `0:09.3` under 10 s. @param {number} seconds */
function clockText(seconds) {
  const t = Math.max(0, seconds);
  if (t < 10) return `0:0${t.toFixed(1)}`;
  const whole = Math.ceil(t);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const sec = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** Seconds left on `color`'s clock now: the server's figure less the time since, if it runs. @param {string} color */
function clockLeft(color) {
  const c = game && game.clock;
  if (!c) return 0;
  const left = c[/** @type {"white"|"black"} */ (color)];
  return c.running === color ? left - (performance.now() - c.at) / 1000 : left;
}

function drawClocks() {
  const c = game && game.clock;
  if (!c) return;
  for (const el of document.querySelectorAll(".player .clock")) {
    const color = /** @type {HTMLElement} */ (el).dataset.color || "white";
    const left = clockLeft(color);
    el.textContent = clockText(left);
    el.classList.toggle("running", c.running === color);
    el.classList.toggle("low", left < Math.min(10, c.base * 0.2) && !game?.over);
    el.classList.toggle("flag", left <= 0);
    /** @type {HTMLElement} */ (el).title = `${title(color)}'s clock (${c.control})`;
  }
}

setInterval(drawClocks, 100);

/** @param {PositionData} data */
function status(data) {
  if (data.outcome) return `Game over: ${data.outcome.result}, ${data.outcome.reason}`;
  const who = title(data.turn);
  if (data.phase === "capture") {
    const best = data.moves[0] ? data.moves[0].captured : 0;
    const tied = data.moves.length > 1 ? `; ${data.moves.length} routes tie: choose one landing by landing` : "";
    return `${who} must capture ${best} ${best === 1 ? "man" : "men"} (R8, R11): only the capturing pieces can be chosen${tied}`;
  }
  if (data.phase === "enter") {
    const where = `${data.moves.length} squares may be entered`;
    const attacked = data.attacked ? " (under attack: any vacant square, R15)" : "";
    return `${who} to enter${data.shadow ? ` a shadowpiece of ${data.entrySize}` : " a man"}: ${where}${attacked}`;
  }
  return `${who} to step a piece (R17)`;
}

/** The move number of a node, as a record writes it: `3.` or `3...`. @param {TreeNode} node */
function moveNumber(node) {
  const slot = node.ply - 1 + (line.firstTurn === "white" ? 0 : 1);
  return `${Math.floor(slot / 2) + 1}${slot % 2 ? "..." : "."}`;
}

/** Does White play the move of `node`? @param {TreeNode} node */
const whiteMove = (node) => (node.ply - 1 + (line.firstTurn === "white" ? 0 : 1)) % 2 === 0;

/** A move of the tree as a button that goes there. @param {TreeNode} node @param {boolean} main */
function moveButton(node, main) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = moveText(/** @type {MoveInfo} */ (node.move));
  b.dataset.ply = String(node.ply);
  b.dataset.node = String(node.id);
  b.className = main ? "main" : "var";
  b.setAttribute("role", "listitem");
  if (node === here()) {
    b.classList.add("current");
    b.setAttribute("aria-current", "step");
  }
  if (node.mark) {
    b.textContent += node.mark.mark;
    b.title = node.mark.comment;
    if (node.mark.kind) b.classList.add(node.mark.kind);
  }
  b.addEventListener("click", () => gotoNode(node));
  return b;
}

/** @param {string} text @param {string} cls */
function span(text, cls) {
  const el = document.createElement("span");
  el.className = cls;
  el.textContent = text;
  return el;
}

/**
 * A variation inline, from its first move: its moves, and the variations inside it in
 * parentheses (as lichess writes them).
 * @param {HTMLElement} el @param {TreeNode} node
 */
function drawVariation(el, node) {
  el.append(span(moveNumber(node), "no"), " ", moveButton(node, false));
  let n = node;
  let number = false;
  while (n.children.length) {
    const [first, ...others] = n.children;
    el.append(" ");
    if (number || whiteMove(first)) el.append(span(moveNumber(first), "no"), " ");
    el.append(moveButton(first, false));
    for (const other of others) {
      const inner = span("", "paren");
      drawVariation(inner, other);
      el.append(" ", inner);
    }
    number = others.length > 0;
    n = first;
  }
}

/**
 * The move list: the main line in two columns, each of its variations on a line of its own
 * under the move it replaces, and variations of variations in parentheses.
 */
function drawMoves() {
  const box = $("moves");
  box.replaceChildren();
  let n = root;
  let number = true;
  while (n.children.length) {
    const [first, ...others] = n.children;
    if (whiteMove(first)) box.append(span(moveNumber(first).replace("...", "."), "no"));
    else if (number) box.append(span(moveNumber(first).replace("...", "."), "no"), span("…", "skip"));
    box.append(moveButton(first, true));
    if (others.length) {
      if (whiteMove(first)) box.append(span("…", "skip"));
      const block = document.createElement("div");
      block.className = "variation";
      for (const other of others) {
        const row = document.createElement("div");
        row.className = "vline";
        drawVariation(row, other);
        block.append(row);
      }
      box.append(block);
    }
    number = others.length > 0;
    n = first;
  }
  const tools = !game && here().parent !== null && here().parent?.children.length !== 1;
  /** @type {HTMLButtonElement} */ ($("var-prev")).disabled = !tools;
  /** @type {HTMLButtonElement} */ ($("var-next")).disabled = !tools;
  let inVariation = false;
  for (let m = here(); m.parent; m = m.parent) if (m.parent.children[0] !== m) inVariation = true;
  /** @type {HTMLButtonElement} */ ($("promote")).disabled = !!game || !inVariation;
  /** @type {HTMLButtonElement} */ ($("delete-var")).disabled = !!game || !here().parent;
  const currentButton = box.querySelector(".current");
  if (currentButton) currentButton.scrollIntoView({block: "nearest"});
}

// --- engine analysis over a WebSocket ----------------------------------------------------------------

/** @type {WebSocket|null} */
let socket = null;
let analysing = false;
/** @type {Map<number, Line>} */
const lines = new Map();
/** The node the running (or last) analysis is of: its lines are added to the tree there. */
let analysisNode = root;
/** The id of the latest search asked for: reports of older searches are dropped. */
let analysisId = 0;

function connect() {
  if (socket && socket.readyState <= WebSocket.OPEN) return Promise.resolve(socket);
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/analyse`);
  socket = ws;
  ws.addEventListener("message", (e) => {
    const msg = JSON.parse(String(e.data));
    if ((msg.type === "info" || msg.type === "done") && msg.id !== analysisId) return;
    if (msg.type === "info") {
      lines.set(msg.line.multipv, msg.line);
      drawLines();
    } else if (msg.type === "done") {
      for (const l of msg.lines) lines.set(l.multipv, l);
      drawLines();
      setAnalysing(false);
    } else if (msg.type === "error") {
      say(msg.error);
      setAnalysing(false);
    }
  });
  ws.addEventListener("close", () => {
    socket = null;
    setAnalysing(false);
  });
  return new Promise((resolve, reject) => {
    ws.addEventListener("open", () => resolve(ws), {once: true});
    ws.addEventListener("error", () => reject(new Error("cannot reach the analysis service")), {once: true});
  });
}

/** @param {boolean} on */
function setAnalysing(on) {
  analysing = on;
  $("analyse").textContent = on ? "Stop" : "Analyse";
  $("analyse").setAttribute("aria-pressed", String(on));
}

async function startAnalysis() {
  if (!current || current.outcome) return;
  const ws = await connect();
  lines.clear();
  analysisNode = here();
  drawLines();
  const t = /** @type {HTMLSelectElement} */ ($("atime")).value;
  const multipv = Number(/** @type {HTMLSelectElement} */ ($("multipv")).value);
  /** @type {Record<string, unknown>} */
  const msg = {type: "start", id: ++analysisId, pos: line.start, moves: line.moves.slice(0, line.ply).map((m) => m.text), multipv};
  if (t === "inf") msg.infinite = true;
  else msg.time = Number(t);
  ws.send(JSON.stringify(msg));
  setAnalysing(true);
}

function stopAnalysis() {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({type: "stop"}));
  setAnalysing(false);
}

function clearLines() {
  lines.clear();
  drawLines();
}

function drawLines() {
  const list = $("lines");
  list.replaceChildren();
  const sorted = [...lines.values()].sort((a, b) => a.multipv - b.multipv);
  const bar = $("evalbar");
  if (!sorted.length) {
    $("eval").textContent = "";
    bar.hidden = true;
    return;
  }
  const best = sorted[0];
  $("eval").textContent = `${best.score} (White's view), depth ${best.depth}, ${best.nodes} nodes, ${best.time.toFixed(1)} s`;
  bar.hidden = false;
  const share = 50 + 50 * Math.tanh(best.centimen / 400);
  $("evalfill").style.height = `${settings.flipped ? 100 - share : share}%`;
  for (const l of sorted) {
    const li = document.createElement("li");
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = `${l.score}/${l.depth}`;
    li.appendChild(score);
    l.pv.forEach((move, k) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = moveText(move);
      b.title = "Play the line up to here";
      b.addEventListener("click", () => playLine(l.pv.slice(0, k + 1)));
      li.appendChild(b);
    });
    list.appendChild(li);
  }
}

/** Put the moves of an analysis line on the board after the position analysed. @param {MoveInfo[]} moves */
async function playLine(moves) {
  stopAnalysis();
  await addLine(analysisNode, moves);
}

// --- records -----------------------------------------------------------------------------------

/** @param {string} text */
async function importRecord(text) {
  try {
    const data = await api("/api/record/import", {text, names: settings.names});
    const game = data.games[0];
    await load(game.start, game.moves.map((/** @type {MoveInfo} */ m) => m.text));
    say(game.errors.length ? `imported up to an error: ${game.errors[0]}` : `imported ${game.moves.length} moves`, game.errors.length > 0);
  } catch (e) {
    say(e instanceof Error ? e.message : String(e));
  }
}

async function exportRecord() {
  try {
    const moves = mainLine().map((n) => /** @type {MoveInfo} */ (n.move).text);
    const data = await api("/api/record/export", {pos: line.start, moves, names: settings.names});
    const area = /** @type {HTMLTextAreaElement} */ ($("record"));
    area.value = data.text;
    const link = /** @type {HTMLAnchorElement} */ ($("download"));
    if (link.href) URL.revokeObjectURL(link.href);
    link.href = URL.createObjectURL(new Blob([data.text], {type: "text/plain"}));
    link.hidden = false;
  } catch (e) {
    say(e instanceof Error ? e.message : String(e));
  }
}

// --- live games (WebSocket /ws/game/{id}) -----------------------------------------------------------

/**
 * The live game on the page: its id, socket, last version seen, and who plays what.
 * @typedef {{id: number, ws: WebSocket|null, version: number, thinking: boolean, humans: string[],
 *   over: boolean, turn: string, closed: boolean, retry: number, offer: string|null, clock: Clock|null}} LiveGame
 * @typedef {{white: number, black: number, running: string|null, at: number, base: number, control: string}} Clock
 */
/** @type {LiveGame|null} */
let game = null;
/** @type {((v: unknown) => void)[]} */
const readyWaiters = [];

/** @param {number} id */
function joinGame(id) {
  if (game && game.ws) {
    game.closed = true;
    game.ws.close();
  }
  game = {id, ws: null, version: -1, thinking: false, humans: [], over: false, turn: "white", closed: false, retry: 0, offer: null, clock: null};
  document.body.classList.add("in-game");
  stopAnalysis();
  const url = new URL(location.href);
  url.search = `?game=${id}`;
  history.replaceState(null, "", url);
  openGameSocket(game);
}

/** @param {LiveGame} g */
function openGameSocket(g) {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/game/${g.id}`);
  g.ws = ws;
  ws.addEventListener("open", () => { g.retry = 0; });
  ws.addEventListener("message", (e) => {
    if (game !== g) return;
    gameMessage(g, JSON.parse(String(e.data)));
  });
  ws.addEventListener("close", (e) => {
    if (game !== g || g.closed || e.code === 4404) return;
    // a dropped connection comes back; the server sends the state (and its version) at once
    g.retry = Math.min(g.retry + 1, 10);
    say("connection lost: reconnecting ...", false);
    setTimeout(() => { if (game === g && !g.closed) openGameSocket(g); }, 200 * g.retry);
  });
}

/** @param {LiveGame} g @param {any} msg */
async function gameMessage(g, msg) {
  if (msg.type === "state") {
    if (msg.version < g.version) return;
    const animate = msg.version > g.version && g.version >= 0;
    g.version = msg.version;
    g.thinking = msg.thinking;
    if (!g.over && msg.state.outcome && g.version >= 0) setTimeout(refreshGames, 0); // the list shows the result
    g.over = !!msg.state.outcome;
    g.turn = msg.state.turn;
    g.humans = ["white", "black"].filter((c) => msg.players[c].kind === "human");
    g.clock = msg.clock ? {...msg.clock, at: performance.now()} : null;
    if (!geometry || geometry.variant !== msg.state.variant) {
      geometry = /** @type {Geometry} */ (await api(`/api/geometry?variant=${encodeURIComponent(msg.state.variant)}`));
      board.set({squares: geometry.squares, size: geometry.size, shape: geometry.shape});
      applyShape();
    }
    if (game !== g) return;
    setLine(msg.line.start, msg.line.turn, msg.line.moves);
    line.nodes[line.nodes.length - 1].data = msg.state;
    follow(line.nodes[line.nodes.length - 1]);
    requestId++;
    if (g.humans.length === 1 && settings.flipped !== (g.humans[0] === "black")) {
      settings.flipped = g.humans[0] === "black";
      applySettings();
    }
    show(msg.state, animate);
    showGameInfo(msg);
    if (msg.analysis && input("show-thinking").checked) showThinking(msg.analysis);
    while (readyWaiters.length) /** @type {(v: unknown) => void} */ (readyWaiters.shift())(null);
  } else if (msg.type === "event") {
    if (msg.event === "Thinking" && input("show-thinking").checked) showThinking(msg.info);
    if (msg.event === "EngineRestarted" || msg.event === "EngineGaveUp") say(msg.error);
    if (msg.event === "DrawDeclined") say(`${title(msg.color)} declined the draw`, false);
    // ClockTick events are not needed here: every state carries the clocks of its moment
  } else if (msg.type === "hint") {
    if (msg.move) {
      say(`Hint: ${moveText(msg.move)}${msg.lines[0] ? ` (${msg.lines[0].score})` : ""}`, false);
      board.set({lastMove: msg.move});
    } else say("no hint", false);
  } else if (msg.type === "draw" && msg.accepted === false) {
    say("the engine declines the draw", false);
  } else if (msg.type === "error") {
    say(msg.error);
    if (msg.status === 404) leaveGame();
    board.set({});
  }
}

/** @param {any} info */
function showThinking(info) {
  lines.clear();
  lines.set(1, info);
  drawLines();
}

/** @param {any} msg */
function showGameInfo(msg) {
  const p = msg.players;
  const who = `${p.white.display} (White) vs ${p.black.display} (Black)`;
  const thinking = msg.thinking ? ` · ${title(msg.state.turn)} is thinking ...` : "";
  const restarted = msg.restarts ? ` · engine restarted ${msg.restarts}×` : "";
  $("game-info").textContent = `Game ${msg.game}: ${who}${thinking}${restarted}`;
  const offer = msg.drawOffer;
  if (game) game.offer = offer;
  const answer = offer && game && game.humans.includes(offer === "white" ? "black" : "white");
  $("draw-answer").hidden = !answer;
  $("draw-text").textContent = answer ? `${title(offer)} offers a draw:` : "";
  for (const id of ["takeback", "draw", "resign", "hint"]) {
    /** @type {HTMLButtonElement} */ ($(id)).disabled = !!msg.state.outcome && id !== "takeback";
  }
}

/** The side a person acts for: the one to move in hot-seat, else the human's colour. */
function actor() {
  if (!game) return "white";
  if (game.humans.length === 1) return game.humans[0];
  return game.turn;
}

/** @param {Record<string, unknown>} msg */
function send(msg) {
  if (!game || !game.ws || game.ws.readyState !== WebSocket.OPEN) {
    say("not connected to the game");
    return;
  }
  game.ws.send(JSON.stringify(msg));
}

/** @param {string} text @param {"oblique"|"checker"} names */
function gameMove(text, names) {
  if (!game) return;
  say("");
  send({type: "move", text, names, by: game.turn, version: game.version});
}

function leaveGame() {
  if (game) {
    game.closed = true;
    if (game.ws) game.ws.close();
  }
  game = null;
  document.body.classList.remove("in-game");
  const url = new URL(location.href);
  url.search = "";
  history.replaceState(null, "", url);
  if (current) show(current, false);
  refreshGames();
}

async function newGame() {
  const opponent = /** @type {HTMLSelectElement} */ ($("opponent")).value;
  const color = /** @type {HTMLSelectElement} */ ($("color")).value;
  /** @type {Record<string, unknown>} */
  let other = {kind: "engine", level: Number(/** @type {HTMLSelectElement} */ ($("level")).value)};
  if (opponent === "movetime") other = {kind: "engine", movetime: Number(/** @type {HTMLSelectElement} */ ($("movetime")).value)};
  if (opponent === "human") other = {kind: "human", name: color === "white" ? "Black" : "White"};
  const me = {kind: "human", name: opponent === "human" ? title(color) : "You"};
  /** @type {Record<string, unknown>} */
  const body = {pos: line.start, moves: line.moves.slice(0, line.ply).map((m) => m.text), white: color === "white" ? me : other, black: color === "white" ? other : me};
  const clock = /** @type {HTMLSelectElement} */ ($("clock")).value;
  if (clock === "fischer") body.clock = {kind: "fischer", base: Number(input("clock-base").value) * 60, increment: Number(input("clock-inc").value)};
  else if (clock === "per-move") body.clock = {kind: "per-move", base: Number(input("clock-move").value)};
  try {
    const data = await api("/api/games", body);
    joinGame(data.id);
    refreshGames();
  } catch (e) {
    say(e instanceof Error ? e.message : String(e));
  }
}

// --- saved games ---------------------------------------------------------------------------------

async function refreshGames() {
  const studies = api("/api/studies").catch(() => ({studies: []}));
  let data;
  try {
    data = await api("/api/games");
  } catch {
    return;
  }
  const saved = await studies; // both answers first: the list is drawn at once
  const list = $("games");
  list.replaceChildren();
  for (const g of data.games) {
    const li = document.createElement("li");
    li.dataset.game = String(g.id);
    const what = document.createElement("span");
    what.className = "what";
    what.textContent = `#${g.id} ${g.white} vs ${g.black} · ${g.variant} · ${g.result === "*" ? "in progress" : g.result}`;
    li.appendChild(what);
    /** @param {string} label @param {() => void} action */
    const button = (label, action) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "small";
      b.textContent = label;
      b.addEventListener("click", action);
      li.appendChild(b);
    };
    button(g.result === "*" ? "Resume" : "Open", () => joinGame(g.id));
    button("Replay", () => replayGame(g.id));
    const a = document.createElement("a");
    a.className = "button small";
    a.href = `/api/games/${g.id}/record`;
    a.textContent = "Download";
    li.appendChild(a);
    button("Delete", async () => {
      if (game && game.id === g.id) leaveGame();
      await api(`/api/games/${g.id}`, undefined, "DELETE").catch(() => {});
      refreshGames();
    });
    list.appendChild(li);
  }
  drawStudies(list, saved.studies);
}

/** The saved studies, after the games in the list. @param {HTMLElement} list @param {any[]} studies */
function drawStudies(list, studies) {
  for (const st of studies) {
    const li = document.createElement("li");
    li.dataset.study = String(st.id);
    const what = document.createElement("span");
    what.className = "what";
    what.textContent = `Study #${st.id} · ${st.variant} · ${st.nodes} ${st.nodes === 1 ? "move" : "moves"}`;
    li.appendChild(what);
    /** @param {string} label @param {() => void} action */
    const button = (label, action) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "small";
      b.textContent = label;
      b.addEventListener("click", action);
      li.appendChild(b);
    };
    button("Open", async () => {
      if (game) leaveGame();
      await openStudy(st.id).catch((e) => say(e.message));
    });
    button("Delete", async () => {
      if (studyId === st.id) forgetStudy();
      await api(`/api/studies/${st.id}`, undefined, "DELETE").catch(() => {});
      refreshGames();
    });
    list.appendChild(li);
  }
}

/** @param {number} id */
async function replayGame(id) {
  if (game) leaveGame();
  const saved = await api(`/api/games/${id}`);
  await load(saved.start, saved.moves, 0);
  say(`game ${id}: ←/→ step through its ${saved.moves.length} moves`, false);
}

// --- the engine's review of the line -------------------------------------------------------------

/**
 * The review running over WebSocket /ws/review: the main line's nodes (marks go on them as the
 * server settles each move) and the socket; `null` when none runs.
 * @type {{ws: WebSocket, nodes: TreeNode[], marked: number, stopping: boolean}|null}
 */
let reviewing = null;

/** @param {string} text @param {number} [done] @param {number} [total] */
function reviewProgress(text, done, total) {
  $("review-state").hidden = false;
  $("review-text").textContent = text;
  const bar = /** @type {HTMLProgressElement} */ ($("review-progress"));
  if (total) {
    bar.max = total;
    bar.value = done || 0;
  }
}

/** The engine reviews the main line move by move; the button stops it (marks so far stay). */
function reviewLine() {
  if (reviewing) {
    reviewing.stopping = true;
    if (reviewing.ws.readyState === WebSocket.OPEN) reviewing.ws.send(JSON.stringify({type: "stop"}));
    return;
  }
  const nodes = mainLine();
  if (!nodes.length) return say("no moves to review");
  for (const n of nodes) n.mark = null;
  drawMoves();
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/review`);
  const run = {ws, nodes, marked: 0, stopping: false};
  reviewing = run;
  $("review").textContent = "Stop";
  $("review").setAttribute("aria-pressed", "true");
  say("");
  reviewProgress("the engine reviews every move ...", 0, nodes.length + 1);
  const finish = () => {
    if (reviewing !== run) return;
    reviewing = null;
    $("review").textContent = "Annotate";
    $("review").setAttribute("aria-pressed", "false");
  };
  ws.addEventListener("open", () => {
    const seconds = Number(/** @type {HTMLSelectElement} */ ($("rtime")).value);
    ws.send(JSON.stringify({type: "start", pos: line.start, moves: nodes.map((n) => /** @type {MoveInfo} */ (n.move).text), time: seconds, names: settings.names}));
  });
  ws.addEventListener("message", (e) => {
    const msg = JSON.parse(String(e.data));
    if (msg.type === "move") {
      const node = nodes[msg.move.ply - 1];
      if (node) node.mark = msg.move;
      run.marked++;
      drawMoves();
    } else if (msg.type === "progress") {
      reviewProgress(`${msg.done} of ${msg.total} positions searched, ${run.marked} moves reviewed`, msg.done, msg.total);
    } else if (msg.type === "done") {
      /** @type {HTMLTextAreaElement} */ ($("record")).value = msg.text;
      const bad = msg.moves.filter((/** @type {{mark: string}} */ m) => m.mark).length;
      const what = msg.stopped ? `stopped: ${msg.moves.length} of ${nodes.length} moves reviewed` : "reviewed";
      reviewProgress(`${what}: ${bad} move${bad === 1 ? "" : "s"} marked (?! inaccuracy, ? mistake, ?? blunder)`);
      say(`${what}: ${bad} move${bad === 1 ? "" : "s"} marked`, false);
      finish();
      ws.close();
      drawMoves();
    } else if (msg.type === "error") {
      say(msg.error);
      finish();
      ws.close();
    }
  });
  ws.addEventListener("close", () => {
    if (reviewing === run) {
      say("the review was cut off");
      finish();
    }
  });
}

// --- the position editor (the server checks the position: R6, R22) ------------------------------

/** @type {{pieces: Record<string, Piece>}|null} */
let editing = null;

function startEditing() {
  if (game) leaveGame();
  if (!current) return;
  stopAnalysis();
  editing = {pieces: structuredClone(current.pieces)};
  input("hand-w").value = String(current.hands.white);
  input("hand-b").value = String(current.hands.black);
  /** @type {HTMLSelectElement} */ ($("edit-turn")).value = current.turn === "white" ? "w" : "b";
  $("editor").hidden = false;
  $("edit").setAttribute("aria-pressed", "true");
  board.set({pieces: editing.pieces, lastMove: null, movable: null});
  say("click squares to put or remove men; Done checks the position", false);
}

/** @param {string} square @returns {boolean} */
function editSquare(square) {
  if (!editing) return false;
  const brush = /** @type {HTMLSelectElement} */ ($("brush")).value;
  const old = editing.pieces[square];
  if (brush === "empty") delete editing.pieces[square];
  else if (!old) editing.pieces[square] = {owner: /** @type {any} */ (brush), caps: 1, prisoners: 0};
  else if (old.owner === brush) old.caps += 1;
  else editing.pieces[square] = {owner: /** @type {any} */ (brush), caps: 1, prisoners: old.prisoners ? 0 : old.caps};
  board.set({pieces: {...editing.pieces}, lastMove: null, movable: null});
  return true;
}

/** The position being edited as an R22 string; the server says whether it is one. */
function editedPosition() {
  if (!editing || !geometry) return "";
  const letter = (/** @type {string} */ owner) => (owner === "white" ? "w" : "b");
  const stacks = Object.entries(editing.pieces)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([sq, p]) => {
      const under = p.prisoners ? `${letter(p.owner === "white" ? "black" : "white")}${p.prisoners}` : "";
      return `${sq}:${under}${letter(p.owner)}${p.caps}`;
    });
  const variant = geometry.variant === "9x9" ? "" : `${geometry.variant} `;
  const turn = /** @type {HTMLSelectElement} */ ($("edit-turn")).value;
  return `${variant}${turn} ${Number(input("hand-w").value)}/${Number(input("hand-b").value)} ${stacks.join(" ")}`.trim();
}

async function finishEditing() {
  const pos = editedPosition();
  try {
    const data = await api("/api/position", {pos, moves: []});
    editing = null;
    $("editor").hidden = true;
    $("edit").setAttribute("aria-pressed", "false");
    await load(pos, [], undefined, data);
    say("");
  } catch (e) {
    say(e instanceof Error ? e.message : String(e));
  }
}

// --- settings ----------------------------------------------------------------------------------

function applySettings() {
  document.documentElement.dataset.theme = settings.theme;
  board.set({view: settings.view, names: settings.names, coordinates: settings.coordinates, flipped: settings.flipped, animation: {enabled: settings.animation, jump: 220}});
  /** @type {[string, boolean][]} */
  const pressed = [
    ["view", settings.view === "checker"],
    ["flip", settings.flipped],
    ["coords", settings.coordinates],
    ["names", settings.names === "checker"],
    ["anim", settings.animation],
    ["theme", settings.theme === "dark"],
  ];
  for (const [id, on] of pressed) $(id).setAttribute("aria-pressed", String(on));
  if (current) show(current, false);
}

const isHex = () => !!geometry && geometry.shape === "hexagon";
const HEX_VIEW = "The hexagon (R4 hex) has one picture and one naming: no diamond/checkerboard view, no checkerboard names";

/** The view and naming buttons mean nothing on the hexagon: disabled there, with the reason. */
function applyShape() {
  const hex = isHex();
  for (const [id, tip] of [["view", "Switch between the diamond (oblique-line) and the checkerboard view (v)"], ["names", "Name squares the oblique-line way (R1) or the checkerboard way (R3)"]]) {
    const b = /** @type {HTMLButtonElement} */ ($(id));
    b.disabled = hex;
    b.title = hex ? HEX_VIEW : tip;
    b.setAttribute("aria-disabled", String(hex));
  }
}

function toggleView() {
  if (isHex()) return say(HEX_VIEW, false);
  change({view: settings.view === "diamond" ? "checker" : "diamond"});
}

/** @param {Partial<Settings>} change */
function change(change) {
  Object.assign(settings, change);
  applySettings();
  api("/api/settings", change, "PUT").catch(() => {});
}

// --- wiring ------------------------------------------------------------------------------------

$("view").addEventListener("click", toggleView);
$("flip").addEventListener("click", () => change({flipped: !settings.flipped}));
$("coords").addEventListener("click", () => change({coordinates: !settings.coordinates}));
$("names").addEventListener("click", () => {
  if (!isHex()) change({names: settings.names === "oblique" ? "checker" : "oblique"});
});
$("var-prev").addEventListener("click", () => switchVariation(-1));
$("var-next").addEventListener("click", () => switchVariation(1));
$("promote").addEventListener("click", promoteVariation);
$("delete-var").addEventListener("click", deleteVariation);
$("clock").addEventListener("change", () => {
  const v = /** @type {HTMLSelectElement} */ ($("clock")).value;
  $("clock-base-label").hidden = v !== "fischer";
  $("clock-inc-label").hidden = v !== "fischer";
  $("clock-move-label").hidden = v !== "per-move";
});
$("anim").addEventListener("click", () => change({animation: !settings.animation}));
$("theme").addEventListener("click", () => change({theme: settings.theme === "dark" ? "light" : "dark"}));
$("new-game").addEventListener("submit", (e) => {
  e.preventDefault();
  newGame();
});
$("opponent").addEventListener("change", () => {
  const v = /** @type {HTMLSelectElement} */ ($("opponent")).value;
  $("level").hidden = v !== "engine";
  $("movetime").hidden = v !== "movetime";
});
$("takeback").addEventListener("click", () => {
  if (!game) return;
  // hot-seat: the last move goes back; against the engine: the person's last move and the reply
  const by = game.humans.length === 1 ? game.humans[0] : line.moves.length % 2 === 1 ? line.firstTurn : line.firstTurn === "white" ? "black" : "white";
  send({type: "takeback", by});
});
$("draw").addEventListener("click", () => send({type: "draw", by: actor()}));
$("resign").addEventListener("click", () => send({type: "resign", by: actor()}));
$("hint").addEventListener("click", () => send({type: "hint"}));
$("draw-accept").addEventListener("click", () => send({type: "answer", accept: true, by: game && game.offer === "white" ? "black" : "white"}));
$("draw-decline").addEventListener("click", () => send({type: "answer", accept: false, by: game && game.offer === "white" ? "black" : "white"}));
$("leave").addEventListener("click", leaveGame);
$("refresh-games").addEventListener("click", refreshGames);
$("review").addEventListener("click", reviewLine);
$("edit").addEventListener("click", () => (editing ? finishEditing() : startEditing()));
$("edit-done").addEventListener("click", finishEditing);
$("edit-clear").addEventListener("click", () => {
  if (!editing) return;
  editing.pieces = {};
  board.set({pieces: {}, lastMove: null, movable: null});
});
$("first").addEventListener("click", () => goto(0));
$("back").addEventListener("click", () => goto(line.ply - 1));
$("forward").addEventListener("click", () => goto(line.ply + 1, true));
$("last").addEventListener("click", () => goto(line.moves.length));
$("move-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const box = input("move-text");
  if (game) {
    gameMove(box.value, settings.names);
    box.value = "";
  } else if (await play(box.value, settings.names)) box.value = "";
});
$("pos-load").addEventListener("click", () => load(input("pos-text").value).catch((e) => say(e.message)));
$("new9").addEventListener("click", () => load("w 12/12"));
$("new7").addEventListener("click", () => load("7x7 w 8/8"));
$("newhex").addEventListener("click", () => load("hex w 12/12"));
$("analyse").addEventListener("click", () => (analysing ? stopAnalysis() : startAnalysis().catch((e) => say(e.message))));
$("import").addEventListener("click", () => importRecord(/** @type {HTMLTextAreaElement} */ ($("record")).value));
$("export").addEventListener("click", exportRecord);
input("upload").addEventListener("change", async () => {
  const file = input("upload").files?.[0];
  if (file) await importRecord(await file.text());
});
document.addEventListener("keydown", (e) => {
  const target = /** @type {HTMLElement} */ (e.target);
  if (target.closest("input, textarea, select")) return;
  if (e.key === "ArrowLeft") goto(line.ply - 1);
  else if (e.key === "ArrowRight") goto(line.ply + 1, true);
  else if (e.key === "ArrowUp" && !game) switchVariation(-1);
  else if (e.key === "ArrowDown" && !game) switchVariation(1);
  else if (e.key === "Home") goto(0);
  else if (e.key === "End") goto(line.moves.length);
  else if (e.key === "f") change({flipped: !settings.flipped});
  else if (e.key === "v") toggleView();
  else return;
  e.preventDefault();
});

async function main() {
  const params = new URLSearchParams(location.search);
  const moves = (params.get("moves") || "").split(/[\s,]+/).filter(Boolean);
  // The settings and the position are asked for at once: the first board waits for one trip.
  const first = api("/api/position", {pos: params.get("pos") || "w 12/12", moves}).catch(() => null);
  try {
    Object.assign(settings, await api("/api/settings"));
  } catch {
    // the defaults will do
  }
  for (const key of /** @type {(keyof Settings)[]} */ (["view", "names", "theme"])) {
    const value = params.get(key);
    if (value) Object.assign(settings, {[key]: value});
  }
  if (params.has("flip")) settings.flipped = params.get("flip") === "1";
  if (params.has("animation")) settings.animation = params.get("animation") === "1";
  applySettings();
  setTimeout(refreshGames, 0); // after the first board: it does not compete with it
  if (params.get("study")) {
    try {
      await first;
      await openStudy(Number(params.get("study")));
      performance.mark("emergo-board-drawn");
      document.documentElement.dataset.ready = "1";
      return;
    } catch (e) {
      say(`study ${params.get("study")}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (params.get("game")) {
    joinGame(Number(params.get("game")));
    await new Promise((resolve) => { readyWaiters.push(resolve); });
    performance.mark("emergo-board-drawn");
    document.documentElement.dataset.ready = "1";
    return;
  }
  try {
    await load(params.get("pos") || "w 12/12", moves, undefined, await first);
  } catch (e) {
    say(e instanceof Error ? e.message : String(e));
    await load("w 12/12");
  }
  performance.mark("emergo-board-drawn");
  document.documentElement.dataset.ready = "1";
}

main();
