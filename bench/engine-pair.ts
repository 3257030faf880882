/**
 * Two checkouts' engines side by side in one process, for a before/after on a busy machine: the ToolGen
 * retrieval stage of `npm run bench:engine` (lib/engine-stage.ts) runs on each checkout's own src/ and
 * build/kernels.wasm at once, their training steps alternating (each loop yields between steps), on the same
 * batches (same seed), so a load change hits both alike. Each step's forward-backward and AdamW update are
 * timed per checkout; the per-step ratio (first / second) and its quartiles are what to quote: separate runs
 * of the stage on the 2-core machine spread by up to 2× while other jobs ran (issue 40).
 *   TOOLGEN_KERNEL_THREADS=2 npx tsx bench/engine-pair.ts ../main . [--steps 40]
 * (each checkout needs node_modules and its build/kernels.wasm; both start their own pool of threads)
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { StageFigures } from "./lib/engine-stage.ts";

interface Timed {
  prototype: Record<string, unknown>;
}

const argv = process.argv.slice(2);
const i = argv.indexOf("--steps");
const steps = i >= 0 ? Number(argv[i + 1]) : 40;
const roots = argv.filter((a, j) => !a.startsWith("--") && (i < 0 || j !== i + 1));
if (roots.length !== 2 || !(Number.isInteger(steps) && steps > 1)) {
  process.stderr.write("usage: npx tsx bench/engine-pair.ts CHECKOUT_A CHECKOUT_B [--steps N]\n");
  process.exit(1);
}

const load = (root: string, file: string) => import(pathToFileURL(resolve(root, file)).href);

/** Adds the time of `Class.prototype[name]` calls to `into.now`; `end` marks a step done. */
function timeMethod(Class: Timed, name: string, into: { now: number; steps: number[] }, end: boolean): void {
  const f = Class.prototype[name] as (...a: unknown[]) => unknown;
  Class.prototype[name] = function (this: unknown, ...a: unknown[]) {
    const t = performance.now();
    try {
      return f.apply(this, a);
    } finally {
      into.now += performance.now() - t;
      if (end) {
        into.steps.push(into.now);
        into.now = 0;
      }
    }
  };
}

const timed = roots.map(() => ({ now: 0, steps: [] as number[] }));
const runs: Array<() => Promise<StageFigures>> = [];
for (const [r, root] of roots.entries()) {
  const { retrievalStage } = await load(root, "bench/lib/engine-stage.ts");
  const { sharedFile } = await load(root, "bench/lib/shared-file.ts");
  const { Llama } = await load(root, "src/nn/llama.ts");
  const { AdamW } = await load(root, "src/nn/train/adamw.ts");
  const { kernels } = await load(root, "src/nn/kernels/index.ts");
  const k = kernels() as { parallel?: boolean };
  const until = Date.now() + 20_000;
  while ("parallel" in k && !k.parallel && Date.now() < until)
    await new Promise((res) => setTimeout(res, 10));
  timeMethod(Llama, "forwardBackward", timed[r]!, false);
  timeMethod(AdamW, "update", timed[r]!, true);
  const tools = sharedFile("metatool/tools.json");
  const queries = sharedFile("metatool/queries.csv");
  if (!tools || !queries) throw new Error("the MetaTool files are absent (../shared/data/metatool)");
  runs.push(() => retrievalStage(tools, queries, steps));
}
await Promise.all(runs.map((run) => run()));

// the first step (allocation, warm-up) is left out
const n = Math.min(...timed.map((t) => t.steps.length));
const ratios: number[] = [];
for (let s = 1; s < n; s++) ratios.push(timed[0]!.steps[s]! / timed[1]!.steps[s]!);
ratios.sort((a, b) => a - b);
const q = (f: number) => Number(ratios[Math.floor(f * (ratios.length - 1))]!.toFixed(4));
const mean = (t: number[]) => Number((t.slice(1, n).reduce((a, b) => a + b, 0) / (n - 1)).toFixed(2));
console.log(
  JSON.stringify({
    threads: process.env.TOOLGEN_KERNEL_THREADS ?? "default",
    checkouts: roots,
    steps: n - 1,
    ms_per_step_mean: timed.map((t) => mean(t.steps)),
    ratio_first_over_second: { median: q(0.5), q1: q(0.25), q3: q(0.75) },
  }),
);
process.exit(0);
