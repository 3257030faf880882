/**
 * The GEMMs of one ToolGen retrieval-stage training step (tiny preset: d 128, f 352, 4 layers, V 8392; 1059
 * tokens, 64 head rows), replayed in the step's order and groups (llama.ts: q/k/v as one matmulMany, an input
 * gradient with its weight gradients as one, …), on 1 and 2 threads in turns in one process: ms per group and
 * the 2-thread speed-up of each, to see where the GEMMs lose against a perfect split (issue 40).
 *   npx tsx bench/engine-gemm.ts [--rounds 5] [--reps 20] [--threads 1,2] [--head-rows 611]
 * (TOOLGEN_KERNELS=native: the native gemm's; --head-rows: the LM head's rows, 611 with the stage's user loss)
 */
import { createWasmKernels, type WasmKernels } from "../src/nn/kernels/index.ts";
import type { MatmulCall } from "../src/nn/kernels/api.ts";

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1]! : fallback;
};
const rounds = Number(option("--rounds", "5"));
const reps = Number(option("--reps", "20"));
const threadCounts = option("--threads", "1,2").split(",").map(Number);

const T = 1059;
const H = Number(option("--head-rows", "64"));
const native = process.env.TOOLGEN_KERNELS === "native";
const d = 128;
const f = 352;
const V = 8392;

interface Group {
  label: string;
  calls: MatmulCall[];
}

/** The step's GEMM groups on kernels k (operands allocated in its heap, filled with small values). */
function groups(k: WasmKernels): Group[] {
  let seed = 1;
  const arr = (n: number) => {
    const a = k.alloc(n);
    for (let i = 0; i < n; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      a[i] = (seed / 2 ** 32 - 0.5) * 0.1;
    }
    return a;
  };
  const x = arr(T * d);
  const xf = arr(T * f);
  const yd = [arr(T * d), arr(T * d), arr(T * d)];
  const yf = [arr(T * f), arr(T * f)];
  const Wdd = [arr(d * d), arr(d * d), arr(d * d)];
  const Wfd = [arr(f * d), arr(f * d)];
  const gdd = [arr(d * d), arr(d * d), arr(d * d)];
  const gfd = [arr(f * d), arr(f * d)];
  const h = arr(H * d);
  const dh = arr(H * d);
  const lm = arr(V * d);
  const glm = arr(V * d);
  const logits = arr(H * V);
  const call = (
    shape: MatmulCall["shape"],
    out: Float32Array,
    a: Float32Array,
    b: Float32Array,
    M: number,
    K: number,
    N: number,
    accumulate = false,
  ): MatmulCall => ({ shape, out, a, b, M, K, N, accumulate });
  return [
    {
      label: "fwd q/k/v ABt 3x1059x128x128",
      calls: [0, 1, 2].map((i) => call("ABt", yd[i]!, x, Wdd[i]!, T, d, d)),
    },
    { label: "fwd o ABt 1059x128x128", calls: [call("ABt", yd[0]!, x, Wdd[0]!, T, d, d)] },
    {
      label: "fwd gate/up ABt 2x1059x128x352",
      calls: [0, 1].map((i) => call("ABt", yf[i]!, x, Wfd[i]!, T, d, f)),
    },
    { label: "fwd down ABt 1059x352x128", calls: [call("ABt", yd[0]!, xf, Wfd[0]!, T, f, d)] },
    { label: `head ABt ${H}x128x8392`, calls: [call("ABt", logits, h, lm, H, d, V)] },
    { label: `head AB ${H}x8392x128`, calls: [call("AB", dh, logits, lm, H, V, d)] },
    { label: `head AtB 8392x${H}x128`, calls: [call("AtB", glm, logits, h, V, H, d, true)] },
    {
      label: "bwd down AB 1059x128x352 + AtB 128x1059x352",
      calls: [call("AB", yf[0]!, x, Wfd[0]!, T, d, f), call("AtB", gfd[0]!, x, xf, d, T, f, true)],
    },
    {
      label: "bwd gate AB 1059x352x128 + 2 AtB 352x1059x128",
      calls: [
        call("AB", yd[0]!, xf, Wfd[0]!, T, f, d),
        call("AtB", gfd[0]!, xf, x, f, T, d, true),
        call("AtB", gfd[1]!, yf[1]!, x, f, T, d, true),
      ],
    },
    { label: "bwd up AB 1059x352x128 acc", calls: [call("AB", yd[0]!, xf, Wfd[1]!, T, f, d, true)] },
    {
      label: "bwd o/q/k/v AB 1059x128x128 + AtB 128x1059x128",
      calls: [call("AB", yd[1]!, x, Wdd[0]!, T, d, d), call("AtB", gdd[0]!, yd[2]!, x, d, T, d, true)],
    },
  ];
}

/** Times per group this many times in a step (4 layers; o/q/k/v backward 4 per layer). */
const PER_STEP = [4, 4, 4, 4, 1, 1, 1, 4, 4, 4, 16];

function flops(g: Group): number {
  return g.calls.reduce((s, c) => s + 2 * c.M * c.K * c.N, 0);
}

const threadsOf = new Map<WasmKernels, number>();
function threads(k: WasmKernels): number {
  return threadsOf.get(k) ?? 1;
}

function run(k: WasmKernels, g: Group): void {
  if (g.calls.length > 1) k.matmulMany!(g.calls);
  else {
    const c = g.calls[0]!;
    k[`matmul${c.shape}`](c.out, c.a, c.b, c.M, c.K, c.N, c.accumulate);
  }
}

/**
 * A whole step's GEMMs in order on per-layer buffers (activations of 4 layers, ~30 MB, as the workspace holds
 * them), so operands come from where the step leaves them rather than from a hot cache.
 */
function stepCalls(k: WasmKernels): MatmulCall[] {
  const z = (n: number) => {
    const a = k.alloc(n);
    for (let i = 0; i < n; i++) a[i] = ((i * 7919) % 1000) / 1e4 - 0.05;
    return a;
  };
  const L = 4;
  const layers = Array.from({ length: L }, () => ({
    h1: z(T * d),
    q: z(T * d),
    kk: z(T * d),
    v: z(T * d),
    att: z(T * d),
    h2: z(T * d),
    g: z(T * f),
    u: z(T * f),
    a: z(T * f),
    W: { q: z(d * d), k: z(d * d), v: z(d * d), o: z(d * d), gate: z(f * d), up: z(f * d), down: z(d * f) },
    G: { q: z(d * d), k: z(d * d), v: z(d * d), o: z(d * d), gate: z(f * d), up: z(f * d), down: z(d * f) },
  }));
  const tmp = z(T * d);
  const dx = z(T * d);
  const dh = z(T * d);
  const da = z(T * f),
    dg = z(T * f),
    du = z(T * f);
  const hSel = z(H * d),
    dhSel = z(H * d),
    lm = z(V * d),
    glm = z(V * d),
    logits = z(H * V);
  const c = (
    shape: MatmulCall["shape"],
    out: Float32Array,
    a: Float32Array,
    b: Float32Array,
    M: number,
    K: number,
    N: number,
    accumulate = false,
  ): MatmulCall => ({ shape, out, a, b, M, K, N, accumulate });
  const seq: MatmulCall[][] = [];
  for (const A of layers) {
    seq.push([
      c("ABt", A.q, A.h1, A.W.q, T, d, d),
      c("ABt", A.kk, A.h1, A.W.k, T, d, d),
      c("ABt", A.v, A.h1, A.W.v, T, d, d),
    ]);
    seq.push([c("ABt", tmp, A.att, A.W.o, T, d, d)]);
    seq.push([c("ABt", A.g, A.h2, A.W.gate, T, d, f), c("ABt", A.u, A.h2, A.W.up, T, d, f)]);
    seq.push([c("ABt", tmp, A.a, A.W.down, T, f, d)]);
  }
  seq.push([c("ABt", logits, hSel, lm, H, d, V)]);
  seq.push([c("AB", dhSel, logits, lm, H, V, d)]);
  seq.push([c("AtB", glm, logits, hSel, V, H, d, true)]);
  for (const A of [...layers].reverse()) {
    seq.push([c("AB", da, dx, A.W.down, T, d, f), c("AtB", A.G.down, dx, A.a, d, T, f, true)]);
    seq.push([
      c("AB", dh, dg, A.W.gate, T, f, d),
      c("AtB", A.G.gate, dg, A.h2, f, T, d, true),
      c("AtB", A.G.up, du, A.h2, f, T, d, true),
    ]);
    seq.push([c("AB", dh, du, A.W.up, T, f, d, true)]);
    seq.push([c("AB", tmp, dx, A.W.o, T, d, d), c("AtB", A.G.o, dx, A.att, d, T, d, true)]);
    for (const w of ["q", "k", "v"] as const)
      seq.push([c("AB", dh, tmp, A.W[w], T, d, d, w !== "q"), c("AtB", A.G[w], tmp, A.h1, d, T, d, true)]);
  }
  return seq as unknown as MatmulCall[];
}

async function main(): Promise<void> {
  if (argv.includes("--step")) {
    const ks = threadCounts.map((t) => {
      const k = createWasmKernels({ threads: t, native });
      threadsOf.set(k, t);
      return k;
    });
    for (const k of ks) while (threads(k) > 1 && !k.parallel) await new Promise((r) => setTimeout(r, 20));
    const seqs = ks.map((k) => stepCalls(k) as unknown as MatmulCall[][]);
    const best = ks.map(() => Infinity);
    const name = (g: MatmulCall[]) => g.map((m) => `${m.shape} ${m.M}x${m.K}x${m.N}`).join(" + ");
    const per = ks.map(() => new Map<string, number>());
    for (let r = 0; r < rounds; r++) {
      ks.forEach((k, i) => {
        const sums = new Map<string, number>();
        const t0 = performance.now();
        for (let rep = 0; rep < reps; rep++)
          for (const g of seqs[i]!) {
            const s0 = performance.now();
            run(k, { label: "", calls: g });
            const key = name(g);
            sums.set(key, (sums.get(key) ?? 0) + performance.now() - s0);
          }
        const ms = (performance.now() - t0) / reps;
        if (ms < best[i]!) {
          best[i] = ms;
          for (const [key, v] of sums) per[i]!.set(key, v / reps);
        }
      });
    }
    for (const key of per[0]!.keys())
      console.log(
        `${key.padEnd(60)} ${per.map((m) => m.get(key)!.toFixed(2).padStart(7)).join(" ")}  ${per.length > 1 ? (per[0]!.get(key)! / per[1]!.get(key)!).toFixed(2) + "x" : ""}`,
      );
    console.log(
      `whole-step GEMMs: ${threadCounts.map((t, i) => `${t} thread(s) ${best[i]!.toFixed(2)} ms`).join(", ")}` +
        (best.length > 1 ? `, speed-up ${(best[0]! / best[1]!).toFixed(3)}x` : ""),
    );
    await Promise.all(ks.map((k) => k.close()));
    return;
  }
  const kernels = threadCounts.map((threads) => createWasmKernels({ threads, native }));
  // wait for the helpers
  for (const k of kernels)
    while (!k.parallel && k !== kernels[threadCounts.indexOf(1)]) await new Promise((r) => setTimeout(r, 20));
  const sets = kernels.map(groups);
  const best = kernels.map(() => sets[0]!.map(() => Infinity));
  for (let r = 0; r < rounds; r++) {
    kernels.forEach((k, ki) => {
      sets[ki]!.forEach((g, gi) => {
        run(k, g);
        const t0 = performance.now();
        for (let i = 0; i < reps; i++) run(k, g);
        const ms = (performance.now() - t0) / reps;
        best[ki]![gi] = Math.min(best[ki]![gi]!, ms);
      });
    });
  }
  const rows = sets[0]!.map((g, gi) => {
    const cells = threadCounts.map(
      (t, ki) => `${best[ki]![gi]!.toFixed(3)} ms ${(flops(g) / best[ki]![gi]! / 1e6).toFixed(1)} GF`,
    );
    const speed = threadCounts.length > 1 ? (best[0]![gi]! / best[1]![gi]!).toFixed(2) + "x" : "";
    return `${g.label.padEnd(48)} ${cells.join("  ")}  ${speed}`;
  });
  console.log(rows.join("\n"));
  const step = best.map((b) => b.reduce((s, ms, gi) => s + ms * PER_STEP[gi]!, 0));
  console.log(
    `step GEMMs: ${threadCounts.map((t, i) => `${t} thread(s) ${step[i]!.toFixed(2)} ms`).join(", ")}` +
      (step.length > 1 ? `, speed-up ${(step[0]! / step[1]!).toFixed(3)}x` : ""),
  );
  await Promise.all(kernels.map((k) => k.close()));
}

await main();
