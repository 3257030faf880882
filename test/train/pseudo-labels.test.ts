import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { FactoredModelFile } from "../../src/models/caller-factored.ts";
import type { ScoredParam } from "../../src/models/factored/decide.ts";
import { Rng } from "../../src/nn/rng.ts";
import { choiceChance, pseudoLabelGroups, pseudoLabels, teacherOf } from "../../src/train/pseudo-labels.ts";
import type { JsonSchema, ToolJson } from "../../src/tools/types.ts";

const tool = (name: string, description: string, properties: Record<string, JsonSchema>): ToolJson => ({
  type: "function",
  function: {
    name,
    description,
    parameters: { type: "object", properties, required: Object.keys(properties) },
  },
});
const track = tool("pack_send.tracking", "Track a package by its reference number", {
  reference: { type: "string", description: "The package's reference number" },
});
const status = tool("suivi_colis.latest", "The latest status of a colis", {
  colis_id: { type: "string", description: "The colis ID" },
});
const question =
  "Can you track the package with the reference number 'RX4471' and also give me the latest status of the colis with ID 'CA107308006SI'?";
const committed = teacherOf(
  JSON.parse(readFileSync("models/caller/factored.json", "utf8")) as FactoredModelFile,
);

describe("pseudo-labels from real questions (issue 38, h38t)", () => {
  it("labels each function's value where the teachers agree, above the chance asked", () => {
    const labelled = pseudoLabels(
      [{ id: "1", question, tools: [track, status] }],
      [committed, committed],
      0.5,
    );
    const values = Object.fromEntries(labelled[0]!.labels.map((l) => [`${l.name}.${l.param}`, l.value]));
    expect(values).toEqual({
      "pack_send.tracking.reference": "RX4471",
      "suivi_colis.latest.colis_id": "CA107308006SI",
    });
    // a chance no choice reaches: no label
    expect(pseudoLabels([{ id: "1", question, tools: [track, status] }], [committed], 1.01)).toEqual([]);
  });

  it("reads a choice's chance against the candidates no other call spends, and leaving it out", () => {
    const p = {
      info: {
        candidates: [
          { value: "a", start: 0, end: 1 },
          { value: "b", start: 2, end: 3 },
        ],
      },
      probs: [0.3, 0.5],
      pNull: 0.2,
    } as unknown as ScoredParam;
    expect(choiceChance(p, "a", [])).toBeCloseTo(0.3);
    // "b" stands on another call's value: out of the reckoning
    expect(choiceChance(p, "a", [[2, 3]])).toBeCloseTo(0.6);
    expect(choiceChance(p, undefined, [[2, 3]])).toBeCloseTo(0.4);
  });

  it("keeps the other function's value among a parameter's wrong spans, its own as the gold", () => {
    const labelled = [
      {
        question,
        tools: [track, status],
        labels: [
          { name: "pack_send.tracking", param: "reference", value: "RX4471", chance: 1 },
          { name: "suivi_colis.latest", param: "colis_id", value: "CA107308006SI", chance: 1 },
        ],
      },
    ];
    // negatives 0: only the gold, the other call's value and leaving it out
    const groups = pseudoLabelGroups(labelled, committed.stats, committed.joiners, {
      negatives: 0,
      rng: new Rng(1),
    });
    expect(groups).toHaveLength(2);
    for (const g of groups) {
      expect(g.gold).toEqual([0]);
      expect(g.items).toHaveLength(3);
    }
    // otherValues false: the other call's value is left out of the group, as decoding spends it
    const own = pseudoLabelGroups(labelled, committed.stats, committed.joiners, {
      negatives: 0,
      rng: new Rng(1),
      otherValues: false,
    });
    expect(own.map((g) => g.items.length)).toEqual([2, 2]);
  });
});
