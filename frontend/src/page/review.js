// @ts-check
/**
 * page/review.js: the engine's review of the main line over `/ws/review`: marks (?!, ?, ??) go
 * on the moves as the server settles each one, under a progress bar; stopping keeps the marks so
 * far, and the record box gets the annotated record.
 *
 * @typedef {import("./tree.js").TreeNode} TreeNode
 */
import {$, select, say} from "./dom.js";
import {Socket} from "./socket.js";
import {signedSocketPath} from "./api.js";
import {settings} from "./settings.js";

/** @param {string} text @param {number} [done] @param {number} [total] */
function progress(text, done, total) {
  $("review-state").hidden = false;
  $("review-text").textContent = text;
  const bar = /** @type {HTMLProgressElement} */ ($("review-progress"));
  if (total) {
    bar.max = total;
    bar.value = done || 0;
  }
}

/**
 * Review `nodes` (a main line from `start`); `changed()` after each mark.
 * @param {string} start @param {TreeNode[]} nodes @param {() => void} changed
 */
export function Review(start, nodes, changed) {
  let marked = 0;
  let over = false;
  const finish = () => {
    over = true;
    $("review").textContent = "Annotate";
    $("review").setAttribute("aria-pressed", "false");
    socket.close();
  };
  const socket = new Socket(signedSocketPath("/ws/review"), {
    onMessage(msg) {
      if (msg.t === "move") {
        const node = nodes[msg.move.ply - 1];
        if (node) node.review = msg.move;
        marked++;
        changed();
      } else if (msg.t === "progress") {
        progress(`${msg.done} of ${msg.total} positions searched, ${marked} moves reviewed`, msg.done, msg.total);
      } else if (msg.t === "done") {
        /** @type {HTMLTextAreaElement} */ ($("record")).value = msg.text;
        const bad = msg.moves.filter((/** @type {{mark: string}} */ m) => m.mark).length;
        const what = msg.stopped ? `stopped: ${msg.moves.length} of ${nodes.length} moves reviewed` : "reviewed";
        progress(`${what}: ${bad} move${bad === 1 ? "" : "s"} marked (?! inaccuracy, ? mistake, ?? blunder)`);
        say(`${what}: ${bad} move${bad === 1 ? "" : "s"} marked`, false);
        finish();
        changed();
      } else if (msg.t === "error") {
        say(msg.error);
        finish();
      }
    },
    onStatus(status) {
      if (status !== "open" && !over) {
        say("the review was cut off");
        finish();
      }
    },
  });
  for (const n of nodes) n.review = null;
  $("review").textContent = "Stop";
  $("review").setAttribute("aria-pressed", "true");
  progress("the engine reviews every move ...", 0, nodes.length + 1);
  socket.opened.then(() => {
    const seconds = Number(select("rtime").value);
    socket.send({t: "start", pos: start, moves: nodes.map((n) => /** @type {any} */ (n.move).text), time: seconds, names: settings.names});
  }, () => finish());
  changed();
  return {
    get over() {
      return over;
    },
    stop() {
      socket.send({t: "stop"});
    },
    close() {
      if (!over) finish();
    },
  };
}
