// Built from static/page/ and static/board/ by tools/web-check/build.mjs: do not edit.
// ../../src/emergo/web/static/page/api.js
var ApiError = class extends Error {
  /** @param {string} message @param {number} status @param {Record<string, unknown>} body */
  constructor(message, status, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
};
var always = {};
function useCsrf(token) {
  if (token) always["x-csrf-token"] = token;
}
async function api(path, body, method) {
  const init = { method: method || (body === void 0 ? "GET" : "POST"), headers: { ...always } };
  if (body !== void 0) {
    init.headers = { ...always, "content-type": "application/json" };
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data;
  try {
    data = await response.json();
  } catch {
    data = { error: `the server answered ${response.status}` };
  }
  if (!response.ok) {
    const d = (
      /** @type {Record<string, unknown>} */
      data
    );
    throw new ApiError(String(d.error || response.statusText), response.status, d);
  }
  return data;
}

// ../../src/emergo/web/static/page/dom.js
function $(id) {
  const el2 = document.getElementById(id);
  if (!el2) throw new Error(`no element #${id}`);
  return el2;
}
var input = (id) => (
  /** @type {HTMLInputElement} */
  $(id)
);
var select = (id) => (
  /** @type {HTMLSelectElement} */
  $(id)
);
var buttonEl = (id) => (
  /** @type {HTMLButtonElement} */
  $(id)
);
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== void 0) e.textContent = text;
  return e;
}
function button(label, action, cls) {
  const b = (
    /** @type {HTMLButtonElement} */
    el("button", cls, label)
  );
  b.type = "button";
  b.addEventListener("click", action);
  return b;
}
function say(text, error = true) {
  const m = $("message");
  m.textContent = text;
  m.classList.toggle("info", !error);
}
var errorText = (e) => e instanceof Error ? e.message : String(e);

// ../../src/emergo/web/static/page/settings.js
var settings = { view: "diamond", names: "oblique", theme: "light", coordinates: true, animation: true, flipped: false, sound: true };
var listeners = /* @__PURE__ */ new Set();
var BROWSER_KEY = "emergo-settings";
var keep = {
  load: () => api("/api/settings"),
  /** @param {Partial<Settings>} change */
  save: (change) => api("/api/settings", change, "PUT")
};
function keepSettingsInBrowser() {
  const read = () => {
    try {
      return JSON.parse(localStorage.getItem(BROWSER_KEY) || "{}");
    } catch {
      return {};
    }
  };
  keep = {
    load: async () => read(),
    save: async (change) => localStorage.setItem(BROWSER_KEY, JSON.stringify({ ...read(), ...change }))
  };
}
function onSettings(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}
var boardSettings = () => ({
  view: settings.view,
  names: settings.names,
  coordinates: settings.coordinates,
  flipped: settings.flipped,
  animation: { enabled: settings.animation, jump: 220 }
});
function applySettings() {
  document.documentElement.dataset.theme = settings.theme;
  const pressed = [
    ["view", settings.view === "checker"],
    ["flip", settings.flipped],
    ["coords", settings.coordinates],
    ["names", settings.names === "checker"],
    ["anim", settings.animation],
    ["theme", settings.theme === "dark"],
    ["sound", settings.sound]
  ];
  for (const [id, on] of pressed) document.getElementById(id)?.setAttribute("aria-pressed", String(on));
  for (const f of listeners) f();
}
function changeSettings(change, save = true) {
  Object.assign(settings, change);
  applySettings();
  if (save) keep.save(change).catch(() => {
  });
}
async function loadSettings(params) {
  try {
    Object.assign(settings, await keep.load());
  } catch {
  }
  for (
    const key of
    /** @type {(keyof Settings)[]} */
    ["view", "names", "theme"]
  ) {
    const value = params.get(key);
    if (value) Object.assign(settings, { [key]: value });
  }
  if (params.has("flip")) settings.flipped = params.get("flip") === "1";
  if (params.has("animation")) settings.animation = params.get("animation") === "1";
  if (params.has("sound")) settings.sound = params.get("sound") === "1";
}

// ../../src/emergo/web/static/page/online.js
function pageData(root) {
  const d = root.dataset;
  return { ...d, me: d.me || "", csrf: d.csrf || "", profiles: d.profiles === "1" };
}
async function initOnline(data) {
  keepSettingsInBrowser();
  await loadSettings(new URLSearchParams(location.search));
  applySettings();
  if (data) useCsrf(data.csrf);
  document.getElementById("theme")?.addEventListener("click", () => changeSettings({ theme: settings.theme === "dark" ? "light" : "dark" }));
  document.getElementById("sound")?.addEventListener("click", () => changeSettings({ sound: !settings.sound }));
}
function personEl(person, profiles) {
  const box = el("span", "person");
  if (!person || !person.name) {
    box.textContent = "?";
    return box;
  }
  if (person.title) box.append(el("span", "title", person.title), " ");
  const deleted = person.name === "(deleted)";
  if (profiles && !deleted) {
    const a = (
      /** @type {HTMLAnchorElement} */
      el("a", "name-link", person.name)
    );
    a.href = `/@/${encodeURIComponent(person.name)}`;
    box.append(a);
  } else box.append(el("span", "name-text", person.name));
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
var socketPath = (path, data) => data.csrf ? `${path}?csrf=${encodeURIComponent(data.csrf)}` : path;

export {
  api,
  $,
  input,
  select,
  buttonEl,
  el,
  button,
  say,
  errorText,
  settings,
  onSettings,
  boardSettings,
  changeSettings,
  pageData,
  initOnline,
  personEl,
  socketPath
};
