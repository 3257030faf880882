import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";

/**
 * What the report draws, found in any result JSON by shape rather than by file name, so new benchmarks and eval
 * outputs show up without changes here: NDCG rows (objects with `ndcg@k` keys, as `toolgen eval retrieval --json`
 * writes them), loss curves (number arrays or {step, loss} arrays under a key containing "loss"), latency samples
 * (number arrays under a key ending in `_ms` or containing "latenc"), latency percentiles (p50/p95 keys), and
 * ToolGen training manifests (`toolgen.json`: stages with final loss and time).
 */
export interface ResultFile {
  name: string;
  path: string;
  data: unknown;
}

export interface ReportData {
  files: ResultFile[];
  ndcg: { label: string; values: Record<string, number> }[];
  losses: { label: string; points: [number, number][] }[];
  latencySamples: { label: string; values: number[] }[];
  percentiles: { label: string; values: Record<string, number> }[];
  stages: {
    label: string;
    stage: string;
    samples: number;
    steps: number;
    seconds: number;
    finalLoss: number;
  }[];
  skipped: string[];
}

/** Reads each path: a .json file, or every .json file in a folder (not recursive). */
export function readResultFiles(paths: readonly string[]): { files: ResultFile[]; skipped: string[] } {
  const files: ResultFile[] = [];
  const skipped: string[] = [];
  for (const p of paths) {
    if (!existsSync(p)) {
      skipped.push(`${p}: not found`);
      continue;
    }
    const list = statSync(p).isDirectory()
      ? readdirSync(p)
          .filter((f) => f.endsWith(".json"))
          .sort()
          .map((f) => join(p, f))
      : [p];
    for (const file of list) {
      try {
        files.push({
          name: basename(file, ".json"),
          path: file,
          data: JSON.parse(readFileSync(file, "utf8")),
        });
      } catch (error) {
        skipped.push(`${file}: not JSON (${(error as Error).message})`);
      }
    }
  }
  return { files, skipped };
}

const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

export function collectReportData(files: ResultFile[], skipped: string[] = []): ReportData {
  const out: ReportData = {
    files,
    ndcg: [],
    losses: [],
    latencySamples: [],
    percentiles: [],
    stages: [],
    skipped,
  };
  for (const f of files) walk(f.data, f.name, out);
  return out;
}

function walk(value: unknown, label: string, out: ReportData): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => walk(v, `${label}[${i}]`, out));
    return;
  }
  if (typeof value !== "object" || value === null) return;
  const o = value as Record<string, unknown>;
  const ndcg = Object.fromEntries(
    Object.entries(o).filter(([k, v]) => /^ndcg(_toolgen)?@\d+$/.test(k) && isNum(v)),
  );
  if (Object.keys(ndcg).length > 0) {
    const name = typeof o.retriever === "string" ? `${label} (${o.retriever})` : label;
    out.ndcg.push({ label: name, values: ndcg as Record<string, number> });
  }
  const pct = Object.fromEntries(Object.entries(o).filter(([k, v]) => /^p\d+(_ms)?$/.test(k) && isNum(v)));
  if (Object.keys(pct).length > 0) out.percentiles.push({ label, values: pct as Record<string, number> });
  if (o.format === "toolgen-model/1" && Array.isArray(o.done)) {
    for (const s of o.done as Record<string, unknown>[]) {
      if (typeof s.stage === "string" && isNum(s.finalLoss) && isNum(s.seconds)) {
        out.stages.push({
          label,
          stage: s.stage,
          samples: Number(s.samples),
          steps: Number(s.steps),
          seconds: s.seconds,
          finalLoss: s.finalLoss,
        });
      }
    }
  }
  for (const [k, v] of Object.entries(o)) {
    const where = `${label}.${k}`;
    if (Array.isArray(v) && v.length >= 2) {
      if (/loss/i.test(k)) {
        if (v.every(isNum)) out.losses.push({ label: where, points: v.map((y, i) => [i + 1, y]) });
        else if (v.every((p) => isNum((p as { loss?: unknown })?.loss))) {
          out.losses.push({
            label: where,
            points: (v as { step?: number; loss: number }[]).map((p, i) => [
              isNum(p.step) ? p.step : i + 1,
              p.loss,
            ]),
          });
        }
        continue;
      }
      if ((/_ms$|latenc/i.test(k) && v.every(isNum)) || (/latenc/i.test(k) && v.length >= 5)) {
        if (v.every(isNum)) out.latencySamples.push({ label: where, values: v });
        continue;
      }
    }
    walk(v, where, out);
  }
}
