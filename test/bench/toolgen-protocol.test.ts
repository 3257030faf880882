import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkProtocolParts } from "../../bench/toolgen/checks.ts";
import { earlierRuns } from "../../bench/toolgen/provenance.ts";
import { modelDirOverrides, trainVariant } from "../../bench/toolgen/common.ts";
import { dataFile, DEFAULT_PLAN, findPlan, metaToolData, planVariant } from "../../bench/toolgen/plans.ts";
import { loadCatalog, loadQueries } from "../../src/catalog/load.ts";
import { splitQueryFile } from "../../src/eval/split-files.ts";
import { runCli } from "../helpers/run-cli.ts";

const catalog = [{ id: "calculator" }, { id: "weather" }];

/** A two-tool catalog and one labelled query per tool in a new folder (`sum` is the calculator's query). */
function twoToolCatalog(prefix: string, sum: string): { dir: string; tools: string; queries: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const tools = join(dir, "tools.json");
  const queries = join(dir, "q.csv");
  writeFileSync(tools, JSON.stringify({ calculator: "Evaluates formulas", weather: "Weather forecasts" }));
  writeFileSync(queries, `Query,Tool\n${sum},calculator\nRain tomorrow?,weather\n`);
  return { dir, tools, queries };
}

describe("bench:toolgen protocol checks", () => {
  it("passes disjoint, labelled parts and reports zero counts", () => {
    const checks = checkProtocolParts(
      [
        ["train", [{ query: "Add 2 and 2", relevant: ["calculator"] }]],
        ["dev", [{ query: "Rain tomorrow?", relevant: ["weather"] }]],
        ["test", [{ query: "Sum 3 and 4", relevant: ["calculator"] }]],
      ],
      catalog,
    );
    expect(checks).toEqual({ overlap: { dev: 0, test: 0 }, noRelevant: 0, unknownTool: 0 });
  });

  it("refuses a test query an earlier part has (by query text), with the count", () => {
    expect(() =>
      checkProtocolParts(
        [
          ["train", [{ query: "Add 2 and 2", relevant: ["calculator"] }]],
          ["dev", [{ query: "Rain tomorrow?", relevant: ["weather"] }]],
          ["test", [{ query: "rain  tomorrow", relevant: ["weather"] }]],
        ],
        catalog,
      ),
    ).toThrow(/1 test queries repeat an earlier part's query/);
  });

  it("refuses queries with no relevant tool and tools missing from the catalog", () => {
    expect(() =>
      checkProtocolParts(
        [
          ["train", [{ query: "a", relevant: ["calculator"] }]],
          [
            "test",
            [
              { query: "b", relevant: [] },
              { query: "c", relevant: ["stocks"] },
            ],
          ],
        ],
        catalog,
      ),
    ).toThrow(/1 queries name 1 tools not in the catalog .*1 queries have no relevant tool/);
  });
});

describe("bench:toolgen default plan = toolgen train --preset tiny", () => {
  const saved = process.env.TOOLGEN_BENCH_MODELS;
  afterEach(() => {
    if (saved === undefined) delete process.env.TOOLGEN_BENCH_MODELS;
    else process.env.TOOLGEN_BENCH_MODELS = saved;
  });

  it("parses TOOLGEN_BENCH_MODELS and refuses a malformed one", () => {
    expect(modelDirOverrides("metatool/tiny-preset=/m, stabletoolbench/tiny-preset=/s")).toEqual(
      new Map([
        ["metatool/tiny-preset", "/m"],
        ["stabletoolbench/tiny-preset", "/s"],
      ]),
    );
    expect(() => modelDirOverrides("tiny-preset=/m")).toThrow(/GROUP\/PLAN=DIR/);
    expect(() => modelDirOverrides("metatool/tiny-preset=")).toThrow(/GROUP\/PLAN=DIR/);
  });

  it(
    "reuses the CLI's folder as it is when the fingerprint matches, refuses it otherwise",
    { timeout: 120_000 },
    async () => {
      const { dir, tools, queries } = twoToolCatalog("bench-default-", '"What is 2+2, please?"');
      const out = join(dir, "m");
      // The user's command, no option beyond the README's.
      const trained = await runCli(["train", "--catalog", tools, "--queries", queries, "--out", out]);
      expect(trained.code).toBe(0);

      const plan = findPlan("metatool", DEFAULT_PLAN);
      const cat = loadCatalog(tools);
      const rows = loadQueries(queries, cat);
      process.env.TOOLGEN_BENCH_MODELS = `metatool/${DEFAULT_PLAN}=${out}`;
      const manifestFile = join(out, "toolgen.json");
      const before = { text: readFileSync(manifestFile, "utf8"), mtime: statSync(manifestFile).mtimeMs };
      const reused = await trainVariant("metatool", planVariant(plan), cat, rows);
      expect(reused.out).toBe(out);
      expect(reused.manifest.fingerprint).toBe(JSON.parse(before.text).fingerprint);
      // Only read: the folder is left as the CLI wrote it.
      expect(readFileSync(manifestFile, "utf8")).toBe(before.text);
      expect(statSync(manifestFile).mtimeMs).toBe(before.mtime);

      // Other training queries: another fingerprint, so not this plan's model.
      await expect(trainVariant("metatool", planVariant(plan), cat, rows.slice(0, 1))).rejects.toThrow(
        /TOOLGEN_BENCH_MODELS: .* is not this plan's model/,
      );
      // A folder that is not a finished run is refused before anything is trained into it.
      process.env.TOOLGEN_BENCH_MODELS = `metatool/${DEFAULT_PLAN}=${join(dir, "absent")}`;
      await expect(trainVariant("metatool", planVariant(plan), cat, rows)).rejects.toThrow(
        /is not a finished ToolGen training run/,
      );
    },
  );
});

describe("bench:toolgen plans with CLI flags = toolgen train --preset tiny FLAGS", () => {
  const saved = process.env.TOOLGEN_BENCH_MODELS;
  afterEach(() => {
    if (saved === undefined) delete process.env.TOOLGEN_BENCH_MODELS;
    else process.env.TOOLGEN_BENCH_MODELS = saved;
  });

  it.each([
    // the preset averages a quarter: a plan without averaging says --average-last retrieval=0
    ["tiny-v8192-r24", "--vocab-size 8192 --epochs retrieval=24 --average-last retrieval=0", { epochs: 24 }],
    ["tiny-v8192-avg0.5", "--vocab-size 8192 --average-last retrieval=0.5", { averageLast: 0.5 }],
  ] as const)(
    "reuses the folder the CLI wrote with the plan's flags (%s)",
    { timeout: 120_000 },
    async (name, expectedFlags, recorded) => {
      const { dir, tools, queries } = twoToolCatalog("bench-flags-", "What is 2+2?");
      const plan = findPlan("metatool", name);
      expect(plan.cliFlags).toBe(expectedFlags);
      const out = join(dir, "m");
      const flags = plan.cliFlags!.split(" ");
      const trained = await runCli([
        "train",
        "--catalog",
        tools,
        "--queries",
        queries,
        "--out",
        out,
        ...flags,
      ]);
      expect(trained.code).toBe(0);
      const cat = loadCatalog(tools);
      process.env.TOOLGEN_BENCH_MODELS = `metatool/${plan.name}=${out}`;
      const reused = await trainVariant("metatool", planVariant(plan), cat, loadQueries(queries, cat));
      expect(reused.manifest.fingerprint).toBe(
        JSON.parse(readFileSync(join(out, "toolgen.json"), "utf8")).fingerprint,
      );
      expect(reused.manifest.done.find((r) => r.stage === "retrieval")).toMatchObject(recorded);
    },
  );
});

describe("bench:toolgen earlier runs", () => {
  const run = { date: "d", git_revision: "r" };
  const previous = {
    toolgen: {
      "tiny-preset": { fingerprint: "old", dev: { "ndcg@1": 76 } },
      "tiny-r24": { fingerprint: "r24", dev: { "ndcg@1": 77 } },
      "tiny-v8192": { fingerprint: "v8", dev: { "ndcg@1": 78 } },
    },
    earlier_runs: { "d64x2-m8-r4-drop0.3": { dev: { "ndcg@1": 43 } } },
  };

  it("keeps plans not evaluated now, and a plan whose model changed under PLAN@FINGERPRINT", () => {
    const out = earlierRuns(
      previous,
      "toolgen",
      { "tiny-preset": { fingerprint: "new" }, "tiny-v8192": { fingerprint: "v8" } },
      run,
    );
    expect(Object.keys(out).sort()).toEqual(["d64x2-m8-r4-drop0.3", "tiny-preset@old", "tiny-r24"]);
    expect(out["tiny-preset@old"]).toMatchObject({ run, fingerprint: "old", dev: { "ndcg@1": 76 } });
  });
});

// The shared data (../shared/data, or TOOLGEN_BENCH_DATA as the bench reads it).
const metatoolQueries = dataFile("metatool/queries.csv");
describe.skipIf(!metatoolQueries)("bench:toolgen MetaTool split = toolgen eval split --seed 1", () => {
  it("gives the same train, dev and test rows, in order", () => {
    const dir = mkdtempSync(join(tmpdir(), "bench-split-"));
    const files = { train: join(dir, "train.csv"), dev: join(dir, "dev.csv"), test: join(dir, "test.csv") };
    splitQueryFile(metatoolQueries!, {
      seed: 1,
      trainOut: files.train,
      devOut: files.dev,
      testOut: files.test,
    });
    const bench = metaToolData()!;
    for (const part of ["train", "dev", "test"] as const) {
      const rows = loadQueries(files[part], bench.catalog).map((q) => [q.query, q.relevant]);
      expect(rows).toEqual(bench[part].map((q) => [q.query, q.relevant]));
    }
    expect(bench.checks).toEqual({ overlap: { dev: 0, test: 0 }, noRelevant: 0, unknownTool: 0 });
  });
});
