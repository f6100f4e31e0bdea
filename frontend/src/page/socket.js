// @ts-check
/**
 * page/socket.js: the one way the pages talk to the server over WebSockets (lila's socket, in
 * small). A Socket connects, sends JSON, hands every message to the page, and comes back by itself
 * when the connection drops. A versioned socket (a game) also keeps the highest `version` it has
 * seen: a full state older than that is dropped, and an event that skips a version (one was
 * missed) makes it resync: it reconnects, and the server sends the whole state at once (or, where
 * the server has a message for it, `resyncMessage`, it asks on the same connection). The local
 * app's messages carry `version`; the online site's carry `v` (`versionOf`), and there an event
 * of a version already seen is a duplicate (`dedupe`).
 *
 * @typedef {{
 *   onMessage: (msg: any) => void,
 *   onStatus?: (status: "open"|"lost"|"closed") => void,
 *   versioned?: boolean,
 *   reconnect?: boolean,
 *   isState?: (msg: any) => boolean,
 *   versionOf?: (msg: any) => unknown,
 *   dedupe?: boolean,
 *   resyncMessage?: Record<string, unknown>,
 * }} SocketOptions
 */

/** ws:// or wss:// to a path of this server. @param {string} path */
export const socketUrl = (path) => `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;

/**
 * Where a socket connects (pure): its path, and the subprotocols it offers. A `?csrf=` token in
 * the path (the online site's signed-in pages) travels as the subprotocol `csrf.TOKEN` beside
 * `emergo`, in a header, never in the URL: proxies and servers write URLs to their access logs.
 * @param {string} path
 * @returns {{path: string, protocols: string[]|undefined}}
 */
export function socketTarget(path) {
  const at = path.indexOf("?");
  if (at < 0) return {path, protocols: undefined};
  const params = new URLSearchParams(path.slice(at + 1));
  const csrf = params.get("csrf");
  if (!csrf) return {path, protocols: undefined};
  params.delete("csrf");
  const rest = params.toString();
  return {path: path.slice(0, at) + (rest ? `?${rest}` : ""), protocols: ["emergo", `csrf.${csrf}`]};
}

/**
 * The version rule (pure): what to do with a message, given the highest version seen.
 * @param {any} msg @param {number} known @param {(msg: any) => boolean} isState
 * @param {(msg: any) => unknown} [versionOf] where a message holds its version
 * @param {boolean} [dedupe] an event of a version already seen is a duplicate ("stale")
 * @returns {"take"|"stale"|"gap"}
 */
export function versionCheck(msg, known, isState, versionOf = (m) => m?.version, dedupe = false) {
  const version = versionOf(msg);
  if (typeof version !== "number" || known < 0) return "take";
  if (isState(msg)) return version < known ? "stale" : "take";
  if (dedupe && version <= known) return "stale";
  return version > known + 1 ? "gap" : "take";
}

export class Socket {
  /** @param {string} path @param {SocketOptions} options */
  constructor(path, options) {
    this.path = path;
    this.options = options;
    /** The highest version seen (-1: none yet). */
    this.version = -1;
    this.closed = false;
    this.retry = 0;
    /** A resync asked for on the connection: events wait for the whole state. */
    this.resyncing = false;
    /** @type {WebSocket|null} */
    this.ws = null;
    /** @type {Promise<void>} */
    this.opened = this.open();
  }

  /** @returns {Promise<void>} */
  open() {
    const target = socketTarget(this.path);
    const ws = new WebSocket(socketUrl(target.path), target.protocols);
    this.ws = ws;
    this.resyncing = false;
    const isState = this.options.isState || ((/** @type {any} */ m) => m.type === "state");
    const versionOf = this.options.versionOf || ((/** @type {any} */ m) => m?.version);
    ws.addEventListener("message", (e) => {
      if (this.ws !== ws || this.closed) return;
      const msg = JSON.parse(String(e.data));
      if (this.options.versioned) {
        const version = versionOf(msg);
        if (this.resyncing && !isState(msg) && typeof version === "number") return; // the whole state is on its way
        const verdict = versionCheck(msg, this.version, isState, versionOf, this.options.dedupe);
        if (verdict === "stale") return;
        if (verdict === "gap") return this.resync();
        if (isState(msg)) this.resyncing = false;
        if (typeof version === "number") this.version = Math.max(this.version, version);
      }
      this.options.onMessage(msg);
    });
    ws.addEventListener("close", (e) => {
      if (this.ws !== ws || this.closed) return;
      if (e.code === 4404 || !this.options.reconnect) {
        this.closed = true;
        this.options.onStatus?.("closed");
        return;
      }
      this.retry = Math.min(this.retry + 1, 10);
      this.options.onStatus?.("lost");
      setTimeout(() => {
        if (!this.closed && this.ws === ws) this.opened = this.open();
      }, 200 * this.retry);
    });
    /** @type {Promise<void>} */
    const opening = new Promise((resolve, reject) => {
      ws.addEventListener("open", () => {
        this.retry = 0;
        if (this.ws === ws) this.options.onStatus?.("open");
        resolve();
      }, {once: true});
      ws.addEventListener("error", () => reject(new Error("cannot reach the server")), {once: true});
    });
    // A reconnection that fails is retried by the close handler: its rejection is no page error
    // (a caller awaiting `opened` still sees it).
    opening.catch(() => {});
    return opening;
  }

  /** A version was skipped: start again from the server's whole state. */
  resync() {
    if (this.options.resyncMessage && this.send(this.options.resyncMessage)) {
      this.resyncing = true;
      return;
    }
    const old = this.ws;
    this.ws = null;
    old?.close();
    this.opened = this.open();
  }

  get connected() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  /** Send a message now; false when not connected. @param {Record<string, unknown>} msg */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  close() {
    this.closed = true;
    this.ws?.close();
    this.ws = null;
  }
}
