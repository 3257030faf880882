import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readManifest } from "../../src/toolgen/model-folder.ts";
import { trainToolGen } from "../../src/train/pipeline.ts";
import type { StageSchedule } from "../../src/train/schedule.ts";
import { syntheticCatalog } from "../helpers/synthetic.ts";
import { tinyToolGenOptions } from "../helpers/tiny-toolgen.ts";

describe("the userLossSamples stage option", () => {
  const { entries, queries } = syntheticCatalog();
  function options(retrieval: Partial<StageSchedule>, out: string, signal?: AbortSignal) {
    const base = tinyToolGenOptions();
    return {
      catalog: entries,
      queries,
      out,
      ...base,
      schedule: {
        ...base.schedule,
        stages: {
          ...base.schedule!.stages,
          retrieval: { ...base.schedule!.stages!.retrieval, ...retrieval },
        },
      },
      ...(signal ? { signal } : {}),
    };
  }
  /** The folder's fingerprint for a retrieval stage with these options (training stopped before a step). */
  async function fingerprint(retrieval: Partial<StageSchedule>): Promise<string> {
    const out = mkdtempSync(join(tmpdir(), "toolgen-sampled-"));
    const stopped = new AbortController();
    stopped.abort();
    await expect(trainToolGen(options(retrieval, out, stopped.signal))).rejects.toThrow(/training stopped/);
    return readManifest(out)!.fingerprint;
  }

  it("enters the fingerprint only when on, so folders trained without it keep theirs", async () => {
    const plain = await fingerprint({ userLoss: true });
    const sampled = await fingerprint({ userLoss: true, userLossSamples: 512 });
    expect(sampled).not.toBe(plain);
    expect(await fingerprint({ userLoss: true, userLossSamples: 256 })).not.toBe(sampled);
  });

  it("is refused when not a positive integer, without the user loss, or beside a thinned user loss", async () => {
    for (const [retrieval, message] of [
      [{ userLoss: true, userLossSamples: 0 }, /sampled candidates must be a positive integer, got 0/],
      [{ userLoss: true, userLossSamples: 1.5 }, /got 1.5/],
      [{ userLoss: false, userLossSamples: 64 }, /sampled user loss needs the user loss/],
      [{ userLoss: true, userLossSamples: 64, userLossFraction: 0.5 }, /do not combine/],
    ] as const) {
      const out = join(mkdtempSync(join(tmpdir(), "toolgen-sampled-")), "model");
      await expect(trainToolGen(options(retrieval, out))).rejects.toThrow(message);
      expect(readManifest(out)).toBeUndefined();
    }
  });
});
