/**
 * One way from a page to a game that starts: the first call goes, the others do nothing.
 *
 * A new game is announced several times at once: the site-wide channel's gameStart, the lobby's
 * event, the page's own answer (a rematch accepted, play the computer, a practice level). A
 * second `location.assign` aborts the first navigation (the player's browser starts the load
 * again; a test waiting on it saw ERR_ABORTED), so every module of a page goes through here.
 */

let leaving = false;
// a link followed, a reload (not in the unit tests' Node, which has no window)
globalThis.addEventListener?.("beforeunload", () => (leaving = true));

/** Whether this page is on its way elsewhere already. */
export function isLeaving() {
  return leaving;
}

/** Go to game `id`, unless this page is leaving already: whether it goes. @param {string} id */
export function openGame(id) {
  if (leaving) return false;
  leaving = true;
  location.assign(`/game/${encodeURIComponent(id)}`);
  return true;
}
