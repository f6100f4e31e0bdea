// @ts-check
/**
 * page/records.js: the analysis board's tree written as a record (`/api/record/export` with the
 * tree in the record's JSON form): its variations, comments, NAGs, clocks, arrows and circles,
 * the tags of the record it was read from, today's date, and the result where the record had
 * one (at the same end; a result by the rules the server writes by itself).
 *
 * @typedef {import("./tree.js").Tree} Tree
 * @typedef {import("./tree.js").TreeNode} TreeNode
 */
import {api} from "./api.js";
import {$} from "./dom.js";
import {recordDate} from "./format.js";
import {settings} from "./settings.js";

/**
 * The tags a tree's record carries: the record's own, today's date unless it had one, the
 * start (the variant and the position), the result only where the record ended.
 * @param {Tree} tree @param {string} variant @param {Record<string, string>} tags @param {TreeNode|null} ended where the read record ended
 * @returns {Record<string, string>}
 */
export function recordTags(tree, variant, tags, ended) {
  /** @type {Record<string, string>} */
  const all = {Date: recordDate(new Date()), ...tags, Variant: variant, Position: tree.start};
  delete all.Names; // the JSON form's moves are in oblique names
  if (ended !== tree.mainEnd) {
    delete all.Result;
    delete all.Termination;
  }
  return all;
}

/**
 * The record's text.
 * @param {Tree} tree @param {string} variant @param {Record<string, string>} tags @param {TreeNode|null} ended
 * @returns {Promise<string>}
 */
export async function exportRecord(tree, variant, tags, ended) {
  const body = {tree: tree.toJson(recordTags(tree, variant, tags, ended)), names: settings.names};
  return (await api("/api/record/export", body)).text;
}

/** Put a record in the record box, with a link to download it. @param {string} text */
export function showRecord(text) {
  /** @type {HTMLTextAreaElement} */ ($("record")).value = text;
  const link = /** @type {HTMLAnchorElement} */ ($("download"));
  if (link.href) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([text], {type: "text/plain"}));
  link.hidden = false;
}
