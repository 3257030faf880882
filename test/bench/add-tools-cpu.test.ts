import { describe, expect, it } from "vitest";
import {
  fullRetrievalSteps,
  marker,
  phases,
  scaleSlice,
  shareAtOwnRate,
  stageEnd,
  type StageCost,
} from "../../bench/add-tools-cpu.ts";

const mark = (line: string, cpu_s: number) => ({ line, cpu_s, wall_s: cpu_s });

describe("add-tools CPU phases", () => {
  it("splits the CPU at the lines that end each phase, the rest after the last", () => {
    const marks = [
      mark("rows: fitting 40 new rows on 7698 examples", 3),
      mark("rows: loss 0.49, accuracy 0.857, 21.0 s", 24),
      mark("memorization: 40 new samples + 80 replayed", 24.5),
      mark("memorization: 8 steps in 6.1 s, final loss 6.48", 31),
      mark("retrieval: 2526 new samples + 5052 replayed", 32),
      mark("retrieval: 711 steps in 250.0 s, final loss 3.79", 282),
    ];
    const ends: Array<[string, RegExp]> = [
      ["setup", /^rows: fitting /],
      ["rows", /^rows: loss /],
      stageEnd("memorization"),
      stageEnd("retrieval"),
    ];
    expect(phases(marks, ends, 290)).toEqual({
      setup: 3,
      rows: 21,
      memorization: 7,
      retrieval: 251,
      rest: 8,
    });
  });

  it("leaves out a phase whose line never came (a slice has no rows fit)", () => {
    const marks = [
      mark("memorization: 13 steps in 9.0 s, final loss 5", 12),
      mark("retrieval: 412 steps in 150.0 s, final loss 4", 165),
    ];
    const out = phases(
      marks,
      [["rows", /^rows: loss /], stageEnd("memorization"), stageEnd("retrieval")],
      166,
    );
    expect(out).toEqual({ memorization: 12, retrieval: 153, rest: 1 });
  });

  it("a stage's start line does not end it", () => {
    const marks = [mark("retrieval: 2526 new samples + 5052 replayed", 5)];
    expect(phases(marks, [stageEnd("retrieval")], 10)).toEqual({ rest: 10 });
  });

  it("scales each stage by the full schedule's steps over the slice's and counts the rest once", () => {
    const stages: StageCost[] = [
      { stage: "memorization", samples: 199, steps: 13, wall_s: 9, tokens: 0 },
      { stage: "retrieval", samples: 13180, steps: 412, wall_s: 150, tokens: 0 },
    ];
    const full = scaleSlice({ memorization: 13, retrieval: 206, rest: 2 }, stages, {
      memorization: 199,
      retrieval: 6590,
    });
    expect(full).toBeCloseTo(199 + (206 * 6590) / 412 + 2, 9);
  });

  it("stamps each logged line with the CPU seconds since the marker was made", () => {
    const { log, marks } = marker();
    const spin = performance.now();
    while (performance.now() - spin < 30);
    const write = process.stderr.write;
    process.stderr.write = () => true;
    try {
      log("memorization: 1 steps in 0.0 s, final loss 1");
    } finally {
      process.stderr.write = write;
    }
    expect(marks).toHaveLength(1);
    expect(marks[0]!.cpu_s).toBeGreaterThan(0.01);
    expect(marks[0]!.wall_s).toBeGreaterThanOrEqual(0.03);
  });
});

describe("add-tools share at the addition's own CPU rate", () => {
  const slice: StageCost[] = [
    { stage: "memorization", samples: 199, steps: 13, wall_s: 19, tokens: 0 },
    { stage: "retrieval", samples: 13180, steps: 412, wall_s: 360, tokens: 0 },
  ];

  it("counts the full schedule's memorization steps at their cost in retrieval steps", () => {
    // A memorization step costs twice a retrieval step in the slice.
    const n = fullRetrievalSteps({ memorization: 26, retrieval: 412 }, slice, {
      memorization: 199,
      retrieval: 6590,
    });
    expect(n).toBeCloseTo(6590 + 2 * 199, 9);
  });

  it("does not move when the load scales every CPU second alike", () => {
    const full = 6988;
    const quiet = shareAtOwnRate(250, 220, 711, full);
    const loaded = shareAtOwnRate(250 * 2.3, 220 * 2.3, 711, full);
    expect(loaded).toBeCloseTo(quiet, 12);
    expect(quiet).toBeCloseTo(250 / ((220 / 711) * full), 12);
  });
});
