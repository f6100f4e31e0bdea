// @ts-check
/**
 * page/study.js: a study on the analysis board (`/study/ID`, `/study/ID/CHAPTER`): the chapter's
 * tree opened from `GET /api/study/ID/CHAPTER`, the study's panel (its chapters, name, who may
 * read it, its address, its records), and for its owner every edit of the tree saved by node
 * path (`POST /api/study/ID/CHAPTER {rev, edits}`), 0.4 s after the last one (a burst of moves
 * is one save). A chapter changed elsewhere since it was read (another tab) is read again and
 * said so. Anyone else explores the chapter on the board; nothing of it is saved. `<html
 * data-study>` says where the saving is: pending, saving, saved or error.
 *
 * @typedef {import("./analysis.js").Edit} Edit
 * @typedef {{id: string, name: string, variant: string, nodes: number, rev: number}} ChapterInfo
 * @typedef {{id: string, name: string, owner: string, visibility: string, chapters: ChapterInfo[], mine: boolean}} StudyInfo
 */
import {api, ApiError} from "./api.js";
import {$, el, errorText, input, say, select} from "./dom.js";
import {ask} from "./confirm.js";

/** @param {string} state */
const mark = (state) => {
  document.documentElement.dataset.study = state;
  const words = {pending: "changes not saved yet", saving: "saving ...", saved: "saved", error: "not saved"};
  $("study-state").textContent = /** @type {Record<string, string>} */ (words)[state] || state;
};

/** Edits as one save sends them: a field set twice on one node, set once (pure). @param {Edit[]} edits */
export function coalesce(edits) {
  /** @type {Edit[]} */
  const out = [];
  for (const edit of edits) {
    const last = out[out.length - 1];
    const fields = (/** @type {Edit} */ e) => Object.keys(e).filter((k) => k !== "op" && k !== "path").sort().join();
    if (last && last.op === "set" && edit.op === "set" && last.path.join() === edit.path.join() && fields(last) === fields(edit)) out[out.length - 1] = edit;
    else out.push(edit);
  }
  return out;
}

export class StudyPage {
  /**
   * @param {string} id @param {string} chapter
   * @param {(tree: any, message?: string) => Promise<void>} open opens a chapter's tree on the board
   */
  constructor(id, chapter, open) {
    this.id = id;
    this.chapter = chapter;
    this.open = open;
    /** @type {StudyInfo|null} */
    this.study = null;
    this.rev = 0;
    /** @type {Edit[]} */
    this.queue = [];
    this.timer = 0;
    this.saving = false;
    /** Still the board of the study (not a new board the page moved to). */
    this.active = true;
    /** A visitor was told that nothing he does here is saved. */
    this.warned = false;
  }

  get mine() {
    return !!this.study && this.study.mine;
  }

  /** Read the chapter and show it with the study's panel. @param {string} [message] */
  async load(message) {
    const data = await api(`/api/study/${this.id}/${this.chapter}`);
    this.study = data.study;
    this.rev = data.rev;
    this.queue = [];
    this.drawPanel();
    await this.open(data.tree, message);
    mark("saved");
  }

  drawPanel() {
    const study = /** @type {StudyInfo} */ (this.study);
    $("study-name").textContent = study.name;
    $("study-by").textContent = `by ${study.owner} · ${study.visibility}`;
    const list = $("chapters");
    list.replaceChildren();
    for (const c of study.chapters) {
      const li = el("li", c.id === this.chapter ? "current" : "");
      const a = /** @type {HTMLAnchorElement} */ (el("a", "", c.name));
      a.href = `/study/${this.id}/${c.id}`;
      if (c.id === this.chapter) a.setAttribute("aria-current", "page");
      li.append(a, " ", el("span", "note", `${c.variant}, ${c.nodes} move${c.nodes === 1 ? "" : "s"}`));
      list.append(li);
    }
    const link = `${location.origin}/study/${this.id}/${this.chapter}`;
    input("study-link").value = link;
    /** @type {HTMLAnchorElement} */ ($("chapter-egn")).href = `/study/${this.id}/${this.chapter}.egn`;
    /** @type {HTMLAnchorElement} */ ($("study-egn")).href = `/study/${this.id}.egn`;
    $("study-tools").hidden = !study.mine;
    if (study.mine) {
      input("study-rename").value = study.name;
      select("study-visibility").value = study.visibility;
      const current = study.chapters.find((c) => c.id === this.chapter);
      input("chapter-rename").value = current ? current.name : "";
      /** @type {HTMLButtonElement} */ ($("chapter-delete")).disabled = study.chapters.length < 2;
    }
    $("save-study").hidden = study.mine || !document.querySelector(".site-top .who[data-me]");
  }

  /** Wire the panel's controls (once for the page). @param {() => string} position the position shown (R22) */
  wire(position) {
    $("study-copy").addEventListener("click", async () => {
      input("study-link").select();
      try {
        await navigator.clipboard.writeText(input("study-link").value);
        say("the address is copied", false);
      } catch {
        say("select the address and copy it", false);
      }
    });
    const change = async (/** @type {Record<string, string>} */ body) => {
      try {
        const study = await api(`/api/study/${this.id}`, body);
        this.study = {...study, mine: true};
        this.drawPanel();
      } catch (e) {
        say(errorText(e));
      }
    };
    input("study-rename").addEventListener("change", () => change({name: input("study-rename").value}));
    select("study-visibility").addEventListener("change", () => change({visibility: select("study-visibility").value}));
    input("chapter-rename").addEventListener("change", async () => {
      try {
        const info = await api(`/api/study/${this.id}/${this.chapter}`, {name: input("chapter-rename").value});
        this.rev = info.rev;
        await this.refresh();
      } catch (e) {
        say(errorText(e));
      }
    });
    $("chapter-new").addEventListener("click", async () => {
      try {
        const made = await api(`/api/study/${this.id}/import`, {pos: position(), name: `Chapter ${(this.study?.chapters.length || 0) + 1}`});
        location.assign(`/study/${this.id}/${made.chapters[0].id}`);
      } catch (e) {
        say(errorText(e));
      }
    });
    $("chapter-delete").addEventListener("click", async () => {
      const name = input("chapter-rename").value;
      if (!(await ask(`Delete the chapter ${name}? Its moves and comments go with it.`, "Delete"))) return;
      try {
        await api(`/api/study/${this.id}/${this.chapter}`, undefined, "DELETE");
        location.assign(`/study/${this.id}`);
      } catch (e) {
        say(errorText(e));
      }
    });
  }

  /** The study's list of chapters again (after a rename). */
  async refresh() {
    const study = await api(`/api/study/${this.id}`);
    this.study = {...study, mine: this.mine};
    this.drawPanel();
  }

  /** An edit of the tree shown: the owner's is saved soon. @param {Edit} edit */
  edited(edit) {
    if (!this.active) return;
    if (!this.mine) {
      if (!this.warned) say("this study is not yours: your moves and notes here are not saved (Save as a study keeps a copy)", false);
      this.warned = true;
      return;
    }
    this.queue.push(edit);
    mark("pending");
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.save(), 400);
  }

  async save() {
    if (this.saving || !this.queue.length) return;
    this.saving = true;
    const edits = coalesce(this.queue.splice(0));
    mark("saving");
    try {
      const info = await api(`/api/study/${this.id}/${this.chapter}`, {rev: this.rev, edits});
      this.rev = info.rev;
      mark(this.queue.length ? "pending" : "saved");
    } catch (e) {
      mark("error");
      this.queue = [];
      if (e instanceof ApiError && e.status === 409) await this.load(String(e.body.words || errorText(e)));
      else {
        say(`the study is not saved: ${errorText(e)}; it is shown as it is saved`);
        await this.load().catch(() => {});
      }
    } finally {
      this.saving = false;
      if (this.queue.length) this.save();
    }
  }

  /** Leave the study for a new board (its saves done): nothing more is saved. */
  leave() {
    if (this.queue.length) this.save();
    this.active = false;
    $("study-panel").hidden = true;
  }

  /**
   * A record imported on the study's page: for its owner, each game a new chapter (then the
   * first of them is shown); false for anyone else (the board opens it, as on /analysis).
   * @param {string} text
   */
  async importRecord(text) {
    if (!this.mine || !this.active) return false;
    const made = await api(`/api/study/${this.id}/import`, {record: text});
    location.assign(`/study/${this.id}/${made.chapters[0].id}`);
    return true;
  }
}

/**
 * A new private study of the signed-in player from a record's text (the board's tree); its
 * address.
 * @param {string} text @param {string} name
 */
export async function saveAsStudy(text, name) {
  const study = await api("/api/study", {name, visibility: "private", record: text, chapter: name});
  return `/study/${study.id}/${study.chapters[0].id}`;
}
