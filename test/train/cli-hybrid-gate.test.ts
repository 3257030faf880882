import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCatalog, loadQueries } from "../../src/catalog/load.ts";
import { evaluateRetrieval } from "../../src/eval/retrieval.ts";
import { Bm25Retriever } from "../../src/retrieval/bm25.ts";
import { GATE_FILE } from "../../src/retrieval/hybrid-gate.ts";
import { HYBRID_DEFAULTS, HybridRetriever } from "../../src/retrieval/hybrid.ts";
import { openToolGenRetriever } from "../../src/retrieval/toolgen-open.ts";
import { writeCatalogFiles } from "../helpers/catalog-files.ts";
import { runCli } from "../helpers/run-cli.ts";

// `toolgen train` holds out dev queries and writes the hybrid's gate; `--retriever hybrid` then scores at least
// the better of ToolGen alone and BM25 alone on held-out queries. The queries are in-domain, in made-up words that
// also name another tool's subject, so BM25 is misled where ToolGen learnt them (MetaTool's case: ToolGen alone
// NDCG@1 80.0, the ungated fusion 64.2). The ungated fusion that `--retriever hybrid` gave before the gate falls
// below ToolGen alone here (checked below), so the comparison can fail.

const D =
  "weather stocks movies recipes flights hotels translate currency news music maps jobs fitness books crypto sports email calendar shopping health parking taxes pets garden".split(
    " ",
  );
const D2 =
  "forecast quote showtimes cooking airline booking language exchange headlines lyrics directions hiring workout novels bitcoin scores inbox meetings deals symptoms garage refund puppy plants".split(
    " ",
  );
const SLANG =
  "zorp quibble flarn snoot blip wonk trundle glim fizzle plonk snark yodel brisk quark dwindle mumble razzle tangle swoosh pickle noodle waffle gizmo doodle".split(
    " ",
  );

/** tools.json, train.csv (queries of tools 0–17 but two each) and test.csv (those two, and all of tools 18–23). */
function writeData(dir: string) {
  const tools: Record<string, string> = {};
  const train = ["Query,Tool"];
  const test = ["Query,Tool"];
  for (let i = 0; i < 24; i++) {
    const [d, d2, s] = [D[i]!, D2[i]!, SLANG[i]!];
    tools[`tool${i}`] = `Looks up ${d} and ${d2} information`;
    // made-up words (ToolGen learns them; no description holds them) that name the next tool's subject: BM25
    // ranks that tool first, the way it fails on MetaTool's in-domain questions
    const o = D[(i + 1) % 24]!;
    const queries = [
      `${s} now`,
      `gimme ${s}`,
      `${s} ${o}`,
      `yo ${s} ${o} ok`,
      `${o} ${s}`,
      `${s} for me`,
      `${s} ${o} please`,
      `my ${s}`,
    ];
    const rows = queries.map((q) => `${q},tool${i}`);
    rows.forEach((r, j) => (j === (i * 3) % 8 || j === (i * 3 + 5) % 8 ? test : train).push(r));
  }
  return writeCatalogFiles(dir, tools, train, test);
}

describe("toolgen train writes the hybrid's gate (CLI)", () => {
  it(
    "holds out dev queries, chooses the gate on them, and the hybrid is ≥ both parts on held-out queries",
    { timeout: 240_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "toolgen-gate-"));
      const files = writeData(dir);
      const out = join(dir, "m");
      // a small schedule (a few hundred steps of the tiny model), learning the queries' words fast
      const trained = await runCli([
        "train",
        ...["--catalog", files.tools, "--queries", files.train, "--out", out, "--seed", "1"],
        ...["--vocab-size", "300", "--batch-size", "8", "--lr", "5e-3"],
        ...["--epochs", "memorization=20,retrieval=25", "--user-loss", "memorization=1,retrieval=0"],
        ...["--token-dropout", "retrieval=0", "--average-last", "retrieval=0"],
        ...["--dev-fraction", "0.1", "--no-progress", "--json"],
      ]);
      expect(trained.stderr).not.toMatch(/toolgen train:/);
      expect(trained.code).toBe(0);
      const manifest = JSON.parse(trained.stdout) as {
        dev: {
          fraction: number;
          toolsFraction: number;
          seed: number;
          seen: number;
          unseen: number;
          tools: string[];
        };
        gate: {
          metric: string;
          parts: Array<{ part: string; toolgen: number; lexical: number; chosen: number }>;
        };
      };
      // written down: 10 % of the 144 training queries; every tool has queries, so no tool is held out (auto)
      expect(manifest.dev).toEqual({
        fraction: 0.1,
        toolsFraction: 0,
        seed: 1,
        seen: 14,
        unseen: 0,
        tools: [],
      });
      expect(
        readFileSync(join(out, "data", "dev.jsonl"), "utf8")
          .trim()
          .split("\n"),
      ).toHaveLength(14);
      expect(existsSync(join(out, GATE_FILE))).toBe(true);
      // on dev, per part, the gate is at least the better of the two parts (it may choose either alone)
      for (const p of manifest.gate.parts)
        expect(p.chosen).toBeGreaterThanOrEqual(Math.max(p.toolgen, p.lexical));

      const ndcg5 = async (retriever: string) => {
        const r = await runCli([
          "eval",
          "retrieval",
          ...["--catalog", files.tools, "--queries", files.test, "--retriever", retriever],
          ...(retriever === "bm25" ? [] : ["--model", out]),
          "--json",
        ]);
        expect(r.code, r.stderr).toBe(0);
        return (JSON.parse(r.stdout) as Record<string, number>)["ndcg@5"]!;
      };
      const [toolgen, bm25, hybrid] = [await ndcg5("toolgen"), await ndcg5("bm25"), await ndcg5("hybrid")];
      // in-domain, ToolGen is the better part (as on MetaTool)
      expect(toolgen).toBeGreaterThan(bm25);
      expect(hybrid).toBeGreaterThanOrEqual(Math.max(toolgen, bm25));

      // The ungated rank fusion (what --retriever hybrid gave before the gate) falls below ToolGen alone here.
      const catalog = loadCatalog(files.tools);
      const fused = new HybridRetriever(
        [openToolGenRetriever(out, catalog), new Bm25Retriever(catalog)],
        HYBRID_DEFAULTS,
      );
      const report = await evaluateRetrieval(fused, loadQueries(files.test, catalog));
      expect(report.overall.ndcg[5]!).toBeLessThan(Math.max(toolgen, bm25));

      // A folder without a gate is refused for hybrid, with the way out.
      rmSync(join(out, GATE_FILE));
      const refused = await runCli([
        "eval",
        "retrieval",
        ...["--catalog", files.tools, "--queries", files.test, "--retriever", "hybrid", "--model", out],
      ]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        /has no gate \(toolgen-gate\.json\).*--retriever toolgen or --retriever bm25/,
      );
    },
  );
});
