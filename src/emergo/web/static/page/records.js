// @ts-check
/**
 * page/records.js: the analysis board's main line written as a record (`/api/record/export`):
 * its hand-written comments and marks, the tags of the record it was read from, today's date,
 * and the result where the record had one (at the same end).
 *
 * @typedef {import("./tree.js").Tree} Tree
 * @typedef {import("./tree.js").TreeNode} TreeNode
 * @typedef {import("../board/types.js").MoveInfo} MoveInfo
 */
import {api} from "./api.js";
import {$} from "./dom.js";
import {recordDate} from "./format.js";
import {settings} from "./settings.js";

/**
 * The record's text.
 * @param {Tree} tree @param {Record<string, string>} tags @param {TreeNode|null} ended where the read record ended
 * @returns {Promise<string>}
 */
export async function exportRecord(tree, tags, ended) {
  const main = tree.mainLine();
  const {comments, marks} = tree.annotations();
  /** @type {Record<string, string>} */
  const all = {Date: recordDate(new Date()), ...tags};
  const end = main.length ? main[main.length - 1] : tree.root;
  if (ended !== end) {
    delete all.Result;
    delete all.Termination;
  }
  const body = {pos: tree.start, moves: main.map((n) => /** @type {MoveInfo} */ (n.move).text), names: settings.names, tags: all, comments, marks};
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
