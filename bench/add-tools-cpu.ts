/**
 * CPU seconds per phase of a training run, read from the lines it logs (bench/add-tools-retime.ts): each line is
 * stamped with the process's CPU and wall seconds since the run began, and a phase's CPU is the span between the
 * lines that end it and the phase before.
 */
export interface StageCost {
  stage: string;
  samples: number;
  steps: number;
  wall_s: number;
  /** Tokens trained, from the stage report (its rate times its seconds: within a step's tokens). */
  tokens: number;
}

/** A line the training logged, with the CPU and wall seconds since the item started. */
export interface Mark {
  line: string;
  cpu_s: number;
  wall_s: number;
}

/** A log function that records each line with the CPU and wall seconds since it was made. */
export function marker(): { log: (line: string) => void; marks: Mark[] } {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const marks: Mark[] = [];
  const log = (line: string) => {
    const cpu = process.cpuUsage(cpu0);
    marks.push({ line, cpu_s: (cpu.user + cpu.system) / 1e6, wall_s: (performance.now() - t0) / 1000 });
    process.stderr.write(line + "\n");
  };
  return { log, marks };
}

/** The log line that ends a stage (src/train/pipeline.ts and add-tools.ts alike). */
export const stageEnd = (stage: string): [string, RegExp] => [stage, new RegExp(`^${stage}: \\d+ steps in `)];

/**
 * CPU seconds per phase: a phase ends at the first mark after the previous phase's end that its pattern matches
 * (the first phase begins at the start); a phase whose line never came is left out; the CPU after the last
 * phase's end, up to `total`, is `rest`.
 */
export function phases(
  marks: readonly Mark[],
  ends: ReadonlyArray<[string, RegExp]>,
  total: number,
): Record<string, number> {
  const out: Record<string, number> = {};
  let last = 0;
  let from = 0;
  for (const [name, pattern] of ends) {
    const at = marks.findIndex((m, i) => i >= from && pattern.test(m.line));
    if (at < 0) continue;
    out[name] = marks[at]!.cpu_s - last;
    last = marks[at]!.cpu_s;
    from = at + 1;
  }
  out.rest = total - last;
  return out;
}

/** The full retraining's CPU from a slice's: each stage's CPU scaled by the full schedule's steps over the slice's. */
export function scaleSlice(
  phasesCpu: Record<string, number>,
  stages: readonly StageCost[],
  fullSteps: Record<string, number>,
): number {
  let scaled = 0;
  for (const [phase, cpu] of Object.entries(phasesCpu)) {
    const s = stages.find((x) => x.stage === phase);
    scaled += s ? (cpu * fullSteps[phase]!) / s.steps : cpu;
  }
  return scaled;
}

/**
 * The full retraining's work counted in retrieval steps: each stage's full steps weighted by the slice's CPU per
 * step of that stage over its CPU per retrieval step (a memorization step packs longer samples).
 */
export function fullRetrievalSteps(
  slicePhases: Record<string, number>,
  sliceStages: readonly StageCost[],
  fullSteps: Record<string, number>,
): number {
  const perStep = (stage: string) =>
    (slicePhases[stage] ?? NaN) / (sliceStages.find((s) => s.stage === stage)?.steps ?? NaN);
  const retrieval = perStep("retrieval");
  return Object.entries(fullSteps).reduce((n, [stage, steps]) => n + (steps * perStep(stage)) / retrieval, 0);
}

/**
 * An addition's share of the full retraining read at the addition's own CPU rate: its CPU seconds over its
 * retrieval stage's CPU per step times the full retraining's work in retrieval steps. CPU per step follows the
 * machine's load (0.61 s in a slice, 0.78 s in the addition after it, minutes apart, at the same tokens a step);
 * this share does not, as long as the load holds through the addition itself.
 */
export function shareAtOwnRate(
  cpu: number,
  retrievalCpu: number,
  retrievalSteps: number,
  fullInRetrievalSteps: number,
): number {
  return cpu / ((retrievalCpu / retrievalSteps) * fullInRetrievalSteps);
}
