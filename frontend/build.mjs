// Builds the server pages' bundle into src/emergo/server/static/built/ from src/emergo.js and
// what it imports (the board component included), minified and split by page: the entry
// emergo.js (a fixed name, that every page loads: its <body data-page> says which controller
// runs), each page's controller a chunk it imports, and the chunks they share (named by their
// content's hash). pages.json says which chunks a page needs (page name -> files, from
// esbuild's metafile): the server's page shell preloads them (core/frame.py). All of it is
// committed (users need no Node); `node build.mjs --check` (npm run check) fails when the
// folder is not exactly what the sources make.
import {build} from "esbuild";
import {mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {basename, join, relative} from "node:path";
import {fileURLToPath} from "node:url";

const ROOT = fileURLToPath(new URL(".", import.meta.url));
const DIST = fileURLToPath(new URL("../src/emergo/server/static/built/", import.meta.url));
const ENTRY = join(ROOT, "src", "emergo.js");
const check = process.argv.includes("--check");

const result = await build({
  entryPoints: [ENTRY],
  bundle: true,
  splitting: true,
  format: "esm",
  outdir: DIST,
  entryNames: "[name]",
  chunkNames: "[name]-[hash]",
  target: "es2022",
  minify: true,
  legalComments: "none",
  charset: "utf8",
  metafile: true,
  write: false,
  logLevel: "warning",
});

// the pages: `name: () => import("./page/FILE.js")` in emergo.js, each an output of the build
const source = readFileSync(ENTRY, "utf8");
const pageFiles = [...source.matchAll(/^\s*(\w+): \(\) => import\("(\.\/[^"]+)"\)/gm)];
const outputs = Object.entries(result.metafile.outputs).map(([path, o]) => ({...o, name: basename(path)}));
const entryOf = (file) => relative(process.cwd(), join(ROOT, "src", file)).replaceAll("\\", "/");
const byName = new Map(outputs.map((o) => [o.name, o]));
/** A file and the chunks it imports statically, all of them (without the entry itself). */
const closure = (name, seen = new Set()) => {
  if (seen.has(name) || name === "emergo.js") return seen;
  seen.add(name);
  for (const i of byName.get(name).imports) if (i.kind === "import-statement") closure(basename(i.path), seen);
  return seen;
};
const shared = [...byName.get("emergo.js").imports].filter((i) => i.kind === "import-statement").map((i) => basename(i.path));
const pages = {};
for (const [, page, file] of pageFiles) {
  const out = outputs.find((o) => o.entryPoint === entryOf(file));
  if (!out) throw new Error(`build.mjs: no output for the page ${page} (${file})`);
  const files = new Set(shared.flatMap((s) => [...closure(s)]));
  for (const f of closure(out.name)) files.add(f);
  pages[page] = [...files];
}
const dynamic = byName.get("emergo.js").imports.filter((i) => i.kind === "dynamic-import").length;
if (pageFiles.length !== dynamic) throw new Error(`build.mjs: emergo.js has ${dynamic} import()s, ${pageFiles.length} page lines`);

const banner = "// Built from frontend/src by frontend/build.mjs: do not edit.\n";
const files = new Map(result.outputFiles.map((f) => [basename(f.path), banner + f.text]));
files.set("pages.json", JSON.stringify(pages, null, 1) + "\n");
if (check) {
  const have = readdirSync(DIST).sort();
  const want = [...files.keys()].sort();
  const stale = want.filter((name) => !have.includes(name) || readFileSync(join(DIST, name), "utf8") !== files.get(name));
  const extra = have.filter((name) => !files.has(name));
  if (stale.length || extra.length) {
    console.error(`static/built is not what the sources make (stale: ${stale.join(", ") || "none"}; extra: ${extra.join(", ") || "none"}): run npm run build in frontend`);
    process.exit(1);
  }
} else {
  rmSync(DIST, {recursive: true, force: true});
  mkdirSync(DIST);
  for (const [name, text] of files) writeFileSync(join(DIST, name), text);
  console.log(`static/built: ${[...files].map(([n, t]) => `${n} ${t.length}`).join(", ")} (bytes)`);
}
