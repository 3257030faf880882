import { loadavg } from "node:os";

/** A progress line of `toolgen train` (src/nn/train/progress.ts) as it arrived, with the machine's load then. */
export interface ProgressMark {
  seconds: number;
  step: number;
  steps: number;
  load1: number;
}

/** One window of a stage: its steps per second from the arrival times of the progress lines. */
export interface RateWindow {
  steps: number; // the stage's step count (it names the stage)
  from_step: number;
  to_step: number;
  seconds: number;
  steps_per_s: number;
  load1: number; // the 1-minute load average at the window's end (the run's own threads count too)
}

const PROGRESS = /\] (\d+)\/(\d+) \|/;

/**
 * Collects the progress lines of a child's stderr as they arrive (feed it every chunk): without a terminal the
 * bar prints a line every 5 s, so the arrival times give the step rate through a stage, and a rate that drops
 * with the load average rising says another job took the cores, one that drops with the load unchanged says the
 * steps themselves got slower (issue 40).
 */
export class ProgressRecorder {
  readonly marks: ProgressMark[] = [];
  private partial = "";
  private readonly started = performance.now();

  feed(chunk: string): void {
    const lines = (this.partial + chunk).split("\n");
    this.partial = lines.pop() ?? "";
    for (const line of lines) {
      const m = PROGRESS.exec(line);
      if (!m) continue;
      this.marks.push({
        seconds: (performance.now() - this.started) / 1000,
        step: Number(m[1]),
        steps: Number(m[2]),
        load1: loadavg()[0]!,
      });
    }
  }

  /** Windows of at least `seconds` within each stage (a stage is a run of lines with the same step count). */
  windows(seconds = 60): RateWindow[] {
    return rateWindows(this.marks, seconds);
  }
}

export function rateWindows(marks: readonly ProgressMark[], seconds = 60): RateWindow[] {
  const out: RateWindow[] = [];
  let start: ProgressMark | undefined;
  for (const m of marks) {
    if (!start || m.steps !== start.steps || m.step < start.step) {
      start = m;
      continue;
    }
    const dt = m.seconds - start.seconds;
    if (dt >= seconds || m.step === m.steps) {
      if (dt > 0 && m.step > start.step)
        out.push({
          steps: m.steps,
          from_step: start.step,
          to_step: m.step,
          seconds: Math.round(dt * 10) / 10,
          steps_per_s: Math.round(((m.step - start.step) / dt) * 100) / 100,
          load1: Math.round(m.load1 * 100) / 100,
        });
      start = m;
    }
  }
  return out;
}
