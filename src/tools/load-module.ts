import { existsSync, statSync } from "node:fs";
import { register } from "node:module";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { fromToolJson, isTool, isToolJson } from "./define.ts";
import { hasToolMethods, toolsFrom } from "./decorators.ts";
import type { FunctionSignature } from "./signature.ts";
import type { Tool } from "./types.ts";
import { ToolgenError } from "../errors.ts";

interface Buildable {
  build(): Tool;
}
const isBuilder = (v: unknown): v is Buildable =>
  typeof v === "object" && v !== null && typeof (v as Partial<Buildable>).build === "function";

/**
 * Imports a .ts/.js module and returns the tools it exports, in any of the five styles: `tool()` results
 * (zod or JSON Schema), HF/OpenAI JSON objects, ToolSpec builders, objects or zero-argument classes with
 * `@toolMethod`s, and plain JSDoc'd functions (schema from the TypeScript compiler API; called by mapping
 * the argument object onto positional parameters). Arrays of these are flattened.
 */
export interface LoadToolsOptions {
  /** Told about each exported function left out because it is not documented as a tool (a JSDoc summary
   * and a `@param` text for each parameter; see src/tools/README.md): a helper, not a tool. Without it such
   * a function fails the whole file, naming what to add. */
  onSkip?: (message: string) => void;
}

export async function loadTools(file: string, options: LoadToolsOptions = {}): Promise<Tool[]> {
  const path = resolve(file);
  if (!existsSync(path)) throw new ToolgenError("invalid_input", `tools file not found: ${file}`);
  const mod = await importOnce(path);
  // The TypeScript compiler API takes seconds to load: only plain JSDoc'd functions need it.
  const plainFunction = (v: unknown): boolean =>
    Array.isArray(v)
      ? v.some(plainFunction)
      : typeof v === "function" && !hasToolMethods(v.prototype as object);
  const { functionSignatures } = Object.values(mod).some(plainFunction)
    ? await import("./signature.ts")
    : { functionSignatures: (): FunctionSignature[] => [] };
  let signatures: FunctionSignature[] | undefined;
  const skipped: string[] = [];
  const onUndocumented = options.onSkip
    ? (name: string, reason: string): void => {
        skipped.push(name);
        options.onSkip?.(`${file}: skipped function ${name}: ${reason}, so not a tool`);
      }
    : undefined;
  const tools: Tool[] = [];
  const add = (value: unknown, exportName: string): void => {
    if (Array.isArray(value)) return value.forEach((v) => add(v, exportName));
    if (isToolJson(value)) tools.push(fromToolJson(value));
    else if (isTool(value)) tools.push(value);
    else if (typeof value === "function" && hasToolMethods(value.prototype as object)) {
      const Cls = value as new () => object;
      if (Cls.length > 0)
        throw new ToolgenError(
          "invalid_input",
          `${file}: class ${exportName} needs constructor arguments; export an instance`,
        );
      tools.push(...toolsFrom(new Cls()));
    } else if (typeof value === "function") {
      signatures ??= functionSignatures(path, { onUndocumented });
      const sig = signatures.find((s) => s.exportName === exportName);
      if (!sig) return; // not a function the compiler sees as exported (e.g. a re-exported helper from JS)
      tools.push(fromFunction(sig, value as (...args: unknown[]) => unknown));
    } else if (typeof value === "object" && value !== null && hasToolMethods(value))
      tools.push(...toolsFrom(value));
    else if (isBuilder(value)) tools.push(value.build());
  };
  for (const [name, value] of Object.entries(mod)) {
    if (name === "default" && Object.entries(mod).some(([k, v]) => k !== "default" && v === value)) continue;
    add(value, name);
  }
  const seen = new Set<string>();
  for (const t of tools) {
    if (seen.has(t.name)) throw new ToolgenError("invalid_input", `${file}: two tools are named ${t.name}`);
    seen.add(t.name);
  }
  if (tools.length === 0) {
    const why = skipped.length > 0 ? `; skipped, not documented as tools: ${skipped.join(", ")}` : "";
    throw new ToolgenError("invalid_input", `${file} exports no tools${why} (see docs/defining-tools.md)`);
  }
  return tools;
}

// Each tsImport registers a loader namespace, so import a file once per version of it.
const imported = new Map<string, { mtimeMs: number; module: Promise<Record<string, unknown>> }>();

function importOnce(path: string): Promise<Record<string, unknown>> {
  const mtimeMs = statSync(path).mtimeMs;
  const hit = imported.get(path);
  if (hit && hit.mtimeMs === mtimeMs) return hit.module;
  allowToolgenImports();
  const module = (JAVASCRIPT.test(path) ? importJavaScript(path, mtimeMs) : importTypeScript(path)).catch(
    (error: unknown) => {
      throw unresolvedToolgen(path, error) ?? error;
    },
  );
  imported.set(path, { mtimeMs, module });
  module.catch(() => imported.delete(path));
  return module;
}

const JAVASCRIPT = /\.(m?js|cjs)$/;

/** JavaScript needs no loader: plain `import`, the query string making an edited file a new module. */
function importJavaScript(path: string, mtimeMs: number): Promise<Record<string, unknown>> {
  return import(`${pathToFileURL(path).href}?mtime=${mtimeMs}`) as Promise<Record<string, unknown>>;
}

/** TypeScript (and standard decorators) through tsx's loader, wherever we run: CLI, library, tests. */
async function importTypeScript(path: string): Promise<Record<string, unknown>> {
  let tsImport: (specifier: string, parent: string) => Promise<unknown>;
  try {
    ({ tsImport } = await import("tsx/esm/api"));
  } catch (error) {
    throw new ToolgenError("invalid_input", TSX_MISSING(path), { cause: error });
  }
  try {
    return (await tsImport(pathToFileURL(path).href, import.meta.url)) as Record<string, unknown>;
  } catch (error) {
    // tsx compiles with esbuild, whose binary is an optional dependency (`npm install --omit=optional` drops it)
    if (/@esbuild\/|esbuild.*(binary|platform)/i.test(String((error as Error).message)))
      throw new ToolgenError("invalid_input", TSX_MISSING(path), { cause: error });
    throw error;
  }
}

const TSX_MISSING = (path: string): string =>
  `${path} is TypeScript, which needs tsx with its esbuild binary to load; add them with \`npm install tsx@4.23.15\` ` +
  `(an install with --omit=optional leaves esbuild's binary out), or give a .js file`;

/**
 * The hook cannot reach a file loaded as CommonJS (a .ts file outside an ESM package, compiled to `require`):
 * a failed `import "toolgen"` there says how to make it resolve instead of Node's bare "Cannot find module".
 */
function unresolvedToolgen(path: string, error: unknown): ToolgenError | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== "MODULE_NOT_FOUND" && code !== "ERR_MODULE_NOT_FOUND") return undefined;
  if (!/['"]toolgen(\/[a-z]+)?['"]/.test(String(message))) return undefined;
  return new ToolgenError(
    "invalid_input",
    `${path} imports "toolgen", which its folder does not have: install it there (\`npm install toolgen\`), ` +
      `or make the file an ES module (.mjs, .mts, or a package.json with "type": "module") to use this toolgen`,
    { cause: error },
  );
}

let hookRegistered = false;

/** A tools file outside any project with toolgen installed can still `import "toolgen"` (resolve-toolgen.mjs). */
function allowToolgenImports(): void {
  if (hookRegistered) return;
  hookRegistered = true;
  register(new URL("./resolve-toolgen.mjs", import.meta.url), {
    data: { source: import.meta.url.endsWith(".ts") },
  });
}

function fromFunction(sig: FunctionSignature, fn: (...args: unknown[]) => unknown): Tool {
  const { name, description, parameters } = sig.json.function;
  return {
    name,
    description,
    parameters,
    execute: (args) => fn(...sig.paramNames.map((p) => args[p])),
  };
}
