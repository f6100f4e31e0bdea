// @ts-check
/**
 * page/site.js: the script of the online site's server-rendered pages (sign up, log in, the
 * account, an invitation, a player's page): they work without it; it shows them in the theme
 * chosen on the site's other pages (kept in this browser), and on a player's page wires Follow,
 * Block and Report (page/people.js).
 */
import {initOnline} from "./online.js";
import {wirePeople} from "./people.js";

/** Start the page. */
export function startForms() {
  initOnline()
    .then(() => {
      const relation = document.getElementById("relation");
      if (relation) wirePeople(relation);
    })
    .finally(() => {
      document.documentElement.dataset.ready = "1";
    });
}
