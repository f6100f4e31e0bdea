// @ts-check
/**
 * page/people.js: on a player's page, what another signed-in player does about him: Follow
 * (his new games in your feed), Block (no challenge, pairing or chat between you) and Report
 * (to the moderators, with a reason and what happened). `/api/rel/...` and `/api/report`.
 */
import {api} from "./api.js";
import {errorText} from "./dom.js";

/** The words of the two buttons for a relation. @param {{following: boolean, blocking: boolean}} rel */
export const relationWords = (rel) => ({follow: rel.following ? "Unfollow" : "Follow", block: rel.blocking ? "Unblock" : "Block"});

/** Wire the profile's buttons (the page has them only for another signed-in player). @param {HTMLElement} box */
export function wirePeople(box) {
  const name = box.dataset.user || "";
  const follow = /** @type {HTMLButtonElement} */ (box.querySelector("#follow"));
  const block = /** @type {HTMLButtonElement} */ (box.querySelector("#block"));
  const message = /** @type {HTMLElement} */ (box.querySelector("#rel-message"));
  const form = /** @type {HTMLFormElement} */ (box.querySelector("#report-form"));

  /** @param {{following: boolean, blocking: boolean}} rel */
  function show(rel) {
    const words = relationWords(rel);
    follow.textContent = words.follow;
    block.textContent = words.block;
    follow.setAttribute("aria-pressed", String(rel.following));
    block.setAttribute("aria-pressed", String(rel.blocking));
  }

  /** @param {string} action @param {string} done */
  async function change(action, done) {
    try {
      const rel = await api(`/api/rel/${action}/${encodeURIComponent(name)}`, {});
      show(rel);
      message.textContent = done;
    } catch (e) {
      message.textContent = errorText(e);
    }
  }

  follow.addEventListener("click", () => {
    const on = follow.getAttribute("aria-pressed") === "true";
    change(on ? "unfollow" : "follow", on ? `you no longer follow ${name}` : `you follow ${name}: a notice when they start a game`);
  });
  block.addEventListener("click", () => {
    const on = block.getAttribute("aria-pressed") === "true";
    change(on ? "unblock" : "block", on ? `${name} is no longer blocked` : `${name} is blocked: no challenges, pairing or chat between you`);
  });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = new FormData(form);
    try {
      await api("/api/report", {username: name, reason: String(data.get("reason")), text: String(data.get("text") || "")});
      message.textContent = `${name} is reported: thank you, the moderators will read it`;
      form.reset();
      /** @type {HTMLDetailsElement} */ (box.querySelector("#report")).open = false;
    } catch (err) {
      message.textContent = errorText(err);
    }
  });
}
