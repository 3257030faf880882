import { loadCatalog, loadQueries } from "../../src/catalog/load.ts";
import { headDim } from "../../src/nn/config.ts";
import type { Batch, Llama } from "../../src/nn/llama.ts";
import { emptyStats, kernels, type KernelStats } from "../../src/nn/kernels/index.ts";
import { train } from "../../src/nn/train/trainer.ts";
import { stageSeed, TINY, toolgenSetup } from "./toolgen-stage.ts";

/** One GEMM of the stage with how many times a step runs it (layers × projections). */
export interface StageGemm {
  label: string;
  shape: "ABt" | "AB" | "AtB";
  M: number;
  K: number;
  N: number;
  times: number;
}

export interface StageFigures {
  stage: "retrieval";
  queries: number;
  steps_timed: number;
  batch_size: number;
  token_dropout: number;
  tokens_per_step: number;
  head_rows_per_step: number;
  stage_tokens_per_s: number;
  flops_per_token: number;
  stage_gflops: number;
  stage_gflops_cpu: number;
  setup_seconds: number;
  /** Where a timed step's time went (the kernels' own timing; absent without the WebAssembly kernels). */
  step?: StepBreakdown;
  gemms: StageGemm[];
}

/**
 * A mean timed step: milliseconds per operation (kernel calls; `other` is the JavaScript between them: batching,
 * the trainer, checks), each one's share of the step, and the serial fraction, the share of the step spent
 * outside jobs large enough to share with the pool's threads (measured on one thread, it is what Amdahl's law
 * takes).
 */
export interface StepBreakdown {
  ms_per_step: number;
  serial_fraction: number;
  ops: Array<{
    op: string;
    ms_per_step: number;
    share: number;
    pooled_share: number;
    /** In the pool's jobs (2+ threads): all threads' item time, the caller's wait for the last items, jobs. */
    busy_ms_per_step?: number;
    caller_wait_ms_per_step?: number;
    jobs_per_step?: number;
  }>;
}

function breakdown(stats: KernelStats, seconds: number, steps: number): StepBreakdown {
  const total = seconds * 1000;
  const inKernels = Object.values(stats.ms).reduce((a, b) => a + b, 0);
  const pooled = Object.values(stats.pooledMs).reduce((a, b) => a + b, 0);
  const r = (x: number, digits: number) => Number(x.toFixed(digits));
  const ops = Object.entries({ ...stats.ms, "other (JS: batching, trainer, checks)": total - inKernels })
    .sort((a, b) => b[1] - a[1])
    .map(([op, ms]) => ({
      op,
      ms_per_step: r(ms / steps, 2),
      share: r(ms / total, 4),
      pooled_share: r((stats.pooledMs[op] ?? 0) / total, 4),
      ...(stats.jobs[op]
        ? {
            busy_ms_per_step: r(stats.busyMs[op]! / steps, 2),
            caller_wait_ms_per_step: r(stats.waitMs[op]! / steps, 2),
            jobs_per_step: r(stats.jobs[op]! / steps, 1),
          }
        : {}),
    }));
  return { ms_per_step: r(total / steps, 1), serial_fraction: r(1 - pooled / total, 4), ops };
}

/**
 * FLOPs of one training step on a packed batch (bench/README.md): 6 × non-embedding parameters per token (the
 * linear layers' forward, dx and dW), attention 12·d per (query, key) pair inside a sample per layer (QKᵀ and
 * P·V forward, four products backward), and 6·d·V per LM-head row actually computed (rows with a target).
 */
export function stepFlops(model: Llama, batch: Batch): { flops: number; tokens: number; headRows: number } {
  const c = model.config;
  let nonEmbedding = 0;
  for (const t of model.params.tensors) {
    if (t.name !== "model.embed_tokens.weight" && t.name !== "lm_head.weight") nonEmbedding += t.data.length;
  }
  const tokens = batch.B * batch.T;
  let pairs = 0;
  const spans = batch.spans ?? Int32Array.from({ length: 2 * batch.B }, (_, i) => (i % 2 ? batch.T : 0));
  for (let i = 1; i < spans.length; i += 2) pairs += (spans[i]! * (spans[i]! + 1)) / 2;
  let headRows = 0;
  for (const t of batch.targets) if (t >= 0) headRows++;
  const d = c.hiddenSize;
  const attention = 12 * c.numLayers * headDim(c) * c.numHeads * pairs;
  const head = 6 * headRows * d * c.vocabSize;
  return { flops: 6 * nonEmbedding * tokens + attention + head, tokens, headRows };
}

/**
 * The ToolGen retrieval stage at the tiny preset on MetaTool: the pipeline's tokenizer, virtual tokens and
 * samples (the user loss on: the LM head at every query token, as `toolgen train` runs it), trained through
 * src/nn train() (packed batches of 32 samples, token dropout 0.3) for `steps` steps;
 * the first step (allocation, warm-up) is not timed. Returns real tokens/s and the GEMM shapes a mean step runs.
 */
export async function retrievalStage(
  toolsFile: string,
  queriesFile: string,
  steps: number,
): Promise<StageFigures> {
  const t0 = performance.now();
  const catalog = loadCatalog(toolsFile);
  const queries = loadQueries(queriesFile, catalog);
  const { model, stageSamples } = toolgenSetup(catalog, queries);
  const samples = stageSamples("retrieval");
  const setup = (performance.now() - t0) / 1000;
  const { lr, tokenDropout, averageLast } = TINY.stages.retrieval;
  // observe the batches training builds (their FLOPs), without changing them
  const seen: Array<{ flops: number; tokens: number; headRows: number }> = [];
  const forwardBackward = model.forwardBackward.bind(model);
  model.forwardBackward = (batch, grads, o) => {
    seen.push(stepFlops(model, batch));
    return forwardBackward(batch, grads, o);
  };
  const k = kernels() as { collectStats?: (s?: KernelStats) => void };
  const stats = emptyStats();
  const stop = new AbortController();
  let last = 0;
  let lastCpu = process.cpuUsage();
  let cpuSeconds = 0;
  let seconds = 0;
  let flops = 0;
  let tokens = 0;
  let headRows = 0;
  const seqLen = Math.min(
    model.config.maxPositions,
    samples.reduce((m, s) => Math.max(m, s.ids.length), 1),
  );
  await train(
    model,
    { kind: "samples", samples, padId: model.config.padTokenId ?? 0, seqLen },
    {
      steps: Math.ceil((TINY.stages.retrieval.epochs * samples.length) / TINY.batchSize),
      batchSize: TINY.batchSize,
      lr,
      seed: stageSeed("retrieval"),
      warmupFraction: TINY.warmupFraction,
      tokenDropout,
      averageLast,
      onStep: (info) => {
        const now = performance.now();
        const cpu = process.cpuUsage();
        const s = seen[seen.length - 1]!;
        if (info.step > 1) {
          seconds += (now - last) / 1000;
          cpuSeconds += (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1e6;
          flops += s.flops;
          tokens += s.tokens;
          headRows += s.headRows;
        }
        last = now;
        lastCpu = cpu;
        // the kernels time the steps that are timed here, and no more
        k.collectStats?.(info.step >= steps + 1 ? undefined : stats);
        if (info.step >= steps + 1) stop.abort();
      },
      signal: stop.signal,
    },
  );
  const c = model.config;
  const M = Math.round(tokens / steps);
  const rowsHead = Math.round(headRows / steps);
  const d = c.hiddenSize;
  const f = c.intermediateSize;
  const L = c.numLayers;
  const V = c.vocabSize;
  const linear = (inF: number, outF: number, times: number, m: number, name: string): StageGemm[] => [
    { label: `ABt ${m}x${inF}x${outF} (${name})`, shape: "ABt", M: m, K: inF, N: outF, times },
    { label: `AB ${m}x${outF}x${inF} (${name} dx)`, shape: "AB", M: m, K: outF, N: inF, times },
    { label: `AtB ${outF}x${m}x${inF} (${name} dW)`, shape: "AtB", M: outF, K: m, N: inF, times },
  ];
  return {
    stage: "retrieval",
    queries: queries.length,
    steps_timed: steps,
    batch_size: TINY.batchSize,
    token_dropout: tokenDropout ?? 0,
    tokens_per_step: M,
    head_rows_per_step: rowsHead,
    stage_tokens_per_s: Math.round(tokens / seconds),
    flops_per_token: Math.round(flops / tokens),
    stage_gflops: Math.round((flops / seconds / 1e9) * 10) / 10,
    stage_gflops_cpu: Math.round((flops / cpuSeconds / 1e9) * 10) / 10,
    setup_seconds: Math.round(setup * 10) / 10,
    ...(k.collectStats ? { step: breakdown(stats, seconds, steps) } : {}),
    gemms: [
      ...linear(d, d, 4 * L, M, "q/k/v/o"),
      ...linear(d, f, 2 * L, M, "gate/up"),
      ...linear(f, d, L, M, "down"),
      ...linear(d, V, 1, rowsHead, "lm_head"),
    ],
  };
}
