import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import type { StepBreakdown } from "./engine-stage.ts";

/** What bench/engine.ts prints of the ToolGen stage (one child run, one thread count). */
interface StageRun {
  threads: number;
  stage_tokens_per_s: number;
  step?: StepBreakdown;
  [figure: string]: unknown;
}

export const STAGE_SETUP = (steps: number) =>
  "ToolGen retrieval stage, tiny preset, MetaTool (all shared queries): the pipeline's tokenizer, virtual " +
  `tokens and samples (the user loss on, as the schedule has it), src/nn train() with packed batches of 32 samples and token dropout 0.3; ${steps} ` +
  "steps after one untimed step. stage_tokens_per_s counts real tokens (no padding exists in packed rows); " +
  "flops_per_token as in bench/README.md; reference_gflops: OpenBLAS on the stage's own GEMM shapes (M = " +
  "mean packed tokens per step; the LM head at its rows with a target), weighted by each shape's FLOPs in a " +
  "step, same run; train_efficiency = stage_gflops / reference_gflops. Each thread count runs in its own " +
  "process (TOOLGEN_KERNEL_THREADS, OPENBLAS_NUM_THREADS alike), the counts taking turns for `rounds` rounds; " +
  "the figures are each count's fastest round (the machine is shared: the closest to what the code can do)";

const round = (x: number, digits: number) => Number(x.toFixed(digits));

/** Amdahl's law: the speed-up on n threads of a step whose fraction s cannot be shared. */
export function amdahl(s: number, n: number): number {
  return 1 / (s + (1 - s) / n);
}

/**
 * One child run of bench/engine.ts --stage-only on `threads` threads; null when it fails. `kernels`: the
 * child's TOOLGEN_KERNELS (undefined: this process's own setting).
 */
function stageRun(threads: number, quick: boolean, kernels?: string): StageRun | null {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TOOLGEN_KERNEL_THREADS: String(threads),
    OPENBLAS_NUM_THREADS: String(threads),
  };
  if (kernels !== undefined) env.TOOLGEN_KERNELS = kernels;
  const child = spawnSync(
    process.execPath,
    [...process.execArgv, process.argv[1]!, "--stage-only", ...(quick ? ["--quick"] : [])],
    { encoding: "utf8", env, maxBuffer: 1 << 26 },
  );
  if (child.status !== 0) {
    process.stderr.write(`${threads}-thread stage run (${kernels ?? "default"}) failed: ${child.stderr}\n`);
    return null;
  }
  return JSON.parse(child.stdout.trim().split("\n").pop()!) as StageRun | null;
}

/**
 * The stage on each thread count, counts taking turns for `rounds` rounds (so a change of the machine's load
 * hits them alike), with the speed-up over one thread, the serial fraction of a step measured on one thread
 * (the time outside jobs the pool can share), Amdahl's projection from it to 2–16 threads, and the serial
 * fraction the measured 2-thread speed-up implies (Karp–Flatt: 2/S − 1; it includes the machine's load).
 */
export function stageByThreads(counts: number[], rounds: number, quick: boolean) {
  return stageByKernels([undefined], counts, rounds, quick)[0]!;
}

/**
 * stageByThreads for each kernel setting in `kernelSets` (TOOLGEN_KERNELS values; undefined: this process's),
 * the settings and thread counts all taking turns within each round, so the machine's drift hits them alike.
 */
export function stageByKernels(
  kernelSets: (string | undefined)[],
  counts: number[],
  rounds: number,
  quick: boolean,
) {
  const runs = kernelSets.map(() => ({}) as Record<string, StageRun[]>);
  const loads = kernelSets.map(() => [] as number[][]);
  for (let r = 0; r < rounds; r++) {
    for (const t of counts) {
      kernelSets.forEach((kernels, ki) => {
        loads[ki]!.push(loadavg().map((x) => round(x, 2)));
        const run = stageRun(t, quick, kernels);
        if (run) (runs[ki]![t] ??= []).push(run);
      });
    }
  }
  // OpenBLAS's reference, measured in every child, collapses now and then on a shared machine (a shape at a few
  // GFLOPS when another job wakes): each count's highest reference over all runs is the steady one
  const bestReference: Record<string, number> = {};
  for (const list of runs)
    for (const [t, rs] of Object.entries(list))
      for (const r of rs) bestReference[t] = Math.max(bestReference[t] ?? 0, Number(r.reference_gflops) || 0);
  return runs.map((list, ki) => ({
    ...summarize(list, loads[ki]!, rounds),
    // the fastest round's stage GFLOPS over that steady reference: the conservative figure, and the one to
    // read when a run's own reference collapsed
    train_efficiency_best_reference: Object.fromEntries(
      Object.keys(list).map((t) => {
        const fastest = list[t]!.reduce((a, b) => (b.stage_tokens_per_s > a.stage_tokens_per_s ? b : a));
        const ref = bestReference[t]!;
        return [t, ref > 0 ? round(Number(fastest.stage_gflops) / ref, 3) : null];
      }),
    ),
    reference_gflops_best: bestReference,
  }));
}

/** Each operation's 1- and 2-thread time a step, speed-up, and the 2-thread jobs' busy and idle thread time. */
function opScaling(one: StageRun | undefined, two: StageRun | undefined) {
  if (!one?.step || !two?.step) return null;
  const at2 = new Map(two.step.ops.map((o) => [o.op, o]));
  return one.step.ops.map((o) => {
    const t = at2.get(o.op);
    const ms2 = t?.ms_per_step ?? 0;
    const busy = t?.busy_ms_per_step;
    return {
      op: o.op,
      ms_1_thread: o.ms_per_step,
      ms_2_threads: ms2,
      speedup: ms2 > 0 ? round(o.ms_per_step / ms2, 2) : null,
      ...(busy === undefined
        ? {}
        : {
            busy_ms: busy,
            busy_over_1_thread: o.ms_per_step > 0 ? round(busy / o.ms_per_step, 2) : null,
            idle_ms: round(2 * ms2 - busy, 2),
            caller_wait_ms: t!.caller_wait_ms_per_step,
            jobs: t!.jobs_per_step,
          }),
    };
  });
}

/** The figures of one kernel setting's runs (`runs` by thread count) described at stageByThreads. */
function summarize(runs: Record<string, StageRun[]>, loads: number[][], rounds: number) {
  const best: Record<string, StageRun> = {};
  for (const [t, list] of Object.entries(runs)) {
    best[t] = list.reduce((a, b) => (b.stage_tokens_per_s > a.stage_tokens_per_s ? b : a));
  }
  const one = best["1"];
  const serial = one?.step?.serial_fraction;
  const speedup = (t: string) =>
    one ? round(best[t]!.stage_tokens_per_s / one.stage_tokens_per_s, 3) : null;
  const s2 = best["2"] ? speedup("2") : null;
  const shares = (run: StageRun | undefined) =>
    run?.step ? Object.fromEntries(run.step.ops.map((o) => [o.op, o.share])) : null;
  return {
    ...best,
    rounds,
    tokens_per_s_by_round: Object.fromEntries(
      Object.entries(runs).map(([t, list]) => [t, list.map((x) => x.stage_tokens_per_s)]),
    ),
    load_average_before_each_run: loads,
    speedup_over_1_thread: Object.fromEntries(Object.keys(best).map((t) => [t, speedup(t)])),
    // CPU seconds per wall second of the fastest round: the cores the OS gave the run (≤ its thread count)
    cores_used: Object.fromEntries(
      Object.entries(best).map(([t, r]) => [
        t,
        round(Number(r.stage_gflops) / Number(r.stage_gflops_cpu), 2),
      ]),
    ),
    // stage GFLOPS over threads × the engine's own 1-thread GEMM GFLOPS on the stage's shapes (the 1-thread run's
    // matmul_gflops): how near the step comes to its own kernels scaled perfectly. train_efficiency compares with
    // OpenBLAS, whose 256/512-bit FMA the 128-bit wasm SIMD (no FMA) cannot issue; this figure leaves that out.
    own_gemm_efficiency: Object.fromEntries(
      Object.entries(best).map(([t, r]) => [
        t,
        one && Number(one.matmul_gflops) > 0
          ? round(Number(r.stage_gflops) / (Number(t) * Number(one.matmul_gflops)), 3)
          : null,
      ]),
    ),
    serial_fraction: serial ?? null,
    serial_fraction_note:
      "share of a 1-thread step spent outside jobs large enough for the pool (kernel timing: JS glue, batching, " +
      "the trainer, and kernel calls too small to share)",
    amdahl_speedup:
      serial === undefined
        ? null
        : Object.fromEntries([2, 4, 8, 16].map((n) => [n, round(amdahl(serial, n), 2)])),
    karp_flatt_serial_fraction: s2 ? round(2 / s2 - 1, 3) : null,
    op_shares_1_thread: shares(one),
    op_shares_2_threads: shares(best["2"]),
    op_scaling_2_threads: opScaling(one, best["2"]),
    op_scaling_note:
      "per operation of the fastest rounds: ms a step on 1 and 2 threads and the speed-up; in the 2-thread pool " +
      "jobs, busy = both threads' time computing items (busy / the 1-thread ms: how much more the same work " +
      "costs when both cores compute), idle = 2 × ms − busy (hand-offs, waiting, imbalance), caller_wait = the " +
      "caller's part of it at the jobs' ends, jobs a step",
  };
}
