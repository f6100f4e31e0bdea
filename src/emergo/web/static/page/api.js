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

/**
 * A JSON request: GET without a body, POST with one, or `method`.
 * @param {string} path @param {unknown} [body] @param {string} [method]
 * @returns {Promise<any>}
 */
export async function api(path, body, method) {
  /** @type {RequestInit} */
  const init = {method: method || (body === undefined ? "GET" : "POST"), headers: {}};
  if (body !== undefined) {
    init.headers = {"content-type": "application/json"};
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
