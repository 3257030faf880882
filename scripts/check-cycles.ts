// Fails when the static imports under src/ form a cycle (the house rule: no import cycles).
// Reads `import … from "./x.ts"` / `export … from` / `import("./x.ts")` specifiers; relative ones only.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(process.argv[2] ?? "src");
const SPECIFIER = /(?:import|export)\s[^;]*?from\s*["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/g;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.(ts|mts)$/.test(name) ? [path] : [];
  });
}

const graph = new Map<string, string[]>();
for (const file of files(ROOT)) {
  const text = readFileSync(file, "utf8");
  const deps: string[] = [];
  for (const match of text.matchAll(SPECIFIER)) deps.push(resolve(dirname(file), match[1] ?? match[2]));
  graph.set(
    file,
    deps.filter((dep) => graph.has(dep) || dep.startsWith(ROOT)),
  );
}

// Depth-first search with colours; reports each back edge's cycle once.
const state = new Map<string, "open" | "done">();
const stack: string[] = [];
const cycles: string[][] = [];
function visit(node: string): void {
  state.set(node, "open");
  stack.push(node);
  for (const dep of graph.get(node) ?? []) {
    if (!graph.has(dep)) continue;
    if (state.get(dep) === "open") cycles.push([...stack.slice(stack.indexOf(dep)), dep]);
    else if (!state.has(dep)) visit(dep);
  }
  stack.pop();
  state.set(node, "done");
}
for (const node of graph.keys()) if (!state.has(node)) visit(node);

if (cycles.length > 0) {
  for (const cycle of cycles)
    console.error("import cycle: " + cycle.map((f) => relative(ROOT, f)).join(" -> "));
  process.exit(1);
}
console.log(`no import cycles among ${graph.size} modules under ${relative(process.cwd(), ROOT) || "."}`);
