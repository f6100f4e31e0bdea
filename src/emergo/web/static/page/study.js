// @ts-check
/**
 * page/study.js: the analysis board's tree kept on the server as a study (`/api/studies`),
 * saved 0.4 s after the last edit (a burst of moves is one save); the address becomes
 * `?study=ID`. `<html data-study>` says where the saving is: pending, saving, saved or error.
 */
import {api} from "./api.js";
import {errorText, say} from "./dom.js";
import {refreshSaved} from "./saved.js";

/** @param {string} state */
const mark = (state) => {
  document.documentElement.dataset.study = state;
};

export class Study {
  /** @param {() => {start: string, tree: any[]}} body the tree as the server takes it */
  constructor(body) {
    this.body = body;
    /** The study the tree is saved as; null until the first edit. @type {number|null} */
    this.id = null;
    this.epoch = 0;
    this.timer = 0;
    this.saving = false;
    this.again = false;
    /** Edits made so far: "saved" only when the last save carried the latest one. */
    this.edits = 0;
  }

  /** A study opened from the store: the tree shown is it. @param {number} id */
  opened(id) {
    this.id = id;
    history.replaceState(null, "", `/?study=${id}`);
    mark("saved");
  }

  /** A new tree: the study is no longer the one shown (its saved copy stays). */
  forget() {
    this.epoch++;
    clearTimeout(this.timer);
    if (this.id === null) return;
    this.id = null;
    if (new URL(location.href).searchParams.has("study")) history.replaceState(null, "", "/");
  }

  /** The tree was edited: save it soon. @param {boolean} empty the tree has no move */
  changed(empty) {
    if (this.id === null && empty) return;
    this.edits++;
    mark("pending");
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.save(), 400);
  }

  async save() {
    if (this.saving) {
      this.again = true;
      return;
    }
    this.saving = true;
    const epoch = this.epoch;
    const sent = this.edits;
    mark("saving");
    try {
      if (this.id === null) {
        const data = await api("/api/studies", this.body());
        if (epoch === this.epoch) {
          this.id = data.id;
          history.replaceState(null, "", `/?study=${data.id}`);
          refreshSaved();
        }
      } else {
        await api(`/api/studies/${this.id}`, this.body(), "PUT");
      }
      if (epoch === this.epoch) mark(this.edits === sent ? "saved" : "pending");
    } catch (e) {
      mark("error");
      say(`the study is not saved: ${errorText(e)}`);
    } finally {
      this.saving = false;
      if (this.again) {
        this.again = false;
        if (epoch === this.epoch) this.save();
      }
    }
  }
}
