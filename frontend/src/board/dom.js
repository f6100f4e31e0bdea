// @ts-check
/** board/dom.js: the two element makers the board's modules share. */

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * An SVG element with attributes, appended to `parent` when given.
 * @param {string} tag @param {Record<string, string|number>} [attrs] @param {Element} [parent]
 * @returns {SVGElement}
 */
export function svg(tag, attrs = {}, parent) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (parent) parent.appendChild(el);
  return el;
}

/**
 * An HTML element with a class, appended to `parent` when given.
 * @param {string} tag @param {string} [cls] @param {Element} [parent]
 * @returns {HTMLElement}
 */
export function html(tag, cls, parent) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (parent) parent.appendChild(el);
  return el;
}
