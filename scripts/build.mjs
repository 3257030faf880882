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

// The optional peers' types stay out of what toolgen ships: a consumer's strict type-check (no skipLibCheck)
// must not reach node-llama-cpp's declarations, absent for most users and, when installed, not clean under
// strict settings themselves. The one `import type * as X` of a peer becomes a local namespace of `any` types
// (test/package/pack.test.ts type-checks such a consumer).
const OPTIONAL_PEER_IMPORT = /^import type \* as (\w+) from "(?:node-llama-cpp|better-sqlite3)";$/m;
function opaquePeerTypes(text) {
  const found = OPTIONAL_PEER_IMPORT.exec(text);
  if (!found) return text;
  const ns = found[1];
  const members = [...new Set([...text.matchAll(new RegExp(`\\b${ns}\\.(\\w+)`, "g"))].map((m) => m[1]))];
  const local = [
    `// ${found[0].split('"')[1]} is an optional peer of toolgen: its types are not part of toolgen's`,
    `declare namespace ${ns} {`,
    ...members.map((m) => `  type ${m} = any;`),
    "}",
  ].join("\n");
  return text.replace(found[0], local).replace(new RegExp(`typeof ${ns}\\b`, "g"), "any");
}
for (const file of walk(dist).filter((f) => f.endsWith(".d.ts"))) {
  const text = readFileSync(file, "utf8");
  const opaque = opaquePeerTypes(text);
  if (opaque !== text) writeFileSync(file, opaque);
  if (/from "(node-llama-cpp|better-sqlite3)"/.test(opaque))
    throw new Error(`${file} still imports an optional peer`);
}
