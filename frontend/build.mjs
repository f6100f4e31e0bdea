// Builds the one bundle of the server's pages, src/emergo/server/static/built/emergo.js, from
// src/emergo.js and what it imports (the board component included): one file with a fixed name,
// minified, that every page loads (its <body data-page> says which controller runs). The bundle
// is committed (users need no Node); `node build.mjs --check` (npm run check) fails when it is
// not what the sources make.
import {build} from "esbuild";
import {mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {basename, join} from "node:path";
import {fileURLToPath} from "node:url";

const ROOT = fileURLToPath(new URL(".", import.meta.url));
const DIST = fileURLToPath(new URL("../src/emergo/server/static/built/", import.meta.url));
const check = process.argv.includes("--check");

const result = await build({
  entryPoints: [join(ROOT, "src", "emergo.js")],
  bundle: true,
  format: "esm",
  outdir: DIST,
  entryNames: "[name]",
  target: "es2022",
  minify: true,
  legalComments: "none",
  charset: "utf8",
  write: false,
  logLevel: "warning",
});
const banner = "// Built from frontend/src by frontend/build.mjs: do not edit.\n";
const files = new Map(result.outputFiles.map((f) => [basename(f.path), banner + f.text]));
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
  console.log(`static/built: ${[...files.keys()].join(", ")} (${[...files.values()].map((t) => t.length).join(", ")} bytes)`);
}
