// Builds the page's bundle, src/emergo/web/static/built/: page/main.js and what it imports, the
// board component included, as a few files (one per view, shared chunks) instead of thirty
// modules; the sources stay the modules in static/board/ and static/page/. The bundle is
// committed (users need no Node); `node build.mjs --check` (npm run check) fails when it is not
// what the sources make.
import {build} from "esbuild";
import {mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {basename, join} from "node:path";
import {fileURLToPath} from "node:url";

const STATIC = fileURLToPath(new URL("../../src/emergo/web/static/", import.meta.url));
const DIST = join(STATIC, "built");
const check = process.argv.includes("--check");

const result = await build({
  entryPoints: [join(STATIC, "page", "main.js")],
  bundle: true,
  format: "esm",
  splitting: true,
  outdir: DIST,
  entryNames: "[name]",
  chunkNames: "[name]-[hash]",
  target: "es2022",
  legalComments: "none",
  charset: "utf8",
  write: false,
  logLevel: "warning",
});

const banner = "// Built from static/page/ and static/board/ by tools/web-check/build.mjs: do not edit.\n";
const files = new Map(result.outputFiles.map((f) => [basename(f.path), banner + f.text]));
if (check) {
  const have = readdirSync(DIST).sort();
  const want = [...files.keys()].sort();
  const stale = want.filter((name) => !have.includes(name) || readFileSync(join(DIST, name), "utf8") !== files.get(name));
  const extra = have.filter((name) => !files.has(name));
  if (stale.length || extra.length) {
    console.error(`static/built is not what the sources make (stale: ${stale.join(", ") || "none"}; extra: ${extra.join(", ") || "none"}): run npm run build in tools/web-check`);
    process.exit(1);
  }
} else {
  rmSync(DIST, {recursive: true, force: true});
  mkdirSync(DIST);
  for (const [name, text] of files) writeFileSync(join(DIST, name), text);
  console.log(`static/built: ${[...files.keys()].join(", ")}`);
}
