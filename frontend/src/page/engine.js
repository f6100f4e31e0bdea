// @ts-check
/**
 * page/engine.js: the engine's lines on the page: the analysis panel's list (a score, the depth,
 * the moves numbered as a record numbers them, each a button), the evaluation bar beside the
 * board (its room kept when empty, so the board never shifts), and the best moves as arrows on
 * the board. Also the analysis itself over `/ws/analyse`.
 *
 * @typedef {import("../board/types.js").MoveInfo} MoveInfo
 * @typedef {import("../board/types.js").Shape} Shape
 * @typedef {{multipv: number, depth: number, score: string, centimen: number, pv: MoveInfo[],
 *   nodes: number, time: number, nps: number, source?: string}} Line
 *   `source` "tablebase": the endgame tables valued it (exact, no search)
 */
import {$, el, button} from "./dom.js";
import {lineNumbers, scoreWords} from "./format.js";
import {settings} from "./settings.js";
import {Socket} from "./socket.js";
import {signedSocketPath} from "./api.js";

/**
 * Draw lines (best first). `ply`/`firstTurn` number their moves; `pick(line, k)` is a click on
 * the k-th move of a line. Returns the arrows of the lines' first moves (the best one strongest).
 * @param {Line[]} lines @param {number} ply the ply of the lines' first move @param {"white"|"black"} firstTurn
 * @param {((line: Line, k: number) => void)|null} pick
 * @returns {Shape[]}
 */
export function drawLines(lines, ply, firstTurn, pick) {
  const list = $("lines");
  list.replaceChildren();
  const bar = $("evalbar");
  const sorted = [...lines].sort((a, b) => a.multipv - b.multipv);
  if (!sorted.length) {
    $("eval").textContent = "";
    bar.classList.add("empty");
    return [];
  }
  const best = sorted[0];
  const exact = best.source === "tablebase" ? scoreWords(best.score) : null;
  $("eval").textContent = exact ? `${exact} (tables)` : `${best.score} (White's view), depth ${best.depth}, ${best.nodes} nodes, ${best.time.toFixed(1)} s`;
  bar.classList.remove("empty");
  const share = 50 + 50 * Math.tanh(best.centimen / 400);
  $("evalfill").style.height = `${settings.flipped ? 100 - share : share}%`;
  for (const line of sorted) {
    const li = el("li");
    const tables = line.source === "tablebase";
    const score = el("span", "score", `${line.score}/${tables ? "tb" : line.depth}`);
    if (tables) score.title = `${scoreWords(line.score) || line.score}, by the endgame tables`;
    li.append(score);
    const numbers = lineNumbers(ply, firstTurn, line.pv.length);
    line.pv.forEach((move, k) => {
      if (numbers[k]) li.append(el("span", "no", numbers[k]), " ");
      const b = button(settings.names === "checker" ? move.checker : move.text, () => pick && pick(line, k));
      b.title = pick ? "Play the line up to here" : "";
      li.append(b, " ");
    });
    list.append(li);
  }
  /** @type {Shape[]} */
  const shapes = [];
  for (const line of sorted.slice(0, 3)) {
    const move = line.pv[0];
    if (!move) continue;
    const brush = line === best ? "blue" : "paleBlue";
    shapes.push(move.kind === "enter" ? {orig: move.path[0], brush} : {orig: move.path[0], path: move.path, brush});
  }
  return shapes;
}

/** Clear the lines and the bar. */
export const clearLines = () => drawLines([], 1, "white", null);

/**
 * An analysis running on the server, streamed (`WS /ws/analyse`): reports of older searches
 * are dropped.
 * @param {{info: (lines: Line[]) => void, done: (lines: Line[]) => void, error: (text: string) => void}} on
 */
export function Analyst(on) {
  /** @type {Socket|null} */
  let socket = null;
  let id = 0;
  /** @type {Map<number, Line>} */
  const lines = new Map();
  let running = false;

  function connect() {
    if (socket && !socket.closed) return socket;
    const s = new Socket(signedSocketPath("/ws/analyse"), {
      onMessage(msg) {
        if ((msg.t === "info" || msg.t === "done") && msg.id !== id) return;
        if (msg.t === "info") {
          lines.set(msg.line.multipv, msg.line);
          on.info([...lines.values()]);
        } else if (msg.t === "done") {
          for (const l of msg.lines) lines.set(l.multipv, l);
          running = false;
          on.done([...lines.values()]);
        } else if (msg.t === "error") {
          running = false;
          on.error(msg.error);
        }
      },
      onStatus(status) {
        if (status !== "open" && running) {
          running = false;
          on.done([...lines.values()]);
        }
      },
    });
    socket = s;
    return s;
  }

  return {
    get running() {
      return running;
    },
    /** @param {Record<string, unknown>} request pos, moves, multipv, time or infinite */
    async start(request) {
      const s = connect();
      await s.opened;
      lines.clear();
      running = true;
      s.send({t: "start", id: ++id, ...request});
    },
    stop() {
      if (socket) socket.send({t: "stop"});
      running = false;
    },
    close() {
      socket?.close();
      socket = null;
      running = false;
    },
  };
}
