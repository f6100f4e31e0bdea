// @ts-check
/**
 * page/saved.js: the saved games and studies, newest first, each with what can be done with it.
 * The list is drawn again whenever the page knows it changed (a game started or ended, a study
 * saved, something deleted) and when the tab comes back into view, so it is never stale.
 *
 * @typedef {{resume: (id: number) => void, replay: (id: number) => void, openStudy: (id: number) => void,
 *   deleted: (kind: "game"|"study", id: number) => void}} SavedActions
 */
import {api} from "./api.js";
import {$, button, el} from "./dom.js";

/** @type {SavedActions|null} */
let actions = null;
let asked = 0;

/** Wire the list to the page's actions (once). @param {SavedActions} a */
export function initSaved(a) {
  actions = a;
  $("refresh-games").addEventListener("click", () => refreshSaved());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refreshSaved();
  });
}

/** Ask for the lists and draw them (the latest answer wins). */
export async function refreshSaved() {
  const mine = ++asked;
  let games;
  let studies;
  try {
    [games, studies] = await Promise.all([api("/api/games"), api("/api/studies").catch(() => ({studies: []}))]);
  } catch {
    return;
  }
  if (mine !== asked || !actions) return;
  const a = actions;
  const list = $("games");
  list.replaceChildren();
  for (const g of games.games) {
    const li = el("li");
    li.dataset.game = String(g.id);
    const result = g.result === "*" ? "in progress" : `${g.result}${g.termination ? ` (${g.termination.replace("-", " ")})` : ""}`;
    li.append(el("span", "what", `#${g.id} ${g.white} vs ${g.black} · ${g.variant} · ${result}`));
    li.append(button(g.result === "*" ? "Resume" : "Open", () => a.resume(g.id), "small"));
    li.append(button("Replay", () => a.replay(g.id), "small"));
    const link = /** @type {HTMLAnchorElement} */ (el("a", "button small", "Download"));
    link.href = `/api/games/${g.id}/record`;
    li.append(link);
    li.append(button("Delete", async () => {
      await api(`/api/games/${g.id}`, undefined, "DELETE").catch(() => {});
      a.deleted("game", g.id);
      refreshSaved();
    }, "small"));
    list.append(li);
  }
  for (const st of studies.studies) {
    const li = el("li");
    li.dataset.study = String(st.id);
    li.append(el("span", "what", `Study #${st.id} · ${st.variant} · ${st.nodes} ${st.nodes === 1 ? "move" : "moves"}`));
    li.append(button("Open", () => a.openStudy(st.id), "small"));
    li.append(button("Delete", async () => {
      await api(`/api/studies/${st.id}`, undefined, "DELETE").catch(() => {});
      a.deleted("study", st.id);
      refreshSaved();
    }, "small"));
    list.append(li);
  }
}
