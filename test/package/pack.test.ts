// The package as a user gets it: `npm pack`, install the tarball into a fresh project (npm leaves out the
// optional peers node-llama-cpp and better-sqlite3; --omit=optional also drops esbuild's binary, so tsx cannot
// compile), then a plain-node ESM script, a strict NodeNext TypeScript consumer without skipLibCheck and the
// installed `toolgen` binary: --help, --version, doctor, BM25 retrieval, a JavaScript tool module, and one line
// naming the install for what needs a missing part. It builds dist/ first (scripts/build.mjs), so `npm test`
// needs no separate build step.
import { execFileSync, type ExecFileSyncOptions } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const work = mkdtempSync(join(tmpdir(), "toolgen-pack-"));

// The child npm must not inherit the parent `npm test`'s project (npm_config_local_prefix and the like), only
// where its cache and registry are.
const KEEP = new Set(["npm_config_cache", "npm_config_registry", "npm_config_userconfig"]);
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([k]) => !k.toLowerCase().startsWith("npm_") || KEEP.has(k.toLowerCase()),
  ),
);
const run = (cmd: string, args: string[], options: ExecFileSyncOptions = {}): string =>
  execFileSync(cmd, args, { encoding: "utf8", env, stdio: "pipe", ...options }) as string;

interface PackResult {
  filename: string;
  files: { path: string }[];
}
let packed: PackResult;

beforeAll(() => {
  run(process.execPath, [join(ROOT, "scripts/build.mjs")], { cwd: ROOT });
  const json = run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], { cwd: ROOT });
  packed = (JSON.parse(json) as PackResult[])[0]!;
  writeFileSync(
    join(work, "package.json"),
    JSON.stringify({ name: "toolgen-consumer", private: true, type: "module" }),
  );
  npmInstall(
    ["--omit=optional"],
    join(work, packed.filename),
    `@types/node@${readDevDependency("@types/node")}`,
  );
}, 600_000);

/** `npm install` into the consumer, scripts-free: all it needs is JavaScript in the npm cache after `npm ci`. */
function npmInstall(flags: string[], ...packages: string[]): void {
  const common = ["--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--no-package-lock"];
  run("npm", ["install", "--prefix", work, ...common, ...flags, ...packages], { cwd: work });
}

afterAll(() => rmSync(work, { recursive: true, force: true }));

function esbuildVersion(): string {
  return (
    JSON.parse(readFileSync(join(ROOT, "node_modules/esbuild/package.json"), "utf8")) as { version: string }
  ).version;
}

function readPackage(): { version: string; devDependencies: Record<string, string> } {
  return JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    version: string;
    devDependencies: Record<string, string>;
  };
}

function readDevDependency(name: string): string {
  return readPackage().devDependencies[name]!;
}

/** A command expected to fail: its exit status and stderr. */
function fail(cmd: string, args: string[]): { status: number | null; stderr: string } {
  try {
    run(cmd, args, { cwd: work });
  } catch (error) {
    const e = error as { status: number | null; stderr: string };
    return { status: e.status, stderr: e.stderr };
  }
  throw new Error(`${cmd} ${args.join(" ")} succeeded`);
}

const WEATHER = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Current weather in a city",
    parameters: { type: "object", properties: { city: { type: "string" } } },
  },
};

describe("the npm package", () => {
  it("carries compiled JavaScript, types and the WASM kernels, and no tests, benches or fixtures", () => {
    const paths = packed.files.map((f) => f.path);
    for (const expected of [
      "package.json",
      "bin/toolgen.mjs",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/index.js.map",
      "dist/entry/engine.d.ts",
      "dist/entry/train.d.ts",
      "dist/entry/server.d.ts",
      "dist/entry/testing.d.ts",
      "dist/nn/kernels/worker.mjs",
      "dist/tools/resolve-toolgen.mjs",
      "dist/chat/templates/llama3.jinja",
      "build/kernels.wasm",
      "models/demo/model.safetensors",
      "src/demo/held-out/handwritten.json",
      "src/demo/held-out/handwritten-dev.json",
    ])
      expect(paths).toContain(expected);
    expect(paths.filter((p) => /^(test|bench|examples|scripts|assembly|docs|\.ci)\//.test(p))).toEqual([]);
    expect(paths.filter((p) => p.includes("fixtures") || p.endsWith(".test.ts"))).toEqual([]);
    // the optional peers' types are not shipped: no declaration file names them (scripts/build.mjs)
    const declarations = paths.filter((p) => p.endsWith(".d.ts"));
    expect(declarations.length).toBeGreaterThan(100);
    const naming = declarations.filter((p) =>
      /from "(node-llama-cpp|better-sqlite3)"/.test(readFileSync(join(ROOT, p), "utf8")),
    );
    expect(naming).toEqual([]);
  });

  it("runs under plain node: an ESM script imports tools, retrieval and the scripted model", () => {
    writeFileSync(
      join(work, "app.mjs"),
      `import { tool, executeToolCall, Bm25Retriever, createAgent, toAiSdkTools } from "toolgen";
import { ScriptedModel } from "toolgen/testing";
import { presetConfig, createWasmKernels } from "toolgen/engine";
const add = tool({
  name: "add",
  description: "Add two numbers",
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  execute: ({ a, b }) => a + b,
});
const result = await executeToolCall({ id: "1", type: "function", function: { name: "add", arguments: { a: 2, b: "3" } } }, [add]);
const hits = await new Bm25Retriever([{ id: "add", tool: "add", api: "", description: "Add two numbers", parameters: add.parameters }]).search("add numbers", { k: 1 });
const model = new ScriptedModel([{ tool_calls: [{ name: "add", arguments: { a: 1, b: 1 } }] }, "two"]);
const run = await createAgent({ model, tools: [add] }).chat("m", "1+1?");
// The WebAssembly kernels load from the package (build/kernels.wasm) with their helper threads (dist/…/worker.mjs).
const kernels = createWasmKernels({ threads: 2 });
await kernels.close();
console.log(JSON.stringify({ result, hit: hits[0]?.id, answer: run.answer, vocab: presetConfig("tiny", 100).vocabSize, aiSdk: Object.keys(toAiSdkTools([add])), kernels: kernels.name }));
`,
    );
    const out = JSON.parse(run(process.execPath, ["app.mjs"], { cwd: work })) as Record<string, unknown>;
    expect(out).toEqual({
      result: { ok: true, content: "5", coercions: [{ pointer: "/b", from: "3", to: 3 }] },
      hit: "add",
      answer: "two",
      vocab: 100,
      aiSdk: ["add"],
      kernels: "wasm-simd-2threads",
    });
  });

  // The example installs this tarball into a project of its own, as its README says a user would.
  it("runs examples/plain-node-consumer on this tarball", () => {
    const example = join(ROOT, "examples/plain-node-consumer/main.mjs");
    const out = run(process.execPath, [example, join(work, packed.filename)], {
      cwd: ROOT,
      timeout: 300_000,
    });
    expect(out).toBe('search "add up two numbers" → add\nagent: add → 42; answer: The sum is 42.\n');
  }, 300_000);

  it("type-checks a strict NodeNext TypeScript consumer against the published types", () => {
    writeFileSync(
      join(work, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "es2022",
          module: "nodenext",
          moduleResolution: "nodenext",
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
          types: ["node"],
        },
        files: ["consumer.ts"],
      }),
    );
    writeFileSync(
      join(work, "consumer.ts"),
      `import { tool, loadCatalog, createReactAgent, type Tool, type ChatModel, type AgentRun, type CatalogEntry } from "toolgen";
import { ScriptedModel } from "toolgen/testing";
import { Tokenizer, type LlamaConfig } from "toolgen/engine";
import { STAGES, type Stage } from "toolgen/train";
import { ToolRouter, type RouterConfig } from "toolgen/server";

const echo: Tool = tool({ name: "echo", description: "Echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } });
const model: ChatModel = new ScriptedModel(["done"]);
const catalog: CatalogEntry[] = [];
const stage: Stage | undefined = STAGES[0];
const config: RouterConfig = {};
const size: LlamaConfig["vocabSize"] = 10;
export async function answer(question: string): Promise<string | undefined> {
  const run: AgentRun = await createReactAgent({ model, tools: [echo] }).chat("m", question);
  return run.answer;
}
export { catalog, stage, config, size, loadCatalog, Tokenizer, ToolRouter };
// @ts-expect-error demo internals are not part of the public surface
import { demoCatalog } from "toolgen";
void demoCatalog;
`,
    );
    const tsc = join(work, "node_modules/typescript/bin/tsc");
    const out = (() => {
      try {
        return run(process.execPath, [tsc, "-p", work], { cwd: work });
      } catch (err) {
        return `tsc failed:\n${(err as { stdout?: string }).stdout ?? ""}`;
      }
    })();
    expect(out).toBe("");
  });

  it("installs without the optional peers; what needs one says in one line how to add it", () => {
    for (const peer of ["node-llama-cpp", "@node-llama-cpp", "better-sqlite3"])
      expect(existsSync(join(work, "node_modules", peer))).toBe(false);
    const bin = join(work, "node_modules/.bin/toolgen");
    writeFileSync(join(work, "model.gguf"), "not a model");
    writeFileSync(join(work, "one.json"), JSON.stringify([WEATHER]));
    const gguf = fail(bin, [
      "retrieve",
      "weather",
      "--catalog",
      "one.json",
      "--retriever",
      "toolgen",
      "--model",
      "gguf:model.gguf",
    ]);
    expect(gguf).toEqual({
      status: 1,
      stderr:
        "toolgen retrieve: node-llama-cpp is not installed (an optional peer of toolgen, needed for gguf: and hf: models); " +
        "add it with `npm install node-llama-cpp@3.21.1`\n",
    });
    writeFileSync(
      join(work, "memory.mjs"),
      `import { SqliteChatMemoryStore } from "toolgen";
try { new SqliteChatMemoryStore("chat.db"); } catch (e) { console.log(e.code + ": " + e.message); }`,
    );
    expect(run(process.execPath, ["memory.mjs"], { cwd: work })).toBe(
      "invalid_option: better-sqlite3 is not installed (an optional peer of toolgen, needed for SQLite chat memory); " +
        "add it with `npm install better-sqlite3@12.11.1`\n",
    );
  });

  it("loads a JavaScript tool module without tsx's compiler; a TypeScript one says what it needs", () => {
    const bin = join(work, "node_modules/.bin/toolgen");
    writeFileSync(
      join(work, "tools.js"),
      `/**
 * Multiply two numbers
 * @param {number} a the first number
 * @param {number} b the second number
 */
export function multiply(a, b) {
  return a * b;
}
`,
    );
    const listed = JSON.parse(run(bin, ["tools", "inspect", "tools.js", "--json"], { cwd: work })) as {
      tools: { function: { name: string } }[];
    };
    expect(listed.tools.map((t) => t.function.name)).toEqual(["multiply"]);
    writeFileSync(join(work, "tools.ts"), readFileSync(join(work, "tools.js"), "utf8"));
    const ts = fail(bin, ["tools", "inspect", "tools.ts"]);
    expect(ts.status).toBe(1);
    expect(ts.stderr).toBe(
      `toolgen tools inspect: ${join(work, "tools.ts")} is TypeScript, which needs tsx with its esbuild binary to load; ` +
        "add them with `npm install tsx@4.23.15` (an install with --omit=optional leaves esbuild's binary out), or give a .js file\n",
    );
  });

  it("installs a working `toolgen` binary (compiled JavaScript): --help, --version, doctor, BM25 retrieval", () => {
    const bin = join(work, "node_modules/.bin/toolgen");
    const help = run(bin, ["--help"], { cwd: work });
    expect(help).toContain("Usage: toolgen");
    expect(help).toContain("serve");
    expect(run(bin, ["--version"], { cwd: work })).toBe(`${readPackage().version}\n`);
    const doctor = JSON.parse(run(bin, ["doctor", "--json"], { cwd: work })) as {
      ok: boolean;
      checks: { name: string; status: string }[];
    };
    expect(doctor.ok).toBe(true);
    expect(Object.fromEntries(doctor.checks.map((c) => [c.name, c.status]))).toEqual({
      node: "ok",
      typescript: "ok",
      tsx: "ok",
      esbuild: "failed",
      kernels: "ok",
      "native-gemm": "missing",
      "node-llama-cpp": "missing",
      "better-sqlite3": "missing",
      data: "missing",
    });
    const catalog = join(work, "catalog.json");
    writeFileSync(
      catalog,
      JSON.stringify([
        {
          type: "function",
          function: {
            name: "get_weather",
            description: "Current weather in a city",
            parameters: { type: "object", properties: { city: { type: "string" } } },
          },
        },
        {
          type: "function",
          function: {
            name: "add",
            description: "Add two numbers",
            parameters: { type: "object", properties: {} },
          },
        },
      ]),
    );
    expect(
      run(bin, ["retrieve", "--catalog", catalog, "weather in Paris", "--json"], { cwd: work }),
    ).toContain("get_weather");
  });

  it("runs the demo from the installed package on its committed model, without training", () => {
    // the demo's decorated and JSDoc'd tool files are TypeScript: tsx needs esbuild's binary, which a user's
    // plain `npm install` brings (an optional dependency of esbuild; --omit=optional above left it out)
    npmInstall(["--no-save"], `@esbuild/${process.platform}-${process.arch}@${esbuildVersion()}`);
    const bin = join(work, "node_modules/.bin/toolgen");
    // the committed model fits only if the package carries everything its training data is defined by
    // (the hand-written sets the generator excludes); a mismatch would start a 25-minute training instead
    const out = run(bin, ["demo", "--interactive", "--json"], {
      cwd: work,
      input: "What is 12 factorial?\n",
      timeout: 120_000,
    });
    const answer = JSON.parse(out.trim().split("\n")[0]!) as { question: string; answer: string | null };
    expect(answer.question).toBe("What is 12 factorial?");
    expect(answer.answer).toContain("479001600");
  }, 150_000);
});
