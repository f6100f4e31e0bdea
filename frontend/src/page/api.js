// @ts-check
/** page/api.js: JSON requests to the server (docs/web.md lists the API). */

export class ApiError extends Error {
  /** @param {string} message @param {number} status @param {Record<string, unknown>} body */
  constructor(message, status, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/** Headers every request sends (the online site's CSRF token, for a signed-in page). @type {Record<string, string>} */
const always = {};

/** Send the session's CSRF token with every request (the online site's pages). @param {string} token */
export function useCsrf(token) {
  if (token) always["x-csrf-token"] = token;
}

/** A socket's path for this page: with the session's CSRF token, which the Socket sends as a subprotocol (socket.js's `socketTarget`). @param {string} path */
export function signedSocketPath(path) {
  const csrf = always["x-csrf-token"];
  return csrf ? `${path}${path.includes("?") ? "&" : "?"}csrf=${encodeURIComponent(csrf)}` : path;
}

/**
 * A JSON request: GET without a body, POST with one, or `method`.
 * @param {string} path @param {unknown} [body] @param {string} [method]
 * @returns {Promise<any>}
 */
export async function api(path, body, method) {
  /** @type {RequestInit} */
  const init = {method: method || (body === undefined ? "GET" : "POST"), headers: {...always}};
  if (body !== undefined) {
    init.headers = {...always, "content-type": "application/json"};
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data;
  try {
    data = await response.json();
  } catch {
    data = {error: `the server answered ${response.status}`};
  }
  if (!response.ok) {
    const d = /** @type {Record<string, unknown>} */ (data);
    throw new ApiError(String(d.error || response.statusText), response.status, d);
  }
  return data;
}
