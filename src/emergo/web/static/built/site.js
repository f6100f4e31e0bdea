// Built from static/page/ and static/board/ by tools/web-check/build.mjs: do not edit.
import {
  initOnline
} from "./chunk-H4UDQUBU.js";

// ../../src/emergo/web/static/page/site.js
initOnline().finally(() => {
  document.documentElement.dataset.ready = "1";
});
