import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TINY, toolgenSetup } from "../../bench/lib/toolgen-stage.ts";
import { loadCatalog } from "../../src/catalog/load.ts";
import type { Stage } from "../../src/train/datasets.ts";

// The benches' ToolGen stage (bench:engine's stage_by_threads, engine-schedule, engine-profile, engine-bits) must
// train on the samples `toolgen train` trains on: with the schedule's user loss, the LM head runs at every query
// token (~610 rows a retrieval step on MetaTool) instead of the tool token alone (64), a step 1.6× as costly;
// the benches without it promised a rate the real stage could not reach (issue 40).
const dir = mkdtempSync(join(tmpdir(), "toolgen-stage-"));
writeFileSync(
  join(dir, "tools.json"),
  JSON.stringify({
    calculator: "Evaluates arithmetic formulas and returns the result",
    weather: "Gives the weather forecast for a city and a day",
    translator: "Translates a sentence between two languages",
  }),
);
const catalog = loadCatalog(join(dir, "tools.json"));
const queries = [
  { query: "What is 17 times 23?", relevant: ["calculator"] },
  { query: "Will it rain in Paris tomorrow?", relevant: ["weather"] },
  { query: "Say good morning in Spanish", relevant: ["translator"] },
];

describe("bench ToolGen stage samples", () => {
  const { stageSamples } = toolgenSetup(catalog, queries);
  for (const stage of ["memorization", "retrieval"] as Stage[]) {
    it(`${stage}: the user's words are in the loss exactly when the schedule says so`, () => {
      const samples = stageSamples(stage);
      expect(samples.length).toBe(3);
      for (const s of samples) {
        const user = Array.from(s.droppable ?? [], (d, i) => (d ? i : -1)).filter((i) => i >= 0);
        expect(user.length).toBeGreaterThan(0);
        const inLoss = user.filter((i) => s.lossMask?.[i]).length;
        expect(inLoss).toBe(TINY.stages[stage].userLoss ? user.length : 0);
      }
    });
  }
});
