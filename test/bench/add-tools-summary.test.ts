// bench:retrieval's copy of the add-tools experiment: rule D's test figures are read at each addition's D offset
// (not at offset 0), seeds of one configuration are averaged, and only timed runs with a whole retraining count.
import { describe, expect, it } from "vitest";
import { retimeSummary, ruleDSummary } from "../../bench/lib/add-tools-summary.ts";

const figures = (old: number, fresh: number) => ({
  old_test: { "ndcg@1": old },
  new_test: { "ndcg@1": fresh },
});

describe("ruleDSummary", () => {
  it("reads each pick at its D offset and averages a configuration's seeds", () => {
    const data = {
      checks: {
        full: {
          dev: { old_dev: { "ndcg@1": 78 } },
          floor_D: 77,
          test: { "0": figures(77.1, 77.1) },
          goal_lines_old_test: { rebuilt: 76.1, recorded: 77.52 },
        },
        "add cfg-seed-7": {
          calibration: { chosen: { D: { offset: -0.1 } } },
          test: { "0": figures(70, 70), "-0.1": figures(78, 72) },
        },
        "add cfg-seed-8": {
          calibration: { chosen: { D: { offset: -0.5 } } },
          test: { "0": figures(70, 70), "-0.5": figures(77, 70) },
        },
        // declared without rule D: no D offset, left out
        "add other": { calibration: { chosen: { B: { offset: 0 } } }, test: { "0": figures(1, 1) } },
      },
    };
    const s = ruleDSummary(data);
    expect(s.at_rule_D).toEqual({
      "cfg-seed-7": { offset: -0.1, old_test: 78, new_test: 72 },
      "cfg-seed-8": { offset: -0.5, old_test: 77, new_test: 70 },
    });
    expect(s.means_at_rule_D).toEqual({ cfg: { seeds: 2, old_test: 77.5, new_test: 71 } });
    expect(s.rebuilt_retraining).toMatchObject({ dev_old: 78, floor_D: 77, test_old: 77.1, test_new: 77.1 });
  });
});

describe("retimeSummary", () => {
  it("keeps the runs timed beside a whole retraining, with each addition's share", () => {
    const timing = (cpu: number) => ({ cpu_s: cpu, wall_s: cpu / 2 });
    const s = retimeSummary({
      runs: [
        { started: "a", threads: "1", items: [{ item: "full-sixteenth", timing: timing(265) }] },
        {
          started: "b",
          threads: "2",
          items: [
            { item: "full", timing: timing(3000) },
            { item: "x", timing: timing(270), cpu_share_of_measured_full: 0.09 },
          ],
        },
      ],
    });
    expect(s.beside_whole_retraining).toEqual([
      {
        started: "b",
        threads: "2",
        items: [
          { item: "full", cpu_s: 3000, wall_s: 1500 },
          { item: "x", cpu_s: 270, wall_s: 135, cpu_share_of_measured_full: 0.09 },
        ],
      },
    ]);
  });
});
