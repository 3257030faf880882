// The house's import rules, checked: which folder under src/ may import which (the layer table in
// docs/ARCHITECTURE.md, read from there so that the document and the check cannot drift), and no import cycle
// between files. `npm run lint` runs it; it exits 1 with one line per forbidden import or cycle.
//
// Imports are read from the text: `import … from "./x.ts"`, `export … from`, `import "./x.ts"`, `import("./x.ts")`
// and `new URL("./x", import.meta.url)` (a file read at run time, such as a chat template); relative ones only.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";

/** Folder → the folders it may import ("*": any). A file directly under the root is its own row (`index.ts`). */
export type LayerTable = Map<string, Set<string>>;

const TABLE_BEGIN = "<!-- layers:begin -->";
const TABLE_END = "<!-- layers:end -->";
const SPECIFIER = new RegExp(
  [
    /(?:import|export)\s[^;]*?from\s*["'](\.[^"']+)["']/.source, // import … from, export … from
    /\bimport\s*["'](\.[^"']+)["']/.source, // import "./side-effect.ts"
    /\bimport\(\s*["'](\.[^"']+)["']\s*\)/.source, // import("./lazy.ts")
    /new URL\(\s*["'](\.[^"']+)["']\s*,\s*import\.meta\.url\s*\)/.source, // a file read at run time
  ].join("|"),
  "g",
);

/**
 * Reads the table between `<!-- layers:begin -->` and `<!-- layers:end -->`: a Markdown table whose first column
 * is a folder and whose second lists the folders it may import, each in backticks (`—` for none, `*` for any).
 */
export function parseLayerTable(markdown: string, source = "the layer table"): LayerTable {
  const begin = markdown.indexOf(TABLE_BEGIN);
  const end = markdown.indexOf(TABLE_END);
  if (begin < 0 || end < begin) throw new Error(`${source}: no ${TABLE_BEGIN} … ${TABLE_END} section`);
  const table: LayerTable = new Map();
  for (const line of markdown.slice(begin + TABLE_BEGIN.length, end).split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    if (cells.length < 4 || /^-+$/.test(cells[1]!.replace(/:/g, ""))) continue;
    const folder = /^`([^`]+)`$/.exec(cells[1]!)?.[1];
    if (folder === undefined) continue; // the header row
    if (table.has(folder)) throw new Error(`${source}: folder ${folder} has two rows`);
    table.set(folder, new Set([...cells[2]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)));
  }
  if (table.size === 0) throw new Error(`${source}: the layer table has no rows`);
  return table;
}

/** Two folders the table lets import each other, directly or round a loop: the table must be a hierarchy. */
export function tableCycles(table: LayerTable): string[] {
  const problems: string[] = [];
  for (const [folder, allowed] of table) {
    for (const dep of allowed) {
      if (dep !== "*" && !table.has(dep))
        problems.push(`layer table: ${folder} may import ${dep}, not a row`);
    }
  }
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (folder: string): void => {
    state.set(folder, "open");
    stack.push(folder);
    for (const dep of table.get(folder) ?? []) {
      if (dep === "*" || !table.has(dep)) continue;
      if (state.get(dep) === "open")
        problems.push(`layer table: a loop ${[...stack.slice(stack.indexOf(dep)), dep].join(" -> ")}`);
      else if (!state.has(dep)) visit(dep);
    }
    stack.pop();
    state.set(folder, "done");
  };
  for (const folder of table.keys()) if (!state.has(folder)) visit(folder);
  // A "*" row may import everything, so nothing may import it back.
  for (const [folder, allowed] of table) {
    if (!allowed.has("*")) continue;
    for (const [other, otherAllowed] of table)
      if (other !== folder && otherAllowed.has(folder))
        problems.push(`layer table: ${other} may import ${folder}, which may import anything`);
  }
  return problems;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|mjs)$/.test(name) ? [path] : [];
  });
}

/** File → the files under `root` it refers to. */
export function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(root)) {
    const deps: string[] = [];
    for (const match of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
      const target = resolve(
        dirname(file),
        match.slice(1).find((m) => m !== undefined)!,
      );
      if (target.startsWith(root + sep)) deps.push(target);
    }
    graph.set(file, deps);
  }
  return graph;
}

/** The row a file belongs to: its first folder under the root, or its own name when it sits at the root. */
export function layerOf(root: string, file: string): string {
  return relative(root, file).split(sep)[0]!;
}

/** Imports the table forbids, one line each, and files under a folder the table does not list. */
export function forbiddenImports(root: string, graph: Map<string, string[]>, table: LayerTable): string[] {
  const problems: string[] = [];
  const unlisted = new Set<string>();
  for (const [file, deps] of graph) {
    const from = layerOf(root, file);
    const allowed = table.get(from);
    if (!allowed) {
      unlisted.add(from);
      continue;
    }
    for (const dep of deps) {
      const to = layerOf(root, dep);
      if (to === from || allowed.has("*") || allowed.has(to)) continue;
      problems.push(
        `forbidden import: ${relative(root, file)} -> ${relative(root, dep)} (${from} may not import ${to})`,
      );
    }
  }
  for (const folder of unlisted) problems.push(`layer table: ${folder} is under the root but has no row`);
  return problems;
}

/** Import cycles between files, each found once (depth-first search; a back edge closes a cycle). */
export function fileCycles(root: string, graph: Map<string, string[]>): string[] {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (node: string): void => {
    state.set(node, "open");
    stack.push(node);
    for (const dep of graph.get(node) ?? []) {
      if (!graph.has(dep)) continue;
      if (state.get(dep) === "open") {
        const cycle = [...stack.slice(stack.indexOf(dep)), dep];
        cycles.push("import cycle: " + cycle.map((f) => relative(root, f)).join(" -> "));
      } else if (!state.has(dep)) visit(dep);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

/** Everything wrong under `root` against the table in `tableFile`; empty when the house is in order. */
export function checkLayers(root: string, tableFile: string): { problems: string[]; modules: number } {
  const table = parseLayerTable(readFileSync(tableFile, "utf8"), tableFile);
  const graph = importGraph(resolve(root));
  return {
    problems: [
      ...tableCycles(table),
      ...forbiddenImports(resolve(root), graph, table),
      ...fileCycles(resolve(root), graph),
    ],
    modules: graph.size,
  };
}

function main(): void {
  const root = resolve(process.argv[2] ?? "src");
  const tableFile = resolve(process.argv[3] ?? "docs/ARCHITECTURE.md");
  const { problems, modules } = checkLayers(root, tableFile);
  if (problems.length > 0) {
    for (const problem of problems) console.error(problem);
    process.exit(1);
  }
  console.log(
    `layers: ${modules} modules under ${relative(process.cwd(), root) || "."} import only what ` +
      `${relative(process.cwd(), tableFile)} allows, and no file cycle`,
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
