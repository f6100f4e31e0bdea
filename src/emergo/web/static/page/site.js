// @ts-check
/**
 * page/site.js: the script of the online site's server-rendered pages (sign up, log in, the
 * account, an invitation): they work without it; it only shows them in the theme chosen on the
 * site's other pages (kept in this browser).
 */
import {initOnline} from "./online.js";

initOnline().finally(() => {
  document.documentElement.dataset.ready = "1";
});
