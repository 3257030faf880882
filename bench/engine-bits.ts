/**
 * The bits check of a pool or kernel change (issue 40): trains the ToolGen retrieval stage of `npm run
 * bench:engine` (lib/engine-stage.ts) for 5 steps on a checkout's engine and prints the sha256 of the weights
 * (first 16 hex digits). Any thread count, and any change that only moves work between threads, must print the
 * same: 6f32d56bc22b6f0e (1–3 threads) since the stage carries the schedule's user loss (2026-12-06, issue 40),
 * until a change is meant to alter the bits; with TOOLGEN_KERNELS=native (the native gemm's own bits)
 * bdb974d8de89a628 (1–3 threads) since the LM head's dy·W runs in depth pieces (kernels/wasm-gemm.ts
 * nativeDepthPieces; baf0e787e4de4a99 before, and with TOOLGEN_NATIVE_DEPTH_PIECES=0). A checkout from before trains the stage without the user loss and prints
 * 861360a83fb4ebdb (main 44b5fb0 onwards; native f964fa036e5ee576) with the same engine.
 *   TOOLGEN_KERNEL_THREADS=2 npx tsx bench/engine-bits.ts [CHECKOUT]
 * (CHECKOUT: another checkout's src/ and build/kernels.wasm, default this one; it needs node_modules)
 */
import { createHash } from "node:crypto";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const argv = process.argv.slice(2);
if (argv.length > 1 || argv.some((a) => a.startsWith("-"))) {
  process.stderr.write("usage: npx tsx bench/engine-bits.ts [CHECKOUT]\n");
  process.exit(1);
}
const root = resolve(argv[0] ?? ".");
const load = (file: string) => import(pathToFileURL(resolve(root, file)).href);

const { retrievalStage } = await load("bench/lib/engine-stage.ts");
const { sharedFile } = await load("bench/lib/shared-file.ts");
const { Llama } = await load("src/nn/llama.ts");
const { kernels } = await load("src/nn/kernels/index.ts");
const tools = sharedFile("metatool/tools.json");
const queries = sharedFile("metatool/queries.csv");
if (!tools || !queries) {
  process.stderr.write("engine-bits: the MetaTool files are absent (../shared/data/metatool)\n");
  process.exit(1);
}
// the helpers join the steps once started (a run without them computes every item itself: the same bits)
const k = kernels() as { parallel?: boolean };
const until = Date.now() + 20_000;
while ("parallel" in k && !k.parallel && Date.now() < until) await new Promise((r) => setTimeout(r, 10));

// the stage's model, caught at its first step
type Model = { params: { flat: Float32Array } };
const caught: Model[] = [];
const forwardBackward = Llama.prototype.forwardBackward as (...a: unknown[]) => unknown;
Llama.prototype.forwardBackward = function (this: Model, ...a: unknown[]) {
  if (caught.length === 0) caught.push(this);
  return forwardBackward.apply(this, a);
};
// one untimed step and 4 timed ones: the stage stops after 5 updates
await retrievalStage(tools, queries, 4);
const model = caught[0];
if (!model) throw new Error("engine-bits: the stage trained no model");
const flat = model.params.flat;
const hash = createHash("sha256").update(Buffer.from(flat.buffer, flat.byteOffset, flat.byteLength));
console.log(
  JSON.stringify({
    checkout: root,
    threads: process.env.TOOLGEN_KERNEL_THREADS ?? "default",
    steps: 5,
    weights_sha256_16: hash.digest("hex").slice(0, 16),
  }),
);
process.exit(0);
