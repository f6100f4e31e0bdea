// @ts-check
/**
 * emergo.js: the one bundle's entry. Every page of the server loads it and runs the controller
 * its `<body data-page>` names; a page without a controller of its own (the forms) gets the
 * site's theme and its site-wide channel.
 */
import {startAnalysis} from "./page/analysis-page.js";
import {startEvent} from "./page/event.js";
import {startGame} from "./page/game.js";
import {startLearn} from "./page/learn.js";
import {startLobby} from "./page/lobby.js";
import {startForms} from "./page/site.js";
import {startTraining} from "./page/training.js";

/** @type {Record<string, () => unknown>} */
const PAGES = {analysis: startAnalysis, lobby: startLobby, game: startGame, learn: startLearn, training: startTraining, event: startEvent, forms: startForms};

(PAGES[document.body.dataset.page || "forms"] || startForms)();
