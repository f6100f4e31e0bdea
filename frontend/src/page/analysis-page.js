// @ts-check
/**
 * page/analysis-page.js: the analysis board's page (`/analysis`, `/game/ID/analysis`,
 * `/study/ID/CHAPTER`): the toolbar's settings, new boards, a position loaded, records opened,
 * and the analysis board itself (page/analysis.js); a study's chapter with its panel
 * (page/study.js). A game from the position shown is a game of the site: against the computer
 * (a house bot, `POST /api/challenge/ai`) or hot-seat (`POST /api/hotseat`), on the game page.
 *
 * On `/analysis` the address follows the line shown (`?pos=START&moves=...`): a reload comes
 * back to the position shown.
 */
import {api} from "./api.js";
import {openGame} from "./leave.js";
import {$, errorText, input, say, select} from "./dom.js";
import {changeSettings, settings} from "./settings.js";
import {initConfirm} from "./confirm.js";
import {AnalysisController} from "./analysis.js";
import {mountExplorer} from "./explorer.js";
import {initOnline, pageData} from "./online.js";
import {saveAsStudy, StudyPage} from "./study.js";
import {Tree} from "./tree.js";

/** @type {AnalysisController|null} */
let controller = null;
/** @type {StudyPage|null} */
let study = null;
/** Whether the address follows the board (the free analysis board, not a game's or a study's). */
let follow = false;

const START = "w 12/12";
const HEX_VIEW = "The hexagon (R4 hex) has one picture and one naming: no diamond/checkerboard view, no checkerboard names";
const TIPS = {
  view: "Switch between the diamond (oblique-line) and the checkerboard view (v)",
  names: "Name squares the oblique-line way (R1) or the checkerboard way (R3)",
};

/** The free board's address for a line (pure). @param {string} start @param {string[]} moves */
export function boardAddress(start, moves) {
  const params = new URLSearchParams();
  if (start !== START || moves.length) params.set("pos", start);
  if (moves.length) params.set("moves", moves.join(" "));
  const query = params.toString();
  return `/analysis${query ? `?${query}` : ""}`;
}

/** The address shows the line to the node shown (the free board only). @param {Tree} tree */
function shown(tree) {
  if (!follow) return;
  const url = boardAddress(tree.start, Tree.path(tree.here));
  const keep = new URLSearchParams(location.search);
  for (const key of ["pos", "moves"]) keep.delete(key);
  const rest = keep.toString(); // the settings asked for in the address stay there
  const full = rest ? `${url}${url.includes("?") ? "&" : "?"}${rest}` : url;
  if (full !== location.pathname + location.search) history.replaceState(null, "", full);
}

/** A new controller on what `what` says; the one before goes. @param {import("./analysis.js").AnalysisStart} what */
async function analysis(what) {
  controller?.destroy();
  controller = new AnalysisController(app);
  await controller.open(what);
  applyShape(controller.geometry);
}

/** Leave a study's or a game's board for the free analysis board. */
function freeBoard() {
  if (study) {
    study.leave();
    study = null;
  }
  follow = true;
}

/** A game of the site, read from its record (its clocks, tags and result too), on the board. @param {string} id */
async function gameRecord(id) {
  const response = await fetch(`/game/export/${encodeURIComponent(id)}`);
  if (!response.ok) throw new Error(`the game ${id} cannot be read (${response.status})`);
  const data = await api("/api/record/import", {text: await response.text(), names: settings.names});
  const record = data.games[0];
  await analysis({start: record.start, tree: record.tree, message: `${record.moves.length} moves: ← and → step through them`});
}

/**
 * A game from a position: the computer or a friend at this screen, as the Play panel says.
 * @param {string} pos @param {string[]} moves
 */
async function newGame(pos, moves) {
  const here = await api("/api/position", {pos, moves});
  // the variant too: a variant's start position is no "fen" to the server (the start is the default)
  /** @type {Record<string, unknown>} */
  const fields = {fen: here.position, variant: here.variant, color: select("color").value};
  if (select("clock").value === "fischer") {
    fields["clock.limit"] = Math.round(Number(input("clock-base").value) * 60);
    fields["clock.increment"] = Number(input("clock-inc").value);
  }
  const answer = select("opponent").value === "hotseat"
    ? await api("/api/hotseat", fields)
    : await api("/api/challenge/ai", {...fields, level: Number(select("level").value)});
  // the site-wide channel may have opened the new game already (its gameStart came first)
  openGame(answer.gameId);
}

/** What the analysis board asks of the page. @type {import("./analysis.js").AnalysisApp} */
const app = {
  /** @param {any} route */
  async go(route) {
    try {
      if (route.page === "analysis") {
        // the position is checked before the board changes: a bad one leaves it as it was
        const asked = route.start || START;
        const answer = route.answer || (await api("/api/position", {pos: asked, moves: []}));
        const start = answer.position; // as the server writes it: the box and the address too
        freeBoard();
        await analysis({start, answer});
        // a position typed in the box (it has the focus: the board did not write it) as read
        if (document.activeElement === $("pos-text")) input("pos-text").value = start;
        if (route.message) controller?.note(route.message, false);
      } else if (route.page === "record") {
        freeBoard();
        await analysis({start: route.tree.start, tree: route.tree});
        controller?.note(route.message, !!route.error);
      } else if (route.page === "new-game") {
        say("starting the game ...", false);
        await newGame(route.pos, route.moves);
      }
    } catch (e) {
      (controller ? controller.note.bind(controller) : say)(errorText(e));
    }
  },
  edited: (edit) => study?.edited(edit),
  shown,
  importRecord: async (text) => (study ? study.importRecord(text) : false),
};

/** The view and naming buttons mean nothing on the hexagon: disabled there, with the reason. @param {any} geometry */
function applyShape(geometry) {
  const hex = !!geometry && geometry.shape === "hexagon";
  for (const id of /** @type {const} */ (["view", "names"])) {
    const b = /** @type {HTMLButtonElement} */ ($(id));
    b.disabled = hex;
    b.title = hex ? HEX_VIEW : TIPS[id];
    b.setAttribute("aria-disabled", String(hex));
  }
}

const isHex = () => $("board").dataset.view === "hexagon";

function toggleView() {
  if (isHex()) return controller ? controller.note(HEX_VIEW, false) : say(HEX_VIEW, false);
  changeSettings({view: settings.view === "diamond" ? "checker" : "diamond"});
}

/** @param {HTMLElement} root */
function wire(root) {
  initConfirm();
  $("new-game").addEventListener("submit", (e) => e.preventDefault());
  select("clock").addEventListener("change", () => {
    const fischer = select("clock").value === "fischer";
    input("clock-base").closest("label")?.toggleAttribute("hidden", !fischer);
    input("clock-inc").closest("label")?.toggleAttribute("hidden", !fischer);
  });
  const opponent = select("opponent");
  if (!root.dataset.ai) {
    opponent.querySelector("option[value='computer']")?.remove(); // no house bot on this site
    opponent.value = "hotseat";
  }
  const levelShown = () => {
    select("level").hidden = opponent.value !== "computer";
  };
  opponent.addEventListener("change", levelShown);
  levelShown();
  if (!root.dataset.me) {
    // a visitor explores the board; a game needs an account
    for (const id of ["new-game", "start-new", "start-game"]) $(id).hidden = true;
    $("play-note").hidden = false;
  }
  $("save-study").hidden = !root.dataset.me || !!root.dataset.mine;
  if (!root.dataset.engine) {
    // this site runs no engine analysis ([analysis] engine = off): no button that cannot work
    $("analysis-panel").hidden = true;
    $("review").hidden = $("rtime").hidden = true;
  }
  $("save-study").addEventListener("click", async () => {
    if (!controller) return;
    try {
      const text = await controller.recordText();
      const name = controller.tags.White && controller.tags.White !== "?" ? `${controller.tags.White} – ${controller.tags.Black}` : "Analysis";
      location.assign(await saveAsStudy(text, name));
    } catch (e) {
      controller.note(errorText(e));
    }
  });
  $("view").addEventListener("click", toggleView);
  $("flip").addEventListener("click", () => changeSettings({flipped: !settings.flipped}));
  $("coords").addEventListener("click", () => changeSettings({coordinates: !settings.coordinates}));
  $("names").addEventListener("click", () => {
    if (!isHex()) changeSettings({names: settings.names === "oblique" ? "checker" : "oblique"});
  });
  $("anim").addEventListener("click", () => changeSettings({animation: !settings.animation}));
  /** @type {[string, string][]} */
  const boards = [["new9", START], ["new7", "7x7 w 8/8"], ["newhex", "hex w 12/12"]];
  for (const [id, start] of boards) $(id).addEventListener("click", () => app.go({page: "analysis", start}));
  $("pos-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input("pos-text").value.trim();
    if (text) app.go({page: "analysis", start: text});
  });
  document.addEventListener("keydown", (e) => {
    const target = /** @type {HTMLElement} */ (e.target);
    if (target.closest("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "f") changeSettings({flipped: !settings.flipped});
    else if (e.key === "v") toggleView();
    else if (!controller || !controller.key(e)) return;
    e.preventDefault();
  });
}

/** Start the page. */
export async function startAnalysis() {
  const root = $("analysis");
  const params = new URLSearchParams(location.search);
  const moves = (params.get("moves") || "").split(/[\s,]+/).filter(Boolean);
  const pos = params.get("pos") || START;
  const game = root.dataset.game;
  const studyId = root.dataset.study;
  follow = !game && !studyId;
  // the settings and the position are asked for at once: the first board waits for one trip
  const first = follow ? api("/api/position", {pos, moves}).catch((e) => e) : null;
  wire(root);
  mountExplorer($("explorer"), {position: () => controller?.current?.position ?? null, onMove: (text) => controller?.play(text, "oblique")});
  await initOnline(pageData(root));
  try {
    if (studyId) {
      study = new StudyPage(studyId, root.dataset.chapter || "", (tree, message) => analysis({start: tree.start, tree, message}));
      study.wire(() => (controller && controller.current ? controller.current.position : START));
      await study.load();
    } else if (game) await gameRecord(game);
    else {
      const answer = await first;
      if (answer instanceof Error) {
        // a line the server refuses in the address: the start, and why
        follow = true;
        await analysis({start: START});
        controller?.note(`the address's position cannot be shown: ${errorText(answer)}`);
      } else await analysis({start: pos, moves, answer});
    }
  } catch (e) {
    say(errorText(e));
    await analysis({start: START}).catch(() => {});
  }
  performance.mark("emergo-board-drawn");
  document.documentElement.dataset.ready = "1";
}
