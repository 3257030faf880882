// `npm run build`: compiles src/ to dist/ (ESM JavaScript, .d.ts, source maps) with tsconfig.build.json, then
// copies the files tsc does not emit but the compiled code reads next to itself: the chat templates (*.jinja)
// and the plain .mjs worker/control modules of the WASM kernels. Plain JavaScript so it runs before any build.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const src = join(root, "src");
const dist = join(root, "dist");
const ASSET = /\.(jinja|mjs|d\.mts)$/;

rmSync(dist, { recursive: true, force: true }); // no stale modules from renamed or deleted sources
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], { stdio: "inherit" });

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}
for (const file of walk(src).filter((f) => ASSET.test(f))) {
  const target = join(dist, relative(src, file));
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(file, target);
}

// The optional peers' types: a consumer without node-llama-cpp (most users) must still type-check the .d.ts
// toolgen ships without skipLibCheck. Their imports are marked, so the llama.cpp types read as `any` there and
// keep their real types where the peer is installed (test/package/pack.test.ts type-checks such a consumer).
const OPTIONAL_PEER_TYPES = /^(import type .* from "(?:node-llama-cpp|better-sqlite3)";)$/gm;
for (const file of walk(dist).filter((f) => f.endsWith(".d.ts"))) {
  const text = readFileSync(file, "utf8");
  const marked = text.replace(OPTIONAL_PEER_TYPES, "// @ts-ignore an optional peer of toolgen\n$1");
  if (marked !== text) writeFileSync(file, marked);
}
