// @ts-check
/**
 * emergo.js: the bundle's entry. Every page of the server loads it and runs the controller its
 * `<body data-page>` names, each a chunk of its own loaded here (the server's page shell
 * preloads the chunks of its page, static/built/pages.json, so they come in parallel, not one
 * after another); a page without a controller of its own (the forms) gets the site's theme and
 * its site-wide channel. build.mjs reads the page names from this table (`name: () =>
 * import("./page/FILE.js")`), one line a page.
 */

/** @type {Record<string, () => Promise<unknown>>} */
const PAGES = {
  analysis: () => import("./page/analysis-page.js").then((m) => m.startAnalysis()),
  lobby: () => import("./page/lobby.js").then((m) => m.startLobby()),
  game: () => import("./page/game.js").then((m) => m.startGame()),
  learn: () => import("./page/learn.js").then((m) => m.startLearn()),
  training: () => import("./page/training.js").then((m) => m.startTraining()),
  event: () => import("./page/event.js").then((m) => m.startEvent()),
  forms: () => import("./page/site.js").then((m) => m.startForms()),
};

(PAGES[document.body.dataset.page || "forms"] || PAGES.forms)();
