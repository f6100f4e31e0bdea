// @ts-check
/**
 * page/online.js: what every page of the online site shares: the page's data (who is signed in,
 * the session's CSRF token, written by the server into the page's data attributes), the settings
 * kept in this browser (theme, sound, board view), the header's theme, and players' names as
 * elements: the name as text (never HTML), its BOT title, a link to the player's page when the
 * site has one.
 */
import {useCsrf} from "./api.js";
import {el} from "./dom.js";
import {applySettings, changeSettings, keepSettings, loadSettings, settings, wireAppearance} from "./settings.js";
import {startSitewide} from "./sitewide.js";

/**
 * @typedef {{me: string, csrf: string, profiles: boolean, [key: string]: unknown}} PageData
 * @typedef {{name: string, title?: string|null, id?: string|null, rating?: number, provisional?: boolean,
 *   ratingDiff?: number|null}|null|undefined} Person
 */

/** The page's data attributes (online_shell.py writes them, escaped). @param {HTMLElement} root @returns {PageData} */
export function pageData(root) {
  const d = root.dataset;
  return {...d, me: d.me || "", csrf: d.csrf || "", profiles: d.profiles === "1"};
}

/**
 * The CSRF token for requests, the settings (the account's, or this browser's for a visitor; then
 * the address's: `?animation=0&sound=0` ...), the site-wide channel of a signed-in player
 * (sitewide.js).
 * @param {PageData} [data]
 */
export async function initOnline(data) {
  const who = document.querySelector(".site-top .who");
  const csrf = data ? data.csrf : who?.getAttribute("data-csrf") || "";
  useCsrf(csrf);
  keepSettings(!!(data ? data.me : who?.getAttribute("data-me")));
  await loadSettings(new URLSearchParams(location.search));
  wireAppearance();
  applySettings();
  startSitewide();
  document.getElementById("theme")?.addEventListener("click", () => changeSettings({theme: settings.theme === "dark" ? "light" : "dark"}));
  document.getElementById("sound")?.addEventListener("click", () => changeSettings({sound: !settings.sound}));
  document.getElementById("zen")?.addEventListener("click", () => changeSettings({zen: !settings.zen}));
}

/**
 * A player's name as an element: `BOT` before a bot's, a link to the player's page when the site
 * has profiles; the name is text.
 * @param {Person} person @param {boolean} profiles
 */
export function personEl(person, profiles) {
  const box = el("span", "person");
  if (!person || !person.name) {
    box.textContent = "?";
    return box;
  }
  if (person.title) box.append(el("span", "title", person.title), " ");
  const deleted = person.name === "(deleted)";
  if (profiles && !deleted) {
    const a = /** @type {HTMLAnchorElement} */ (el("a", "name-link", person.name));
    a.href = `/@/${encodeURIComponent(person.name)}`;
    box.append(a);
  } else box.append(el("span", "name-text", person.name));
  // the rating as lichess shows it beside a name: `1500?` while provisional, then the change
  if (typeof person.rating === "number") {
    const rating = el("span", "rating", ` ${person.rating}${person.provisional ? "?" : ""}`);
    if (person.provisional) rating.title = "provisional: too few rated games yet";
    box.append(rating);
  }
  if (typeof person.ratingDiff === "number") {
    const d = person.ratingDiff;
    box.append(el("span", `rating-diff ${d > 0 ? "up" : d < 0 ? "down" : "same"}`, ` ${d > 0 ? "+" : d < 0 ? "−" : "±"}${Math.abs(d)}`));
  }
  return box;
}

/** The socket address of a signed-in page: the CSRF token as `?csrf=` (which the Socket sends as a subprotocol, not in the URL: socket.js's `socketTarget`). @param {string} path @param {PageData} data */
export const socketPath = (path, data) => (data.csrf ? `${path}?csrf=${encodeURIComponent(data.csrf)}` : path);
