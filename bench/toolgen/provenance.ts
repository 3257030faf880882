import { existsSync } from "node:fs";
import { join } from "node:path";
import { codeStatus } from "../../src/train/pipeline.ts";
import { trainingCodeVersion } from "../../src/train/code-version.ts";
import { MANIFEST_FILE, readManifest, type ToolGenManifest } from "../../src/toolgen/model-folder.ts";
import type { Stage } from "../../src/train/datasets.ts";

/** The folder's manifest when every stage is trained, else undefined (the bench then lists it as not trained). */
export function readyManifest(out: string, stages: readonly Stage[]): ToolGenManifest | undefined {
  if (!existsSync(join(out, MANIFEST_FILE))) return undefined;
  const m = readManifest(out);
  return m && stages.every((s) => m.done.some((r) => r.stage === s)) ? m : undefined;
}

/**
 * What the results JSON says about one trained model: its training cost per stage (seconds, tokens/s, peak RSS)
 * and its provenance — the data/options fingerprint, the code version it was trained with and whether that is
 * the code this run has (`code_status`: same, changed or unknown), and the one command that rebuilds it.
 */
export function modelSummary(out: string, manifest: ToolGenManifest): Record<string, unknown> {
  const group = out.split("/").slice(-2, -1)[0];
  const name = out.split("/").slice(-1)[0];
  return {
    training: manifest.done.map((r) => ({
      stage: r.stage,
      samples: r.samples,
      epochs: r.epochs,
      steps: r.steps,
      token_dropout: r.tokenDropout ?? 0,
      seconds: Math.round(r.seconds),
      tokens_per_second: Math.round(r.tokensPerSecond),
      peak_rss_mb: r.peakRssMb,
      final_loss: Math.round(r.finalLoss * 1e4) / 1e4,
      code: r.code ?? null,
    })),
    train_seconds: Math.round(manifest.done.reduce((s, r) => s + r.seconds, 0)),
    peak_rss_mb: Math.max(...manifest.done.map((r) => r.peakRssMb)),
    fingerprint: manifest.fingerprint,
    code: manifest.code?.hash ?? null,
    code_status: codeStatus(manifest),
    current_code: trainingCodeVersion().hash,
    rebuild: `TOOLGEN_BENCH_DATA=… npx tsx bench/toolgen/train.ts ${group} ${name}`,
  };
}
