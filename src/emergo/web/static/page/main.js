// @ts-check
/**
 * page/main.js: the local app's page (`emergo serve`). It holds the things every view shares
 * (settings, the toolbar, the saved games, new boards) and one controller at a time: the
 * analysis board (page/analysis.js) or a game (page/play.js, `?game=ID`). Going from one to the
 * other ends the first controller before the second starts, so nothing of a game stays on the
 * analysis board (its panel, address, title, messages, a click that would play in it).
 */
import {api} from "./api.js";
import {$, errorText, input, say} from "./dom.js";
import {applySettings, changeSettings, loadSettings, settings} from "./settings.js";
import {ask, initConfirm, dismiss} from "./confirm.js";
import {initSaved, refreshSaved} from "./saved.js";
import {chosenSetup, wireSetup} from "./setup.js";
import {AnalysisController} from "./analysis.js";

/**
 * The controller shown. A game's module is loaded with the first game (it is not part of the
 * analysis board's first load); the analysis board's comes with this one.
 * @typedef {import("./play.js").PlayController} PlayController
 * @type {AnalysisController|PlayController|null}
 */
let controller = null;

const HEX_VIEW = "The hexagon (R4 hex) has one picture and one naming: no diamond/checkerboard view, no checkerboard names";
const TIPS = {
  view: "Switch between the diamond (oblique-line) and the checkerboard view (v)",
  names: "Name squares the oblique-line way (R1) or the checkerboard way (R3)",
};

/** @param {string} url */
const setAddress = (url) => history.replaceState(null, "", url);

/** End the controller shown and show a view: "analysis" or "game". @param {"analysis"|"game"} page @param {() => AnalysisController|PlayController} make */
function mount(page, make) {
  controller?.destroy();
  controller = null;
  dismiss();
  say("");
  document.body.dataset.page = page;
  $("page-title").textContent = page === "game" ? "" : "Analysis board";
  controller = make();
  return controller;
}

/** A game's module, asked for once (at start for a game's address). @type {Promise<typeof import("./play.js")>|null} */
let play = null;
const playModule = () => (play = play || import("./play.js"));

/** The analysis board. @param {import("./analysis.js").AnalysisStart} what */
async function analysis(what) {
  const c = /** @type {AnalysisController} */ (mount("analysis", () => new AnalysisController(app)));
  await c.open(what);
  applyShape(c.geometry);
}

/** A game. @param {number} id */
async function game(id) {
  const {PlayController} = await playModule();
  setAddress(`/?game=${id}`);
  const c = /** @type {PlayController} */ (mount("game", () => new PlayController(app, id)));
  $("page-title").textContent = `Game ${id}`;
  await c.ready;
  applyShape(c.geometry);
  refreshSaved();
}

/** A game's record, read by the server, into the analysis board (its result and reason too). @param {number} id */
async function gameRecord(id) {
  const text = await (await fetch(`/api/games/${id}/record`)).text();
  const data = await api("/api/record/import", {text, names: settings.names});
  const record = data.games[0];
  setAddress("/");
  await analysis({start: record.start, record, message: `game ${id}: ←/→ step through its ${record.moves.length} moves`});
}

/** Where the page goes; the controllers call it too. */
const app = {
  /** @param {any} route */
  async go(route) {
    try {
      if (route.page === "analysis") {
        setAddress(route.start && route.start !== "w 12/12" ? `/?pos=${encodeURIComponent(route.start)}` : "/");
        await analysis({start: route.start || "w 12/12"});
      } else if (route.page === "analysis-here") {
        setAddress("/");
        await analysis({start: route.line.start, moves: route.line.moves});
      } else if (route.page === "analysis-game") {
        await gameRecord(route.id);
      } else if (route.page === "study") {
        await analysis({start: "w 12/12", study: route.id});
      } else if (route.page === "game") {
        await game(route.id);
      } else if (route.page === "new-game") {
        const body = {pos: route.pos, moves: route.moves, ...(route.setup || chosenSetup())};
        const data = await api("/api/games", body);
        sessionStorage.setItem(`emergo-game-${data.id}-from`, String(data.line ? data.line.moves.length : route.moves.length));
        await game(data.id);
      }
    } catch (e) {
      say(errorText(e));
    }
  },
};

/** Leave the game shown (asking first while it is under way), then do `then`. @param {() => void} then */
async function leaving(then) {
  if (controller && "msg" in controller && controller.msg && !controller.msg.state.outcome) {
    const clock = controller.msg.clock ? " Its clock keeps running." : "";
    if (!(await ask(`Leave game ${controller.id}? It stays in Saved games, to resume.${clock}`, "Leave game", "Stay"))) return;
  }
  then();
}

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
  if (isHex()) return say(HEX_VIEW, false);
  changeSettings({view: settings.view === "diamond" ? "checker" : "diamond"});
}

function wire() {
  initConfirm();
  wireSetup();
  initSaved({
    resume: (id) => leaving(() => app.go({page: "game", id})),
    replay: (id) => leaving(() => app.go({page: "analysis-game", id})),
    openStudy: (id) => leaving(() => app.go({page: "study", id})),
    deleted: (kind, id) => {
      if (kind === "game" && controller && "msg" in controller && controller.id === id) app.go({page: "analysis"});
    },
  });
  $("view").addEventListener("click", toggleView);
  $("flip").addEventListener("click", () => changeSettings({flipped: !settings.flipped}));
  $("coords").addEventListener("click", () => changeSettings({coordinates: !settings.coordinates}));
  $("names").addEventListener("click", () => {
    if (!isHex()) changeSettings({names: settings.names === "oblique" ? "checker" : "oblique"});
  });
  $("anim").addEventListener("click", () => changeSettings({animation: !settings.animation}));
  $("theme").addEventListener("click", () => changeSettings({theme: settings.theme === "dark" ? "light" : "dark"}));
  $("sound").addEventListener("click", () => changeSettings({sound: !settings.sound}));
  /** @type {[string, string][]} */
  const boards = [["new9", "w 12/12"], ["new7", "7x7 w 8/8"], ["newhex", "hex w 12/12"]];
  for (const [id, start] of boards) $(id).addEventListener("click", () => leaving(() => app.go({page: "analysis", start})));
  $("pos-load").addEventListener("click", () => leaving(() => app.go({page: "analysis", start: input("pos-text").value})));
  document.addEventListener("keydown", (e) => {
    const target = /** @type {HTMLElement} */ (e.target);
    if (target.closest("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "f") changeSettings({flipped: !settings.flipped});
    else if (e.key === "v") toggleView();
    else if (!controller || !controller.key(e)) return;
    e.preventDefault();
  });
}

async function main() {
  const params = new URLSearchParams(location.search);
  const moves = (params.get("moves") || "").split(/[\s,]+/).filter(Boolean);
  const pos = params.get("pos") || "w 12/12";
  const plain = !params.get("game") && !params.get("study");
  // The settings and the position are asked for at once: the first board waits for one trip.
  const first = plain ? api("/api/position", {pos, moves}).catch(() => null) : null;
  if (params.get("game")) playModule(); // read while the answers come
  wire();
  await loadSettings(params);
  applySettings();
  setTimeout(refreshSaved, 0); // after the first board: it does not compete with it
  try {
    if (params.get("study")) await analysis({start: "w 12/12", study: Number(params.get("study"))});
    else if (params.get("game")) await game(Number(params.get("game")));
    else await analysis({start: pos, moves, answer: (await first) || undefined});
  } catch (e) {
    say(errorText(e));
    await analysis({start: "w 12/12"}).catch(() => {});
  }
  performance.mark("emergo-board-drawn");
  document.documentElement.dataset.ready = "1";
}

main();
