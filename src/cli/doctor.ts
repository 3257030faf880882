import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { runAction } from "./run-action.ts";
import { PACKAGE_ROOT, packageInfo } from "./package-info.ts";

/** One line of `toolgen doctor`: what was checked, whether it is there, and what it is for or how to fix it. */
export interface Check {
  name: string;
  status: "ok" | "missing" | "failed";
  detail: string;
  /** A required part that is missing or failed makes doctor exit 1; optional ones only inform. */
  required: boolean;
}

const require = createRequire(import.meta.url);

/** The folder of an installed package as Node would resolve it from toolgen (no import, no exports map). */
function packageDir(name: string): string | undefined {
  for (const dir of require.resolve.paths(name) ?? []) {
    if (existsSync(join(dir, name, "package.json"))) return join(dir, name);
  }
  return undefined;
}

function versionOf(dir: string): string {
  return (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;
}

/** `>=20.19` against a Node version (engines in package.json uses only this form). */
export function satisfiesAtLeast(version: string, range: string): boolean {
  const want = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  if (!want) return true;
  const have = version.replace(/^v/, "").split(".").map(Number);
  for (let i = 0; i < 3; i++) {
    const w = Number(want[i + 1] ?? 0);
    if ((have[i] ?? 0) !== w) return (have[i] ?? 0) > w;
  }
  return true;
}

function nodeCheck(): Check {
  const range = packageInfo().engines.node;
  const ok = satisfiesAtLeast(process.versions.node, range);
  return {
    name: "node",
    status: ok ? "ok" : "failed",
    detail: `${process.versions.node} (toolgen needs ${range})`,
    required: true,
  };
}

/**
 * A dependency toolgen needs (a missing one fails doctor): typescript reads plain-function tools; tsx loads
 * TypeScript tool files and the demo's, compiling with esbuild, whose binary is optional (esbuildCheck).
 */
function dependencyCheck(name: string, purpose: string): Check {
  const dir = packageDir(name);
  return dir
    ? { name, status: "ok", detail: `${versionOf(dir)} (${purpose})`, required: true }
    : { name, status: "missing", detail: "a dependency of toolgen: reinstall toolgen", required: true };
}

function esbuildCheck(): Check {
  const tsx = packageDir("tsx");
  try {
    const esbuild = createRequire(join(tsx ?? ".", "package.json"))("esbuild") as {
      transformSync(code: string, options: { loader: string }): unknown;
      version: string;
    };
    esbuild.transformSync("const a: number = 1", { loader: "ts" });
    return {
      name: "esbuild",
      status: "ok",
      detail: `${esbuild.version} (compiles for tsx)`,
      required: false,
    };
  } catch {
    return {
      name: "esbuild",
      status: "failed",
      detail:
        "its binary is missing (an install with --omit=optional?): .js tool files load, .ts ones and the demo do not; reinstall without --omit=optional",
      required: false,
    };
  }
}

function llamaCppCheck(): Check {
  const version = packageInfo().peerDependencies["node-llama-cpp"];
  const dir = packageDir("node-llama-cpp");
  if (!dir) {
    return {
      name: "node-llama-cpp",
      status: "missing",
      detail: `optional, for gguf: and hf: models; add it with \`npm install node-llama-cpp@${version}\``,
      required: false,
    };
  }
  const platform = `@node-llama-cpp/${process.platform}-${process.arch}`;
  const binary = createRequire(join(dir, "package.json"))
    .resolve.paths(platform)
    ?.some((d) => existsSync(join(d, platform)));
  return {
    name: "node-llama-cpp",
    status: binary ? "ok" : "failed",
    detail: binary
      ? `${versionOf(dir)} (gguf: and hf: models; prebuilt ${platform})`
      : `${versionOf(dir)} without its prebuilt binary ${platform}; reinstall it without --omit=optional`,
    required: false,
  };
}

function sqliteCheck(): Check {
  const version = packageInfo().peerDependencies["better-sqlite3"]?.replace(/^\^/, "");
  const dir = packageDir("better-sqlite3");
  if (!dir) {
    return {
      name: "better-sqlite3",
      status: "missing",
      detail: `optional, for SQLite chat memory (chat --memory); add it with \`npm install better-sqlite3@${version}\``,
      required: false,
    };
  }
  try {
    const Database = require(dir) as new (path: string) => { close(): void };
    new Database(":memory:").close();
    return {
      name: "better-sqlite3",
      status: "ok",
      detail: `${versionOf(dir)} (SQLite chat memory)`,
      required: false,
    };
  } catch (error) {
    return {
      name: "better-sqlite3",
      status: "failed",
      detail: `${versionOf(dir)} is installed but its native part does not load (${(error as Error).message.split("\n")[0]}); reinstall it with its install script`,
      required: false,
    };
  }
}

async function kernelsCheck(): Promise<Check> {
  const { createWasmKernels, DEFAULT_WASM_PATH } = await import("../nn/kernels/wasm.ts");
  try {
    const kernels = createWasmKernels();
    await kernels.close();
    return {
      name: "kernels",
      status: "ok",
      detail: `${kernels.name} (${DEFAULT_WASM_PATH}; ${availableParallelism()} cores here): inference's and the library's kernels`,
      required: false,
    };
  } catch (error) {
    return {
      name: "kernels",
      status: "failed",
      detail: `the WebAssembly kernels do not load (${(error as Error).message}); the engine falls back to the slow JS reference (npm run build:wasm in a checkout)`,
      required: false,
    };
  }
}

/**
 * The native gemm: optional, built in a checkout only; `toolgen train` uses it by default where it loads and passes
 * the self-check run here too (kernels/training-kernels.ts), so doctor says which kernels training will take.
 */
async function nativeGemmCheck(): Promise<Check> {
  const { nativeSelfCheck } = await import("../nn/kernels/native-check.ts");
  const found = await nativeSelfCheck();
  if (found.ok)
    return {
      name: "native-gemm",
      status: "ok",
      detail: `${found.tiles} tiles, self-check passed: \`toolgen train\` uses it by default (about twice as fast as the WebAssembly kernels; the same bytes on every x86-64 CPU with AVX2+FMA); \`--kernels wasm\` for bytes that are the same on every machine`,
      required: false,
    };
  if (found.loads)
    return {
      name: "native-gemm",
      status: "failed",
      detail: `it loads but fails its self-check (${found.why}); \`toolgen train\` uses the WebAssembly kernels (rebuild it with \`npm run build:native\`)`,
      required: false,
    };
  return {
    name: "native-gemm",
    status: "missing",
    detail: `optional (${found.why}); \`toolgen train\` uses the WebAssembly kernels, and \`npm run build:native\` in a checkout builds the native gemm, which it then uses (about twice as fast)`,
    required: false,
  };
}

/** The public benchmark data: ../shared/data beside the checkout, or TOOLGEN_BENCH_DATA (bench/toolgen/plans.ts). */
function dataCheck(): Check {
  const root = fileURLToPath(PACKAGE_ROOT);
  if (process.env.TOOLGEN_BENCH_DATA === undefined && root.split(sep).includes("node_modules")) {
    return {
      name: "data",
      status: "missing",
      detail:
        "not looked for: the public sets sit beside a checkout (../shared/data) or where TOOLGEN_BENCH_DATA says",
      required: false,
    };
  }
  const dir = process.env.TOOLGEN_BENCH_DATA ?? resolve(root, "../shared/data");
  if (!existsSync(dir)) {
    return {
      name: "data",
      status: "missing",
      detail: `${dir} not found: only the benches and the tests that read the public sets need it`,
      required: false,
    };
  }
  const sets = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return { name: "data", status: "ok", detail: `${dir} (${sets.join(", ") || "empty"})`, required: false };
}

/** Every check, in the order doctor prints them. */
export async function doctorChecks(): Promise<Check[]> {
  return [
    nodeCheck(),
    dependencyCheck("typescript", "reads plain-function tools"),
    dependencyCheck("tsx", "TypeScript tool files, the demo"),
    esbuildCheck(),
    await kernelsCheck(),
    await nativeGemmCheck(),
    llamaCppCheck(),
    sqliteCheck(),
    dataCheck(),
  ];
}

/** `toolgen doctor [--json]`: one line per check; exit 1 only when a required part is missing. */
export function register(program: Command): void {
  program
    .command("doctor")
    .description("check this install: Node version, optional backends, WebAssembly kernels and threads, data")
    .option(
      "--json",
      'print one JSON object: {"version", "ok", "checks": [{name, status, detail, required}]}',
    )
    .action(
      runAction(async (opts: { json?: boolean }) => {
        const checks = await doctorChecks();
        const ok = checks.every((c) => !c.required || c.status === "ok");
        if (opts.json) {
          process.stdout.write(JSON.stringify({ version: packageInfo().version, ok, checks }) + "\n");
        } else {
          process.stdout.write(
            `toolgen ${packageInfo().version} in ${dirname(fileURLToPath(new URL("package.json", PACKAGE_ROOT)))}\n`,
          );
          const width = Math.max(...checks.map((c) => c.name.length));
          for (const c of checks)
            process.stdout.write(`${c.status.padEnd(7)} ${c.name.padEnd(width)}  ${c.detail}\n`);
        }
        if (!ok) process.exitCode = 1;
      }),
    );
}
