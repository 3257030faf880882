import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { CatalogEntry, LabelledQuery } from "../../src/catalog/catalog.ts";
import { loadCheckpoint } from "../../src/nn/checkpoint.ts";
import { createRetriever } from "../../src/retrieval/create.ts";
import type { GenerativeRetriever } from "../../src/retrieval/generative.ts";
import { addToolsToModel, type AddToolsOptions } from "../../src/train/add-tools.ts";
import { distillTargets } from "../../src/train/distill-targets.ts";
import { readManifest, readToolIndex } from "../../src/toolgen/model-folder.ts";
import { ToolgenError } from "../../src/errors.ts";
import { runCli } from "../helpers/run-cli.ts";
import { syntheticCatalog } from "../helpers/synthetic.ts";
import { trainAddToolsBase } from "../helpers/add-tools-base.ts";

/** Top-1 accuracy of a model folder on queries, ranking the whole catalog. */
async function top1(dir: string, catalog: readonly CatalogEntry[], queries: readonly LabelledQuery[]) {
  const r = (await createRetriever("toolgen", { catalog, model: `builtin:${dir}` })) as GenerativeRetriever;
  const hits = await r.searchMany(
    queries.map((q) => q.query),
    { k: 1 },
  );
  return hits.filter((h, i) => h[0]?.id === queries[i]!.relevant[0]).length / queries.length;
}

const { entries, queries } = syntheticCatalog();
const NEW = 4; // the last four tools are added later
const oldTools = entries.slice(0, -NEW);
const newTools = entries.slice(-NEW);
const isNew = (q: LabelledQuery) => newTools.some((t) => t.id === q.relevant[0]);
const oldQueries = queries.filter((q) => !isNew(q));
const newQueries = queries.filter(isNew);

describe("adding tools to a trained ToolGen model", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolgen-add-"));
  const base = join(dir, "base");
  /** An addition by method all with one old sample replayed per new one, its log lines kept. */
  const addLogged = async (name: string, extra: Partial<AddToolsOptions>) => {
    const lines: string[] = [];
    const m = await addToolsToModel({
      from: base,
      out: join(dir, name),
      tools: newTools,
      queries: newQueries,
      method: "all",
      replay: 1,
      progress: false,
      log: (l) => lines.push(l),
      ...extra,
    });
    return { m, lines };
  };
  beforeAll(async () => {
    await trainAddToolsBase(base, oldTools, oldQueries);
  }, 60_000);

  it(
    "grows the vocabulary, keeps the old tools and makes the new ones retrievable",
    { timeout: 60_000 },
    async () => {
      const out = join(dir, "added");
      const before = loadCheckpoint(base);
      const oldBefore = await top1(base, oldTools, oldQueries);
      const manifest = await addToolsToModel({
        from: base,
        out,
        tools: newTools,
        queries: newQueries,
        progress: false,
        log: () => {},
      });
      const after = loadCheckpoint(out);
      // One new token (and embedding / lm_head row) per tool; the old tokens keep their ids.
      expect(after.tokenizer!.vocabSize).toBe(before.tokenizer!.vocabSize + NEW);
      expect(after.model.config.vocabSize).toBe(before.model.config.vocabSize + NEW);
      for (const t of oldTools)
        expect(after.tokenizer!.tokenToId(`<<${t.id}>>`)).toBe(before.tokenizer!.tokenToId(`<<${t.id}>>`));
      expect(Object.keys(readToolIndex(out).texts)).toHaveLength(entries.length);
      expect(manifest.catalogSize).toBe(entries.length);
      expect(manifest.added).toHaveLength(1);
      expect(manifest.added![0]!.method).toBe("rows");
      // The default fits the new lm_head rows alone: every old weight is kept bit for bit.
      for (const t of before.model.params.tensors) {
        const now = after.model.params.get(t.name);
        const old = t.data;
        expect(
          Buffer.from(now.buffer, now.byteOffset, old.byteLength).equals(
            Buffer.from(old.buffer, old.byteOffset, old.byteLength),
          ),
          t.name,
        ).toBe(true);
      }
      expect(readManifest(base)!.added).toBeUndefined(); // --from is only read
      // The new folder's data holds old and new samples, so tools can be added to it again.
      expect(
        readFileSync(join(out, "data", "retrieval.jsonl"), "utf8")
          .trim()
          .split("\n"),
      ).toHaveLength(queries.length);

      const oldAfter = await top1(out, entries, oldQueries);
      const newAfter = await top1(out, entries, newQueries);
      expect(oldBefore).toBeGreaterThanOrEqual(0.9);
      expect(oldAfter).toBeGreaterThanOrEqual(oldBefore - 0.05);
      expect(newAfter).toBeGreaterThanOrEqual(0.8);
    },
  );

  it("trains every weight with replay when asked (method all)", { timeout: 60_000 }, async () => {
    const out = join(dir, "all");
    const manifest = await addToolsToModel({
      from: base,
      out,
      tools: newTools,
      queries: newQueries,
      method: "all",
      replay: 3,
      epochs: { memorization: 16, retrieval: 16 },
      lr: { memorization: 1e-3, retrieval: 1e-3 },
      progress: false,
      log: () => {},
    });
    expect(manifest.added![0]!.stages.map((s) => s.stage)).toEqual(["memorization", "retrieval"]);
    expect(await top1(out, entries, oldQueries)).toBeGreaterThanOrEqual(0.9);
    expect(await top1(out, entries, newQueries)).toBeGreaterThanOrEqual(0.8);
  });

  it(
    "fits the new rows before the stages when asked (method all, rowsFirst)",
    { timeout: 60_000 },
    async () => {
      const out = join(dir, "rows-first");
      const manifest = await addToolsToModel({
        from: base,
        out,
        tools: newTools,
        queries: newQueries,
        method: "all",
        rowsFirst: true,
        replay: 3,
        epochs: { memorization: 2, retrieval: 2 },
        lr: { memorization: 2e-4, retrieval: 2e-4 },
        progress: false,
        log: () => {},
      });
      const added = manifest.added![0]!;
      expect(added.rows?.examples).toBeGreaterThan(0);
      expect(added.stages.map((s) => s.stage)).toEqual(["memorization", "retrieval"]);
      expect(await top1(out, entries, oldQueries)).toBeGreaterThanOrEqual(0.9);
      expect(await top1(out, entries, newQueries)).toBeGreaterThanOrEqual(0.8);
    },
  );

  it(
    "holds the lower layers and pulls the rest toward the base when asked (anchor, trainLayers)",
    { timeout: 60_000 },
    async () => {
      const common = {
        from: base,
        tools: newTools,
        queries: newQueries,
        method: "all" as const,
        rowsFirst: true,
        replay: 3,
        epochs: { memorization: 2, retrieval: 2 },
        lr: { memorization: 1e-3, retrieval: 1e-3 },
        progress: false,
        log: () => {},
      };
      const before = loadCheckpoint(base).model;
      // Mean absolute change of a tensor's first `n` floats (the old tokens' rows of a vocabulary matrix).
      const drift = (after: ReturnType<typeof loadCheckpoint>["model"], name: string) => {
        const a = before.params.get(name);
        const b = after.params.get(name);
        let s = 0;
        for (let i = 0; i < a.length; i++) s += Math.abs(a[i]! - b[i]!);
        return s / a.length;
      };
      const held = join(dir, "last-layer");
      await addToolsToModel({ ...common, out: held, trainLayers: 1 });
      const h = loadCheckpoint(held).model;
      expect(drift(h, "model.layers.0.mlp.up_proj.weight")).toBe(0);
      expect(drift(h, "model.embed_tokens.weight")).toBe(0);
      expect(drift(h, "model.layers.1.mlp.up_proj.weight")).toBeGreaterThan(0);
      const free = join(dir, "unanchored");
      await addToolsToModel({ ...common, out: free });
      const pulled = join(dir, "anchored");
      await addToolsToModel({ ...common, out: pulled, anchor: 300 });
      const [f, p] = [loadCheckpoint(free).model, loadCheckpoint(pulled).model];
      for (const name of ["model.layers.0.self_attn.q_proj.weight", "lm_head.weight"])
        expect(drift(p, name), name).toBeLessThan(drift(f, name) / 2);
      expect(await top1(pulled, entries, oldQueries)).toBeGreaterThanOrEqual(0.9);
      expect(readManifest(pulled)!.fingerprint).not.toBe(readManifest(free)!.fingerprint);
    },
  );

  it(
    "trains the replayed old samples toward the base model's distribution when distilling (distill)",
    { timeout: 60_000 },
    async () => {
      const common = {
        from: base,
        tools: newTools,
        queries: newQueries,
        method: "all" as const,
        replay: 3,
        epochs: { memorization: 4, retrieval: 4 },
        lr: { memorization: 3e-3, retrieval: 3e-3 },
        progress: false,
        log: () => {},
      };
      // A model's mean entropy over the old tool tokens after the old queries (the base model's is ~2.1 nats:
      // this small model is unsure of them). Labels alone sharpen it; soft targets hold it near the base's.
      const entropy = (dir: string) => {
        const c = loadCheckpoint(dir);
        const ids = oldTools.map((t) => c.tokenizer!.tokenToId(`<<${t.id}>>`)!);
        const o = { format: readManifest(dir)!.chatFormat ?? "chatml", maxContentTokens: 64, temperature: 1 };
        const ds = distillTargets(
          c.model,
          c.tokenizer!,
          oldQueries.map((q) => q.query),
          ids,
          {
            ...o,
            topK: ids.length,
          },
        );
        return (
          ds.reduce((s, d) => s - d.probs.reduce((a, p) => a + (p > 0 ? p * Math.log(p) : 0), 0), 0) /
          ds.length
        );
      };
      const plain = join(dir, "undistilled");
      await addToolsToModel({ ...common, out: plain });
      const held = join(dir, "distilled");
      const m = await addToolsToModel({ ...common, out: held, distill: { weight: 0.9, temperature: 2 } });
      const [b, p, h] = [entropy(base), entropy(plain), entropy(held)];
      expect(p).toBeLessThan(b - 0.1);
      expect(h).toBeGreaterThan(p + 0.1);
      expect(m.fingerprint).not.toBe(readManifest(plain)!.fingerprint);
      // Weight 0 is the labels alone (the soft rows then compute the plain cross-entropy's gradient, in doubles).
      const zero = join(dir, "distill-0");
      await addToolsToModel({ ...common, out: zero, distill: { weight: 0 } });
      expect(Math.abs(entropy(zero) - p)).toBeLessThan(1e-3);
    },
  );

  it(
    "takes the soft targets after the rows fit, over the new tools too, when the teacher is rows",
    { timeout: 60_000 },
    async () => {
      const common = {
        from: base,
        tools: newTools,
        queries: newQueries,
        method: "all" as const,
        rowsFirst: true,
        replay: 3,
        epochs: { memorization: 2, retrieval: 2 },
        lr: { memorization: 3e-3, retrieval: 3e-3 },
        progress: false,
      };
      const massOnNew = async (out: string, teacher: "base" | "rows") => {
        const lines: string[] = [];
        const m = await addToolsToModel({
          ...common,
          out: join(dir, out),
          distill: { weight: 0.5, temperature: 2, teacher },
          log: (line) => lines.push(line),
        });
        const line = lines.find((l) => l.startsWith("distill:"))!;
        return { mass: Number(/mass on the new tools ([0-9.]+)/.exec(line)![1]), m };
      };
      const before = await massOnNew("teacher-base", "base");
      const after = await massOnNew("teacher-rows", "rows");
      // The base model has no new tokens to give mass to; after the fit, the new rows hold some of it.
      expect(before.mass).toBe(0);
      expect(after.mass).toBeGreaterThan(0.001);
      expect(after.m.fingerprint).not.toBe(before.m.fingerprint);
    },
  );

  it(
    "leaves the new tools' tokens to the labels when distilling over the old tools alone (distill scope old)",
    { timeout: 60_000 },
    async () => {
      const common = {
        from: base,
        tools: newTools,
        queries: newQueries,
        method: "all" as const,
        replay: 3,
        epochs: { memorization: 2, retrieval: 2 },
        lr: { memorization: 3e-3, retrieval: 3e-3 },
        progress: false,
        log: () => {},
      };
      // The mean probability the new tools take, among every tool token, after the old tools' queries.
      const massOnNew = (dir: string) => {
        const c = loadCheckpoint(dir);
        const ids = entries.map((t) => c.tokenizer!.tokenToId(`<<${t.id}>>`)!);
        const fresh = new Set(newTools.map((t) => c.tokenizer!.tokenToId(`<<${t.id}>>`)!));
        const ds = distillTargets(
          c.model,
          c.tokenizer!,
          oldQueries.map((q) => q.query),
          ids,
          {
            format: readManifest(dir)!.chatFormat ?? "chatml",
            maxContentTokens: 64,
            temperature: 1,
            topK: ids.length,
          },
        );
        let mass = 0;
        for (const d of ds) d.ids.forEach((id, k) => (mass += fresh.has(id) ? d.probs[k]! : 0));
        return mass / ds.length;
      };
      // Soft targets alone on the replayed samples: over the vocabulary they push the new tokens down there (the
      // base model gives them nothing); over the old tool tokens they leave them alone.
      const all = await addToolsToModel({ ...common, out: join(dir, "scope-all"), distill: { weight: 1 } });
      const old = await addToolsToModel({
        ...common,
        out: join(dir, "scope-old"),
        distill: { weight: 1, scope: "old" },
      });
      // (Seen: 0.38 against 0.26; the base model's weak fit leaves the new tools a share of the old queries.)
      expect(massOnNew(join(dir, "scope-old"))).toBeGreaterThan(massOnNew(join(dir, "scope-all")) + 0.05);
      expect(old.fingerprint).not.toBe(all.fingerprint);
    },
  );

  it("replays the old samples the new tools threaten most (hardReplay)", { timeout: 60_000 }, async () => {
    const run = (name: string, hardReplay: number | undefined) =>
      addLogged(name, {
        rowsFirst: true,
        epochs: { memorization: 1, retrieval: 1 },
        ...(hardReplay !== undefined ? { hardReplay } : {}),
      });
    const random = await run("replay-random", undefined);
    const drawn = await run("replay-hard-0", 0);
    const hard = await run("replay-hard", 1);
    expect(random.lines.some((l) => l.includes("hard replay"))).toBe(false);
    const masses = (lines: string[], share: number) => {
      const line = lines.find((l) => l.startsWith(`retrieval: hard replay ${share}:`))!;
      const [, chosen, pool, all, kept] =
        /: (\d+) of (\d+) old samples, new-tool mass mean ([0-9.]+) over all, ([0-9.]+) over the chosen/.exec(
          line,
        )!;
      return { chosen: Number(chosen), pool: Number(pool), all: Number(all), kept: Number(kept) };
    };
    // Fewer old retrieval samples than the pool: the riskiest carry more new-tool mass than a random draw.
    const h = masses(hard.lines, 1);
    const r = masses(drawn.lines, 0);
    expect(h.chosen).toBe(newQueries.length);
    expect(h.chosen).toBeLessThan(h.pool);
    expect(h.kept).toBeGreaterThan(h.all);
    expect(h.kept).toBeGreaterThan(r.kept);
    expect(hard.m.fingerprint).not.toBe(random.m.fingerprint);
  });

  it("spreads the replay over the epochs at the same steps (spreadReplay)", { timeout: 60_000 }, async () => {
    const run = (name: string, spreadReplay: boolean) =>
      addLogged(name, {
        epochs: { memorization: 1, retrieval: 3 },
        ...(spreadReplay ? { spreadReplay } : {}),
      });
    const once = await run("spread-no", false);
    const spread = await run("spread-yes", true);
    expect(once.lines.some((l) => l.includes("spread"))).toBe(false);
    const line = spread.lines.find((l) => l.startsWith("retrieval:") && l.includes("spread"))!;
    const [, fresh, replayed, distinct] =
      /: (\d+) new samples \+ (\d+) replayed \(spread: (\d+) distinct/.exec(line)!;
    // One draw of `replayed` old samples repeated 3 times, or 3 draws of other old samples.
    expect(Number(replayed)).toBe(Number(fresh));
    expect(Number(distinct)).toBeGreaterThan(Number(replayed));
    const stages = (m: typeof once.m) => m.added![0]!.stages.map((s) => [s.stage, s.steps]);
    expect(stages(spread.m)).toEqual(stages(once.m));
    const retrieval = spread.m.added![0]!.stages.find((s) => s.stage === "retrieval")!;
    expect(retrieval.samples).toBe(3 * Number(fresh) + 3 * Number(replayed));
    expect(spread.m.fingerprint).not.toBe(once.m.fingerprint);
  });

  it(
    "trains the user loss sampled, or on the new samples only, at the same steps",
    { timeout: 60_000 },
    async () => {
      const run = (name: string, extra: Partial<AddToolsOptions>) =>
        addLogged(name, { epochs: { memorization: 2, retrieval: 1 }, spreadReplay: true, ...extra });
      const full = await run("user-full", {});
      const sampled = await run("user-sampled", { userLossSamples: 16 });
      const newOnly = await run("user-new-only", { replayUserLoss: false });
      const stage = (m: typeof full.m, name: string) => m.added![0]!.stages.find((s) => s.stage === name)!;
      for (const name of ["memorization", "retrieval"]) {
        expect(stage(full.m, name).userLoss).toBe(true);
        expect(stage(full.m, name).userLossSamples).toBeUndefined();
        expect(stage(full.m, name).replayUserLoss).toBeUndefined();
        expect(stage(sampled.m, name).userLossSamples).toBe(16);
        expect(stage(newOnly.m, name).replayUserLoss).toBe(false);
      }
      const steps = (m: typeof full.m) => m.added![0]!.stages.map((s) => [s.stage, s.steps]);
      expect(steps(sampled.m)).toEqual(steps(full.m));
      expect(steps(newOnly.m)).toEqual(steps(full.m));
      const weights = (name: string) => readFileSync(join(dir, name, "model.safetensors"));
      expect(weights("user-sampled").equals(weights("user-full"))).toBe(false);
      expect(weights("user-new-only").equals(weights("user-full"))).toBe(false);
      expect(new Set([full, sampled, newOnly].map((r) => r.m.fingerprint)).size).toBe(3);
    },
  );

  it("refuses bad inputs with one line, before writing anything", async () => {
    const out = join(dir, "never");
    const attempt = (o: Partial<Parameters<typeof addToolsToModel>[0]>) =>
      addToolsToModel({ from: base, out, tools: newTools, progress: false, log: () => {}, ...o });
    const cases: Array<[Partial<Parameters<typeof addToolsToModel>[0]>, RegExp]> = [
      [{ tools: [oldTools[0]!, ...newTools] }, /already in the model: "weather&&Forecast"/],
      [{ tools: [newTools[0]!, newTools[0]!] }, /more than once/],
      [{ tools: [] }, /empty/],
      [{ from: join(dir, "nothing") }, /not a ToolGen model folder/],
      [{ queries: [{ query: "x", relevant: ["nope&&No"] }] }, /neither added nor in the model: "nope&&No"/],
      [{ out: base }, /new folder/],
      [{ epochs: { retrieval: 0 }, queries: newQueries }, /epochs must be a positive number/],
      [{ method: "all", anchor: -1 }, /anchor must be a number ≥ 0/],
      [{ method: "all", trainLayers: 1.5 }, /trainLayers must be an integer/],
      [{ method: "all", trainLayers: 3 }, /the model has 2 layers/],
      [{ anchor: 10 }, /apply to method all/],
      [{ distill: { weight: 0.5 } }, /apply to method all/],
      [{ hardReplay: 0.5 }, /apply to method all/],
      [{ method: "all", hardReplay: 1.5 }, /hardReplay must be a share in \[0, 1\], got 1.5/],
      [{ spreadReplay: true }, /spreadReplay applies to method all/],
      [{ userLossSamples: 64 }, /userLossSamples and replayUserLoss apply to method all/],
      [{ replayUserLoss: false }, /userLossSamples and replayUserLoss apply to method all/],
      [{ method: "all", userLossSamples: 0 }, /userLossSamples must be a positive integer, got 0/],
      [{ method: "all", spreadReplay: true, hardReplay: 1 }, /spreadReplay does not combine/],
      [{ method: "all", spreadReplay: true, distill: { weight: 0.5 } }, /spreadReplay does not combine/],
      [{ method: "all", distill: { weight: 1.5 } }, /distill weight must be in \[0, 1\]/],
      [{ method: "all", distill: { weight: 0.5, temperature: 0 } }, /distill temperature must be a positive/],
      [{ method: "all", distill: { weight: 0.5, topK: 0 } }, /distill topK must be an integer/],
      [
        { method: "all", distill: { weight: 0.5, teacher: "x" as "rows" } },
        /distill teacher must be base or rows/,
      ],
      [{ method: "all", distill: { weight: 0.5, teacher: "rows" } }, /teacher rows .* needs rowsFirst/],
      [
        { method: "all", distill: { weight: 0.5, scope: "x" as "old" } },
        /distill scope must be all or old, got "x"/,
      ],
      [
        { method: "all", rowsFirst: true, distill: { weight: 0.5, teacher: "rows", scope: "old" } },
        /distill scope old .* teacher rows/,
      ],
    ];
    for (const [o, message] of cases) {
      const error = await attempt(o).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(ToolgenError.isInstance(error), String(message)).toBe(true);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain("\n");
    }
    const full = join(dir, "full");
    mkdirSync(full);
    writeFileSync(join(full, "x"), "");
    await expect(attempt({ out: full })).rejects.toThrow(/exists and is not empty/);
    // An unfinished folder (its manifest lists a stage it has not trained) is refused too.
    const unfinished = join(dir, "unfinished");
    mkdirSync(unfinished);
    const m = readManifest(base)!;
    writeFileSync(join(unfinished, "toolgen.json"), JSON.stringify({ ...m, done: m.done.slice(0, 1) }));
    await expect(attempt({ from: unfinished })).rejects.toThrow(/not finished \(retrieval not trained\)/);
    expect(existsSync(out)).toBe(false);
  });

  it("runs through the CLI and fails there with one line", { timeout: 30_000 }, async () => {
    const tools = join(dir, "new.json");
    writeFileSync(tools, JSON.stringify(Object.fromEntries(newTools.map((e) => [e.tool, e.description]))));
    const out = join(dir, "cli");
    const ok = await runCli([
      "train",
      "--add-tools",
      tools,
      "--from",
      base,
      "--out",
      out,
      "--method",
      "all",
      "--epochs",
      "memorization=2",
      "--no-progress",
      "--json",
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    const result = JSON.parse(ok.stdout) as { tools: number; catalogSize: number };
    expect(result.tools).toBe(NEW);
    expect(result.catalogSize).toBe(entries.length);

    const bad = join(dir, "cli-bad");
    const refused = await runCli(["train", "--add-tools", tools, "--from", out, "--out", bad]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toMatch(/4 of the tools are already in the model/);
    const noFrom = await runCli(["train", "--add-tools", tools, "--out", bad]);
    expect(noFrom.stderr).toMatch(/--add-tools needs --from DIR/);
    const wrong = await runCli([
      "train",
      "--add-tools",
      tools,
      "--from",
      base,
      "--index",
      "numeric",
      "--out",
      bad,
    ]);
    expect(wrong.stderr).toMatch(/--index does not apply to --add-tools training/);
    const idle = await runCli(["train", "--add-tools", tools, "--from", base, "--epochs", "2", "--out", bad]);
    expect(idle.stderr).toMatch(/--epochs applies to --method all/);
    expect(existsSync(bad)).toBe(false);
  });

  it(
    "takes the knobs of method all as flags, and refuses bad values with one line",
    { timeout: 30_000 },
    async () => {
      const tools = join(dir, "new-flags.json");
      writeFileSync(tools, JSON.stringify(Object.fromEntries(newTools.map((e) => [e.tool, e.description]))));
      const bad = join(dir, "cli-flags-bad");
      const cases: Array<[string[], RegExp]> = [
        [["--rows-first"], /--rows-first applies to --method all/],
        [["--distill", "0.5"], /--distill applies to --method all/],
        [["--method", "all", "--anchor", "-1"], /--anchor must be a number ≥ 0, got "-1"/],
        [["--method", "all", "--anchor", "x"], /--anchor must be a number ≥ 0/],
        [["--method", "all", "--train-layers", "1.5"], /--train-layers must be an integer ≥ 0/],
        [["--method", "all", "--train-layers", "9"], /trainLayers 9: the model has 2 layers/],
        [["--method", "all", "--distill", "2"], /--distill must be a number in \[0, 1\], got "2"/],
        [["--method", "all", "--distill-temperature", "2"], /--distill-temperature applies to --distill/],
        [
          ["--method", "all", "--distill", "0.5", "--distill-temperature", "0"],
          /--distill-temperature must be a positive number/,
        ],
        [["--method", "all", "--distill-teacher", "rows"], /--distill-teacher applies to --distill/],
        [
          ["--method", "all", "--distill", "0.5", "--distill-teacher", "x"],
          /--distill-teacher must be base or rows, got "x"/,
        ],
        [
          ["--method", "all", "--distill", "0.5", "--distill-teacher", "rows"],
          /--distill-teacher rows .* needs --rows-first/,
        ],
        [["--hard-replay", "1"], /--hard-replay applies to --method all/],
        [["--method", "all", "--hard-replay", "2"], /--hard-replay must be a share in \[0, 1\], got "2"/],
        [["--spread-replay"], /--spread-replay applies to --method all/],
        [["--user-loss-samples", "64"], /--user-loss-samples applies to --method all/],
        [["--replay-without-user-loss"], /--replay-without-user-loss applies to --method all/],
        [["--method", "all", "--user-loss-samples", "0"], /--user-loss-samples/],
        [
          ["--method", "all", "--spread-replay", "--hard-replay", "0.5"],
          /--spread-replay does not combine with --hard-replay or --distill/,
        ],
        [["--method", "all", "--distill-scope", "old"], /--distill-scope applies to --distill/],
        [
          ["--method", "all", "--distill", "0.5", "--distill-scope", "x"],
          /--distill-scope must be all or old, got "x"/,
        ],
        [
          ["--method", "all", "--rows-first", "--distill", "0.5", "--distill-teacher", "rows"].concat([
            "--distill-scope",
            "old",
          ]),
          /--distill-scope old .* needs --distill-teacher base/,
        ],
      ];
      for (const [flags, message] of cases) {
        const r = await runCli(["train", "--add-tools", tools, "--from", base, "--out", bad, ...flags]);
        expect(r.code, flags.join(" ")).not.toBe(0);
        expect(r.stderr.trim().split("\n"), flags.join(" ")).toHaveLength(1);
        expect(r.stderr, flags.join(" ")).toMatch(message);
      }
      expect(existsSync(bad)).toBe(false);
      const out = join(dir, "cli-flags");
      const ok = await runCli([
        "train",
        ...["--add-tools", tools, "--from", base, "--out", out, "--method", "all", "--epochs", "1"],
        ...[
          "--rows-first",
          "--anchor",
          "10",
          "--train-layers",
          "1",
          "--distill",
          "0.5",
          "--distill-temperature",
          "2",
          "--distill-teacher",
          "rows",
          "--hard-replay",
          "0.5",
        ],
        ...["--no-progress", "--json"],
      ]);
      expect(ok.code, ok.stderr).toBe(0);
      const json = JSON.parse(ok.stdout) as { rows?: unknown; hardReplay?: number };
      expect(json.rows).toBeDefined(); // --rows-first
      expect(json.hardReplay).toBe(0.5);
      const spreadOut = join(dir, "cli-flags-spread");
      const spread = await runCli([
        "train",
        ...["--add-tools", tools, "--from", base, "--out", spreadOut, "--method", "all", "--epochs", "2"],
        ...["--spread-replay", "--user-loss-samples", "16", "--replay-without-user-loss"],
        ...["--no-progress", "--json"],
      ]);
      expect(spread.code, spread.stderr).toBe(0);
      const spreadJson = JSON.parse(spread.stdout) as {
        spreadReplay?: boolean;
        stages: Array<{ userLossSamples?: number; replayUserLoss?: boolean }>;
      };
      expect(spreadJson.spreadReplay).toBe(true);
      for (const s of spreadJson.stages) expect([s.userLossSamples, s.replayUserLoss]).toEqual([16, false]);
      // --train-layers 1: the first of the two layers is held bit for bit.
      const name = "model.layers.0.mlp.up_proj.weight";
      const [a, b] = [
        loadCheckpoint(base).model.params.get(name),
        loadCheckpoint(out).model.params.get(name),
      ];
      expect(
        Buffer.from(b.buffer, b.byteOffset, b.byteLength).equals(
          Buffer.from(a.buffer, a.byteOffset, a.byteLength),
        ),
      ).toBe(true);
    },
  );
});
