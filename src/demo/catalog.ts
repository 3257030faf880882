import { fileURLToPath } from "node:url";
import type { CatalogEntry } from "../catalog/catalog.ts";
import { loadTools } from "../tools/load-module.ts";
import type { Tool } from "../tools/types.ts";
import { catalogEntryFromTool } from "../agents/toolbox.ts";
import { mathTools } from "./tools/math.ts";
import { textTools } from "./tools/text.ts";
import { unitTools } from "./tools/units.ts";

/** How each group of the demo catalog is defined: one of the five tool styles each. */
export const DEMO_TOOL_STYLES = {
  math: "zod schemas with tool()",
  units: "raw JSON Schema with tool()",
  text: "the ToolSpec builder",
  codec: "decorated class methods (@toolMethod)",
  calendar: "plain functions with JSDoc, read by loadTools",
  files: "plain functions with JSDoc, read by loadTools",
} as const;

// The decorated and JSDoc'd modules are read from their TypeScript sources (loadTools needs the types), which
// the package ships: beside this file in src/, or from dist/demo/ back in src/demo/.
const SOURCES = import.meta.url.endsWith(".ts") ? "./tools/" : "../../src/demo/tools/";
const moduleFile = (name: string) => fileURLToPath(new URL(`${SOURCES}${name}.ts`, import.meta.url));

let cached: Promise<Tool[]> | undefined;

/** The demo's tools (67, all runnable offline), in a fixed order. */
export function demoTools(): Promise<Tool[]> {
  cached ??= (async () => [
    ...mathTools,
    ...unitTools,
    ...textTools,
    // Decorated classes go through loadTools (tsx lowers the decorators; not every test runner does).
    ...(await loadTools(moduleFile("codec"))),
    ...(await loadTools(moduleFile("calendar"))),
    ...(await loadTools(moduleFile("files"))),
  ])();
  return cached;
}

/** The demo catalog: one entry per tool (id = name, token `<<name>>`). */
export async function demoCatalog(): Promise<CatalogEntry[]> {
  return (await demoTools()).map(catalogEntryFromTool);
}
