/**
 * Where a training step's time goes: the ToolGen retrieval stage of `npm run bench:engine` (tiny preset,
 * MetaTool, packed batches) run under the V8 sampling profiler, every sample taken during training charged
 * to the outermost engine operation on its stack (a GEMM of a linear layer, attention, RMSNorm, …). With
 * `--baseline DIR` the same is measured first on the engine of another checkout (its src/ and
 * build/kernels.wasm), in a child process, for a before/after table.
 *   TOOLGEN_KERNEL_THREADS=1 npx tsx bench/engine-profile.ts [--steps 16] [--baseline ../main]
 */
import { spawnSync } from "node:child_process";
import { Session, type Profiler } from "node:inspector";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { loadavg } from "node:os";
import { writeBenchResult } from "./lib/result.ts";
import { sharedFile } from "./lib/shared-file.ts";
import type { StageFigures } from "./lib/engine-stage.ts";

const argv = process.argv.slice(2);
const option = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const steps = Number(option("--steps") ?? 16);
const engine = option("--engine");
const baseline = option("--baseline");
if (!(Number.isInteger(steps) && steps > 0)) {
  process.stderr.write("engine-profile: --steps must be a positive integer\n");
  process.exit(1);
}

/** Operations, matched from the root of a stack down (the outermost wins): [label, function, file suffix]. */
const OPS: Array<[string, RegExp, RegExp]> = [
  ["attention forward", /^attentionForward$/, /layers\/attention\.ts$/],
  ["attention backward", /^attentionBackward$/, /layers\/attention\.ts$/],
  ["split/merge heads + RoPE", /^((split|merge)Heads(With)?|rotateRows)$/, /layers\/(attention|rope)\.ts$/],
  ["RMSNorm", /^(rmsnorm|rmsnormGrad)$/, /layers\/rmsnorm\.ts$/],
  ["SwiGLU", /^swiglu(Forward|Backward)$/, /(kernels\/wasm|layers\/swiglu)\.ts$/],
  ["residual add", /^add$/, /kernels\/wasm\.ts$/],
  ["cross-entropy", /^crossEntropy(InPlace)?$/, /(layers\/cross-entropy|kernels\/wasm-train)\.ts$/],
  ["AdamW + gradient clipping", /./, /train\/adamw\.ts$/],
];

interface Frame {
  name: string;
  url: string;
}

/** The operation a stack (root first) belongs to, or undefined outside training. */
function classify(stack: Frame[]): string | undefined {
  const loop = stack.findIndex((f) => f.name === "loop" && f.url.endsWith("train/trainer.ts"));
  if (loop < 0) return undefined;
  let llama: string | undefined;
  for (let i = loop + 1; i < stack.length; i++) {
    const f = stack[i]!;
    for (const [label, fn, file] of OPS) if (fn.test(f.name) && file.test(f.url)) return label;
    if (f.url.endsWith("nn/llama.ts") && ["trunk", "backward", "run"].includes(f.name)) llama = f.name;
    if ((f.name === "run" || f.name === "many") && f.url.endsWith("kernels/wasm-gemm.ts")) {
      return llama === "trunk"
        ? "GEMM forward (linear layers)"
        : llama === "backward"
          ? "GEMM backward (dx, dW)"
          : "GEMM LM head (forward, dx, dW)";
    }
  }
  if (llama === "trunk") return "other forward (embedding, residual loops, checks)";
  if (llama === "backward") return "other backward (embedding gradient, fills)";
  return "other (trainer, batching, loss glue)";
}

/** Runs the stage under the profiler; milliseconds per operation over the training samples. */
async function profileStage(dir: string): Promise<{ figures: StageFigures; ms: Record<string, number> }> {
  const stageModule = pathToFileURL(resolve(dir, "bench/lib/engine-stage.ts")).href;
  const { retrievalStage } = (await import(stageModule)) as typeof import("./lib/engine-stage.ts");
  const tools = sharedFile("metatool/tools.json");
  const queries = sharedFile("metatool/queries.csv");
  if (!tools || !queries) throw new Error("shared MetaTool data not found (set TOOLGEN_SHARED_DATA)");
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params?: object) =>
    new Promise<T>((ok, fail) =>
      session.post(method, params, (err, res) => (err ? fail(err) : ok(res as T))),
    );
  await post("Profiler.enable");
  await post("Profiler.setSamplingInterval", { interval: 500 });
  await post("Profiler.start");
  const figures = await retrievalStage(tools, queries, steps);
  const { profile } = await post<{ profile: Profiler.Profile }>("Profiler.stop");
  session.disconnect();
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const label = new Map<number, string | undefined>();
  const labelOf = (id: number) => {
    if (!label.has(id)) {
      const stack: Frame[] = [];
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
        const f = byId.get(cur)!.callFrame;
        stack.unshift({ name: f.functionName, url: f.url });
      }
      label.set(id, classify(stack));
    }
    return label.get(id);
  };
  const ms: Record<string, number> = {};
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  // garbage collection and idle samples have no stack: charge them when they fall inside training
  let first = Infinity;
  let last = -1;
  samples.forEach((id, i) => {
    if (labelOf(id) !== undefined) {
      first = Math.min(first, i);
      last = i;
    }
  });
  for (let i = first; i <= last; i++) {
    const id = samples[i]!;
    const name = byId.get(id)!.callFrame.functionName;
    const op =
      labelOf(id) ?? (name === "(garbage collector)" ? "garbage collection" : `(${name || "other"})`);
    ms[op] = (ms[op] ?? 0) + (deltas[i + 1] ?? 0) / 1000;
  }
  return { figures, ms };
}

function table(ms: Record<string, number>, timedSteps: number) {
  const total = Object.values(ms).reduce((a, b) => a + b, 0);
  const rows = Object.entries(ms)
    .sort((a, b) => b[1] - a[1])
    .map(([op, t]) => ({
      op,
      ms_per_step: Math.round((10 * t) / (timedSteps + 1)) / 10,
      share: Math.round((1000 * t) / total) / 1000,
    }));
  return { ms_per_step: Math.round((10 * total) / (timedSteps + 1)) / 10, ops: rows };
}

async function measure(dir: string) {
  const { figures, ms } = await profileStage(dir);
  const { gemms: _gemms, ...stage } = figures;
  return {
    engine: dir,
    load_average: loadavg().map((x) => Math.round(x * 100) / 100),
    ...stage,
    profile: table(ms, steps),
  };
}

if (engine) {
  // the child run on another checkout's engine
  process.stdout.write(JSON.stringify(await measure(resolve(engine))) + "\n");
} else {
  const here = resolve(import.meta.dirname, "..");
  let before: unknown = null;
  if (baseline) {
    const child = spawnSync(
      process.execPath,
      [...process.execArgv, process.argv[1]!, "--engine", baseline, "--steps", String(steps)],
      { encoding: "utf8", env: process.env, maxBuffer: 1 << 26 },
    );
    if (child.status !== 0) {
      process.stderr.write(
        `engine-profile: the baseline run failed: ${child.stderr.trim().split("\n").pop()}\n`,
      );
      process.exit(1);
    }
    before = JSON.parse(child.stdout.trim().split("\n").pop()!);
  }
  const after = await measure(here);
  writeBenchResult(
    "engine-profile",
    `TOOLGEN_KERNEL_THREADS=${process.env.TOOLGEN_KERNEL_THREADS ?? ""} npx tsx bench/engine-profile.ts ${argv.join(" ")}`.trim(),
    {
      threads: process.env.TOOLGEN_KERNEL_THREADS === "1" ? 1 : "default",
      steps_timed: steps,
      note: "V8 sampling profiler (0.5 ms), samples taken while training (the first, untimed step included), each charged to the outermost engine operation on its stack; wall-clock samples on a shared machine, so shares, not milliseconds, compare",
      ...(before ? { before } : {}),
      after,
    },
  );
}
