import { describe, expect, it } from "vitest";
import { ProgressRecorder, rateWindows, type ProgressMark } from "../../bench/lib/train-progress.ts";

const mark = (seconds: number, step: number, steps: number, load1 = 2): ProgressMark => ({
  seconds,
  step,
  steps,
  load1,
});

describe("train-schedule's step rate through a stage", () => {
  it("gives windows of a minute per stage, and shows a rate that halves mid-stage", () => {
    const marks = [mark(0, 0, 199), mark(30, 100, 199), mark(60, 199, 199)];
    // retrieval: 6 steps/s for two minutes, then 3 steps/s with the load up (another job)
    for (let t = 0; t <= 240; t += 5) {
      const step = t <= 120 ? 6 * t : 720 + 3 * (t - 120);
      marks.push(mark(60 + t, step, 6261, t <= 120 ? 2 : 3));
    }
    const w = rateWindows(marks, 60);
    expect(w[0]).toMatchObject({ steps: 199, from_step: 0, to_step: 199, steps_per_s: 3.32 });
    const retrieval = w.filter((x) => x.steps === 6261);
    expect(retrieval.map((x) => x.steps_per_s)).toEqual([6, 6, 3, 3]);
    expect(retrieval.map((x) => x.load1)).toEqual([2, 2, 3, 3]);
  });

  it("reads progress lines split across chunks and ignores other output", () => {
    const r = new ProgressRecorder();
    r.feed("memorization: 199 steps in 52.4 s\ntrain [███░░] 18/6");
    r.feed("261 | loss 6.0228 | 5343 tok/s | lr 1.99e-3 | eta 50s\nnoise\n");
    expect(r.marks.map((m) => [m.step, m.steps])).toEqual([[18, 6261]]);
  });
});
