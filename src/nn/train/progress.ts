import cliProgress from "cli-progress";
import type { StepInfo } from "./trainer.ts";

/** A progress bar on stderr showing loss and tokens/s; `update` fits `TrainOptions.onStep`. */
export function trainingProgressBar(
  total: number,
  startStep = 0,
): { update(info: StepInfo): void; stop(): void } {
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: "train [{bar}] {value}/{total} | loss {loss} | {tps} tok/s | lr {lr} | eta {eta_formatted}",
      hideCursor: false,
      etaBuffer: 20,
      // without a terminal (CI, nohup, a pipe) print a plain line every 5 s instead of redrawing
      noTTYOutput: true,
      notTTYSchedule: 5000,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, startStep, { loss: "-", tps: "-", lr: "-" });
  return {
    update(info) {
      bar.update(info.step, {
        loss: info.loss.toFixed(4),
        tps: Math.round(info.tokensPerSecond).toString(),
        lr: info.lr.toExponential(2),
      });
    },
    stop() {
      bar.stop();
    },
  };
}
