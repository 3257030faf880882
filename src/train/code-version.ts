import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The code a training run used, as one hash: every source file reachable from the training pipeline through
 * relative imports (static `import … from "./x.ts"`, side-effect imports and `new URL("./x", import.meta.url)`
 * assets such as the kernel worker and the chat template), plus the WebAssembly kernel sources in `assembly/`
 * (build/kernels.wasm is compiled from them). Package dependencies are pinned by package-lock.json and left out;
 * so are tests, benches and the CLI, which only pass options in (the options are in the data fingerprint).
 *
 * The hash is over (path relative to the repository root, file bytes) pairs in sorted order, so it does not depend
 * on where the checkout lives.
 */
export interface CodeVersion {
  /** sha-256 of the files, first 16 hex digits. */
  hash: string;
  /** How many files went in. */
  files: number;
}

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "../..");
const ENTRY = join(HERE, "pipeline.ts");

const IMPORT_RE = /(?:\bfrom\s*|\bimport\s*)["'](\.{1,2}\/[^"']+)["']/g;
const URL_RE = /new URL\(\s*["'](\.{1,2}\/[^"']+)["']\s*,\s*import\.meta\.url\s*\)/g;

/** Source files reachable from `entry` through relative imports and `new URL(…, import.meta.url)` references. */
export function reachableSources(entry: string): string[] {
  const seen = new Set<string>();
  const stack = [resolve(entry)];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    if (!/\.(ts|mts|mjs|js)$/.test(file)) continue;
    const text = readFileSync(file, "utf8");
    for (const re of [IMPORT_RE, URL_RE]) {
      for (const m of text.matchAll(re)) {
        const target = resolve(dirname(file), m[1]!);
        // Compiled outputs (build/…) are not sources; their sources are hashed instead.
        if (!relative(ROOT, target).startsWith("build")) stack.push(target);
      }
    }
  }
  return [...seen];
}

function assemblySources(): string[] {
  const dir = join(ROOT, "assembly");
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => join(dir, f));
}

let cached: CodeVersion | undefined;

/** The training code's version (computed once per process). */
export function trainingCodeVersion(): CodeVersion {
  if (cached) return cached;
  const files = [...reachableSources(ENTRY), ...assemblySources()]
    .map((f) => ({ path: relative(ROOT, f).split("\\").join("/"), abs: f }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const h = createHash("sha256");
  for (const f of files) h.update(`\u0000${f.path}\u0001`).update(readFileSync(f.abs));
  cached = { hash: h.digest("hex").slice(0, 16), files: files.length };
  return cached;
}
