import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { trainingCodeVersion } from "../../src/train/code-version.ts";
import { codeStatus, trainToolGen, type ToolGenTrainOptions } from "../../src/train/pipeline.ts";
import { syntheticCatalog } from "../helpers/synthetic.ts";

const { entries, queries } = syntheticCatalog();
const base = (out: string): ToolGenTrainOptions => ({
  catalog: entries,
  queries,
  trajectories: [
    {
      query: "will it rain tomorrow",
      steps: [
        {
          thought: "Check the forecast.",
          action: entries[0]!.id,
          arguments: { q: "tomorrow" },
          observation: "rain",
        },
        {
          thought: "Done.",
          action: "Finish",
          arguments: { return_type: "give_answer", final_answer: "Yes" },
        },
      ],
    },
  ],
  out,
  seed: 3,
  progress: false,
  log: () => {},
  saveEverySeconds: 0,
  schedule: {
    tokenizerVocab: 350,
    batchSize: 8,
    stages: { memorization: { epochs: 2 }, retrieval: { epochs: 2 } },
  },
  config: { hiddenSize: 32, intermediateSize: 64, numLayers: 1, numHeads: 2, maxPositions: 512 },
});

describe("toolgen training: interruption and the agent stage", () => {
  it(
    "an interrupted run resumes to the same weights as an uninterrupted one",
    { timeout: 60_000 },
    async () => {
      const straight = mkdtempSync(join(tmpdir(), "toolgen-straight-"));
      const manifest = await trainToolGen(base(straight));
      expect(manifest.done.map((r) => r.stage)).toEqual(["memorization", "retrieval", "agent"]);
      expect(readFileSync(join(straight, "data", "agent.jsonl"), "utf8")).toContain("Generate the action.");
      // A token dropout of 0 is the same run as none (finished, nothing retrained); another dropout is not.
      const stages = (memorization: object, retrieval: object) => ({
        ...base(straight),
        schedule: { ...base(straight).schedule, stages: { memorization, retrieval } },
      });
      const again = await trainToolGen(stages({ epochs: 2, tokenDropout: 0 }, { epochs: 2 }));
      expect(again.done).toEqual(manifest.done);
      // Provenance: the code version is recorded; other code keeps a finished folder, with a warning.
      expect(manifest.code?.hash).toBe(trainingCodeVersion().hash);
      expect(manifest.done.every((r) => r.code === manifest.code?.hash)).toBe(true);
      expect(codeStatus(manifest)).toBe("same");
      expect(codeStatus({ ...manifest, code: undefined })).toBe("unknown");
      const warned: string[] = [];
      const otherCode = await trainToolGen({
        ...base(straight),
        codeVersion: { hash: "0000000000000000", files: 1 },
        log: (l) => warned.push(l),
      });
      expect(otherCode.done).toEqual(manifest.done);
      expect(codeStatus(otherCode, { hash: "0000000000000000", files: 1 })).toBe("changed");
      expect(warned.join("\n")).toMatch(
        /was trained with code [0-9a-f]{16}, this is 0000000000000000; kept as it is/,
      );
      await expect(trainToolGen(stages({ epochs: 2 }, { epochs: 2, tokenDropout: 0.9 }))).rejects.toThrow(
        /holds a different training run/,
      );

      const interrupted = mkdtempSync(join(tmpdir(), "toolgen-resumed-"));
      const stop = new AbortController();
      const first = trainToolGen({
        ...base(interrupted),
        // Abort a few steps into the retrieval stage (the log line marks the end of memorization).
        log: (line) => {
          if (line.startsWith("memorization")) setTimeout(() => stop.abort(), 0);
        },
        signal: stop.signal,
      });
      await expect(first).rejects.toThrow(
        /training stopped during retrieval; run the same command again to resume/,
      );
      const lines: string[] = [];
      const resumed = await trainToolGen({ ...base(interrupted), log: (l) => lines.push(l) });
      expect(lines.some((l) => l.startsWith("memorization: already trained"))).toBe(true);
      expect(lines.some((l) => /^retrieval: resuming at step \d+/.test(l))).toBe(true);
      const steps = resumed.done.find((r) => r.stage === "retrieval")!.steps;
      expect(steps).toBe(manifest.done.find((r) => r.stage === "retrieval")!.steps);
      expect(readFileSync(join(interrupted, "model.safetensors"))).toEqual(
        readFileSync(join(straight, "model.safetensors")),
      );
    },
  );
});
