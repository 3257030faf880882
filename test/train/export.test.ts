import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FINISH_TOKEN } from "../../src/toolgen/tokens.ts";
import { loadCatalog, loadQueries } from "../../src/catalog/load.ts";
import type { Trajectory } from "../../src/train/datasets.ts";
import { exportTraining, readTrajectoriesFile } from "../../src/train/export.ts";
import { toYaml } from "../../src/train/export-yaml.ts";
import { sharedData } from "../helpers/shared-data.ts";
import { syntheticCatalog } from "../helpers/synthetic.ts";

const FORMATS = JSON.parse(
  readFileSync(new URL("../fixtures/scaleout/engine-formats.json", import.meta.url), "utf8"),
) as Record<string, Record<string, string[]>>;

const tmp = () => mkdtempSync(join(tmpdir(), "export-"));
const readJsonl = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** Top-level `key: value` pairs of a YAML file (the configs are flat at the top, lists/mappings nested). */
function topLevel(file: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*):(?: (.*))?$/.exec(line);
    if (m) out.set(m[1]!, m[2] ?? "");
  }
  return out;
}

const { entries, queries } = syntheticCatalog();
const trajectories: Trajectory[] = [
  {
    query: "what is the weather in Lisbon and the EUR to USD rate",
    steps: [
      {
        thought: "First the weather.",
        action: entries[0]!.id,
        arguments: { city: "Lisbon" },
        observation: '{"temp": 21}',
      },
      { thought: "Now the rate.", action: entries[7]!.id, arguments: { from: "EUR" }, observation: "1.08" },
      {
        thought: "Done.",
        action: "Finish",
        arguments: { return_type: "give_answer", final_answer: "21 C; 1.08" },
      },
    ],
  },
];

function expectPaperRecipe(cfg: Map<string, string>, epochsKey: string, epochs: number): void {
  expect(Number(cfg.get("learning_rate"))).toBe(4e-5);
  expect(cfg.get("warmup_ratio")).toBe("0.03");
  expect(Number(cfg.get(epochsKey))).toBe(epochs);
  expect(cfg.get("deepspeed")).toBe("ds_z3_config.json");
}

describe("toolgen export training", () => {
  it("LLaMA-Factory: sharegpt records, dataset_info.json and chained stage configs", () => {
    const out = tmp();
    const s = exportTraining({
      format: "llamafactory",
      out,
      entries,
      queries,
      trajectories,
      model: "/models/virt",
    });
    expect(s.stages).toEqual(["memorization", "retrieval", "agent"]);
    expect(s.samples.memorization).toBe(entries.length);
    const doc = FORMATS.llamafactory!;
    const info = JSON.parse(readFileSync(join(out, "dataset_info.json"), "utf8")) as Record<
      string,
      Record<string, Record<string, string>>
    >;
    for (const stage of s.stages) {
      const entry = info[`toolgen_${stage}`]!;
      for (const k of Object.keys(entry)) expect(doc.dataset_info_keys).toContain(k);
      for (const k of Object.keys(entry.columns!)) expect(doc.columns_keys).toContain(k);
      for (const k of Object.keys(entry.tags!)) expect(doc.tags_keys).toContain(k);
      const rows = JSON.parse(readFileSync(join(out, entry.file_name as unknown as string), "utf8")) as Array<
        Record<string, unknown>
      >;
      expect(rows.length).toBe(s.records[stage]);
      for (const row of rows) {
        for (const k of Object.keys(row)) expect(doc.record_keys).toContain(k);
        const turns = row.conversations as Array<Record<string, string>>;
        turns.forEach((t, i) => {
          expect(Object.keys(t).sort()).toEqual([...doc.turn_keys!].sort());
          expect(i % 2 === 0 ? doc.odd_position_roles : doc.even_position_roles).toContain(t.from);
        });
        expect(turns.at(-1)!.from).toBe("gpt");
      }
    }
    const agent = JSON.parse(readFileSync(join(out, "agent.json"), "utf8"))[0];
    expect(agent.system).toMatch(/AutoGPT/);
    expect(agent.conversations.filter((t: { from: string }) => t.from === "observation")).toHaveLength(2);
    expect(agent.conversations.map((t: { value: string }) => t.value)).toContain(FINISH_TOKEN);
    const stage1 = topLevel(join(out, "stage1_memorization.yaml"));
    const stage3 = topLevel(join(out, "stage3_agent.yaml"));
    for (const k of stage1.keys()) expect(doc.config_keys).toContain(k);
    expect(stage1.get("model_name_or_path")).toBe("/models/virt");
    expect(stage1.get("finetuning_type")).toBe("full");
    expect(stage1.get("cutoff_len")).toBe("6144");
    expect(stage1.get("lr_scheduler_type")).toBe("cosine");
    expectPaperRecipe(stage1, "num_train_epochs", 8);
    expectPaperRecipe(topLevel(join(out, "stage2_retrieval.yaml")), "num_train_epochs", 1);
    expect(stage3.get("model_name_or_path")).toBe("saves/stage2_retrieval");
    // 8 GPUs × 2 × 32 = the paper's total batch of 512.
    expect(
      Number(stage1.get("per_device_train_batch_size")) *
        Number(stage1.get("gradient_accumulation_steps")) *
        8,
    ).toBe(512);
    const ds = JSON.parse(readFileSync(join(out, "ds_z3_config.json"), "utf8"));
    for (const k of FORMATS.deepspeed_zero3!.required!) expect(ds).toHaveProperty(k);
    expect(ds.zero_optimization).toMatchObject(
      FORMATS.deepspeed_zero3!.zero_optimization as unknown as object,
    );
    expect(readFileSync(join(out, "run.sh"), "utf8")).toMatch(/llamafactory-cli train stage3_agent\.yaml/);
  });

  it("axolotl: chat-messages JSONL trained on assistant turns only", () => {
    const out = tmp();
    const s = exportTraining({
      format: "axolotl",
      out,
      entries,
      queries,
      trajectories,
      gpus: 4,
      perDeviceBatch: 4,
    });
    const doc = FORMATS.axolotl!;
    for (const stage of s.stages) {
      for (const row of readJsonl(join(out, `${stage}.jsonl`))) {
        expect(Object.keys(row)).toEqual(doc.record_keys);
        for (const m of row.messages as Array<Record<string, string>>) {
          expect(Object.keys(m).sort()).toEqual([...doc.turn_keys!].sort());
          expect(doc.roles).toContain(m.role);
        }
      }
    }
    const cfg = readFileSync(join(out, "stage1_memorization.yaml"), "utf8");
    for (const k of topLevel(join(out, "stage1_memorization.yaml")).keys())
      expect(doc.config_keys).toContain(k);
    expect(cfg).toMatch(/^ {2}type: chat_template$/m);
    expect(cfg).toMatch(/^ {2}roles_to_train:\n {2}- assistant$/m);
    expect(cfg).toMatch(/^- path: memorization\.jsonl$/m);
    expect(topLevel(join(out, "stage1_memorization.yaml")).get("gradient_accumulation_steps")).toBe("32");
    expectPaperRecipe(topLevel(join(out, "stage1_memorization.yaml")), "num_epochs", 8);
  });

  it("TRL: prompt-completion records, one per assistant turn", () => {
    const out = tmp();
    const s = exportTraining({ format: "trl", out, entries, queries, trajectories, epochs: { agent: 3 } });
    const rows = readJsonl(join(out, "agent.jsonl"));
    // 3 steps × (thought, action, arguments) assistant turns.
    expect(rows).toHaveLength(9);
    expect(s.records.agent).toBe(9);
    for (const row of rows) {
      expect(Object.keys(row)).toEqual(FORMATS.trl!.record_keys);
      const completion = row.completion as Array<Record<string, string>>;
      expect(completion).toHaveLength(1);
      expect(completion[0]!.role).toBe("assistant");
      const prompt = row.prompt as Array<Record<string, string>>;
      expect(prompt.at(-1)!.role).not.toBe("assistant");
    }
    expect((rows[8]!.prompt as unknown[]).length).toBeGreaterThan((rows[0]!.prompt as unknown[]).length);
    const cfg = topLevel(join(out, "stage3_agent.yaml"));
    for (const k of cfg.keys()) expect(FORMATS.trl!.config_keys).toContain(k);
    expect(cfg.get("completion_only_loss")).toBe("true");
    expect(cfg.get("max_length")).toBe("6144");
    expectPaperRecipe(cfg, "num_train_epochs", 3);
  });

  it("refuses impossible settings before writing anything", () => {
    expect(() => exportTraining({ format: "trl", out: tmp(), entries, queries, gpus: 3 })).toThrow(
      /not a multiple/,
    );
    expect(() => exportTraining({ format: "trl", out: tmp(), entries, queries: [] })).toThrow(
      /no retrieval samples/,
    );
    const badTrajectory: Trajectory[] = [
      { query: "q", steps: [{ thought: "t", action: "nope&&x", arguments: {} }] },
    ];
    expect(() =>
      exportTraining({ format: "axolotl", out: tmp(), entries, queries, trajectories: badTrajectory }),
    ).toThrow(/not in the catalog/);
  });

  it("reads trajectories JSONL and names the bad line", () => {
    const dir = tmp();
    const good = join(dir, "t.jsonl");
    writeFileSync(good, trajectories.map((t) => JSON.stringify(t)).join("\n") + "\n\n");
    expect(readTrajectoriesFile(good)).toEqual(trajectories);
    const bad = join(dir, "bad.jsonl");
    writeFileSync(
      bad,
      JSON.stringify(trajectories[0]) + "\n" + JSON.stringify({ query: "q", steps: [{ thought: "t" }] }),
    );
    expect(() => readTrajectoriesFile(bad)).toThrow(/bad\.jsonl:2: expected \{"query", "steps"/);
    writeFileSync(bad, "{not json");
    expect(() => readTrajectoriesFile(bad)).toThrow(/bad\.jsonl:1: not JSON/);
  });

  it("writes YAML that keeps value types", () => {
    const text = toYaml({ a: "true", b: true, c: 4e-5, d: "x: y", e: [1, "two"], f: { g: null } });
    expect(text).toBe('a: "true"\nb: true\nc: 0.00004\nd: "x: y"\ne:\n- 1\n- two\nf:\n  g: null\n');
    expect(toYaml({ big: 1e21 })).toBe("big: 1.0e+21\n");
  });
});

const mt = sharedData("metatool/tools.json");
const mtq = sharedData("metatool/queries.csv");
const stb = sharedData("stabletoolbench/apis.json");
const g1 = sharedData("stabletoolbench/G1_instruction.json");

describe.skipIf(!mt || !mtq || !stb || !g1)(
  "export training on the shared MetaTool and StableToolBench sets",
  () => {
    it("MetaTool → LLaMA-Factory: one memorization sample per tool, one retrieval sample per labelled query", () => {
      const catalog = loadCatalog(mt!);
      const labelled = loadQueries(mtq!, catalog);
      const s = exportTraining({ format: "llamafactory", out: tmp(), entries: catalog, queries: labelled });
      expect(s.samples.memorization).toBe(catalog.length);
      expect(s.samples.retrieval! + s.skippedLabels).toBe(
        labelled.reduce((n, q) => n + q.relevant.length, 0),
      );
    });

    it("StableToolBench G1 → axolotl: every relevant API becomes a retrieval sample with its atomic token", () => {
      const catalog = loadCatalog(stb!);
      const labelled = loadQueries(g1!, catalog);
      const out = tmp();
      const s = exportTraining({ format: "axolotl", out, entries: catalog, queries: labelled });
      expect(s.samples.memorization).toBe(catalog.length);
      const rows = readJsonl(join(out, "retrieval.jsonl"));
      expect(rows.length).toBe(s.records.retrieval);
      const tokens = new Set(catalog.map((e) => `<<${e.id}>>`));
      for (const row of rows)
        expect(tokens).toContain((row.messages as Array<{ content: string }>)[1]!.content);
    });
  },
);
