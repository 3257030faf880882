/**
 * Document expansion by generation (issue 41, the Tool-DE / doc2query idea): a tiny engine language model learns
 * to write a query from a tool's document on the TRAIN tools' (document, query) pairs only, then writes a few
 * pseudo-queries for every catalog entry, offline, so a tool no query named still gets query-like words and the
 * retriever needs no model at query time.
 *
 * Leakage: a generator that saw a tool's own queries would recall them, so the entries of train tools get their
 * pseudo-queries from the generator trained on the OTHER fold of train tools (two folds by tool, seed 41; a query
 * that names an entry of the other fold is left out of the fold's pairs), and every other entry (dev, test, and
 * tools no query names) from the generator trained on all train tools.
 *
 * `TOOLGEN_KERNEL_THREADS=2 npx tsx bench/doc-expansion-generate.ts [--out DIR] [--sets metatool,stabletoolbench]`
 * writes DIR/generated-<set>.json ({ entry id: [pseudo-queries] } plus the settings); default DIR /tmp/toolgen-de.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { SPLIT_SEED, metaTool, stableToolBench, type DataSet } from "./lib/tool-disjoint.ts";
import {
  Llama,
  initParams,
  presetConfig,
  train,
  InferenceSession,
  generateTokens,
  type Sample,
} from "../src/nn/index.ts";
import { Tokenizer } from "../src/nn/tokenizer/index.ts";
import type { CatalogEntry } from "../src/catalog/catalog.ts";
import { mixSeed } from "../src/nn/train/batches.ts";

/** The settings, recorded in the output. */
export const GENERATOR_DEFAULTS = {
  preset: "tiny",
  maxPositions: 128,
  vocabSize: 2048,
  documentTokens: 64,
  queryTokens: 48,
  batchSize: 32,
  lr: 2e-3,
  /** Passes over the pairs (steps = epochs · pairs / batch, at least 200). */
  epochs: 2,
  samples: 3,
  temperature: 0.8,
  topP: 0.95,
  seed: 41,
} as const;

const BOS = "<|begin_of_text|>";
const EOS = "<|end_of_text|>";
const SEP = "<|start_header_id|>";

/** What the generator reads of an entry: its names, description and parameter names. */
export function generatorDocument(e: CatalogEntry): string {
  const params = Object.keys(e.parameters?.properties ?? {});
  return `${e.tool} ${e.api}: ${e.description} (${params.join(", ")})`.replace(/\s+/g, " ").trim();
}

/** The tool an entry belongs to (folds go by tool, so a tool's entries share a fold). */
const toolKey = (e: CatalogEntry): string => e.tool;

function fold(tool: string): number {
  let h = SPLIT_SEED >>> 0;
  for (let i = 0; i < tool.length; i++) h = mixSeed(h, tool.charCodeAt(i));
  return h & 1;
}

interface Generator {
  model: Llama;
  pairs: number;
  steps: number;
  lastLoss: number;
  seconds: number;
}

async function trainGenerator(
  tok: Tokenizer,
  docs: Map<string, number[]>,
  pairs: [string, string][],
  seed: number,
): Promise<Generator> {
  const bos = tok.tokenToId(BOS)!;
  const eos = tok.tokenToId(EOS)!;
  const sep = tok.tokenToId(SEP)!;
  const samples: Sample[] = pairs.map(([id, query]) => {
    const d = docs.get(id)!;
    const q = tok.encode(query, { special: false }).slice(0, GENERATOR.queryTokens);
    const ids = [bos, ...d, sep, ...q, eos];
    const lossMask = ids.map((_, i) => (i > d.length + 1 ? 1 : 0));
    return { ids, lossMask };
  });
  const config = presetConfig(GENERATOR.preset, tok.vocabSize, {
    maxPositions: GENERATOR.maxPositions,
    bosTokenId: bos,
    eosTokenId: eos,
    padTokenId: eos,
  });
  const model = new Llama(config, initParams(config, seed));
  const steps = SMOKE
    ? 3
    : Math.max(200, Math.round((GENERATOR.epochs * samples.length) / GENERATOR.batchSize));
  const t0 = performance.now();
  let lastLoss = NaN;
  await train(
    model,
    { kind: "samples", samples, padId: eos, seqLen: GENERATOR.maxPositions },
    {
      steps,
      batchSize: GENERATOR.batchSize,
      lr: GENERATOR.lr,
      seed,
      onStep: (s) => {
        lastLoss = s.loss;
        if (s.step % 100 === 0) process.stderr.write(`  step ${s.step}/${steps} loss ${s.loss.toFixed(3)}\n`);
      },
    },
  );
  return { model, pairs: pairs.length, steps, lastLoss, seconds: (performance.now() - t0) / 1000 };
}

function generate(tok: Tokenizer, model: Llama, doc: number[], seed: number): string[] {
  const bos = tok.tokenToId(BOS)!;
  const eos = tok.tokenToId(EOS)!;
  const sep = tok.tokenToId(SEP)!;
  const out: string[] = [];
  for (let s = 0; s < GENERATOR.samples; s++) {
    const session = new InferenceSession(model);
    try {
      const { ids } = generateTokens(session, [bos, ...doc, sep], {
        maxTokens: GENERATOR.queryTokens,
        stopIds: [eos],
        temperature: GENERATOR.temperature,
        topP: GENERATOR.topP,
        seed: mixSeed(seed, s),
      });
      out.push(
        tok
          .decode(
            ids.filter((i) => i !== eos),
            { skipSpecial: true },
          )
          .trim(),
      );
    } finally {
      session.dispose();
    }
  }
  return out;
}

async function expand(set: DataSet, outDir: string): Promise<void> {
  const t0 = performance.now();
  const trainIds = new Set(set.train.flatMap((q) => q.relevant));
  const byId = new Map(set.catalog.map((e) => [e.id, e]));
  const texts = set.catalog.map(generatorDocument);
  const tok = Tokenizer.train([...texts, ...set.train.map((q) => q.query)], GENERATOR.vocabSize, {
    specialTokens: [BOS, EOS, SEP],
  });
  const docs = new Map(
    set.catalog.map((e, i) => [
      e.id,
      tok.encode(texts[i], { special: false }).slice(0, GENERATOR.documentTokens),
    ]),
  );
  const foldOf = (id: string): number => fold(toolKey(byId.get(id)!));
  const pairsOf = (keep: (f: number) => boolean): [string, string][] =>
    set.train
      .filter((q) => q.relevant.every((id) => keep(foldOf(id))))
      .flatMap((q) => q.relevant.map((id): [string, string] => [id, q.query]));
  const generators: Record<string, Omit<Generator, "model">> = {};
  const generated: Record<string, string[]> = {};
  const source: Record<string, string> = {};
  const runs: [string, (f: number) => boolean, (id: string) => boolean][] = [
    ["fold0", (f) => f === 0, (id) => trainIds.has(id) && foldOf(id) === 1],
    ["fold1", (f) => f === 1, (id) => trainIds.has(id) && foldOf(id) === 0],
    ["all", () => true, (id) => !trainIds.has(id)],
  ];
  for (const [name, keep, targets] of runs) {
    const pairs = pairsOf(keep);
    process.stderr.write(`${set.name} ${name}: ${pairs.length} pairs\n`);
    const g = await trainGenerator(
      tok,
      docs,
      pairs,
      mixSeed(
        GENERATOR.seed,
        runs.findIndex((r) => r[0] === name),
      ),
    );
    const { model, ...info } = g;
    const tg = performance.now();
    let n = 0;
    set.catalog.forEach((e, i) => {
      if (!targets(e.id) || (SMOKE && n >= 3)) return;
      generated[e.id] = generate(tok, model, docs.get(e.id)!, mixSeed(GENERATOR.seed, i));
      source[e.id] = name;
      n++;
    });
    generators[name] = { ...info, entries: n, generationSeconds: (performance.now() - tg) / 1000 } as never;
    process.stderr.write(`  ${JSON.stringify(generators[name])}\n`);
  }
  writeFileSync(
    join(outDir, `generated-${set.name}.json`),
    JSON.stringify({
      set: set.name,
      settings: GENERATOR,
      generators,
      seconds: (performance.now() - t0) / 1000,
      source,
      generated,
    }) + "\n",
  );
}

const { values } = parseArgs({
  options: {
    out: { type: "string", default: "/tmp/toolgen-de" },
    sets: { type: "string", default: "metatool,stabletoolbench" },
    smoke: { type: "boolean", default: false },
    epochs: { type: "string" },
    temperature: { type: "string" },
  },
});
const SMOKE = values.smoke!;
/** The settings of this run: the defaults, with `--epochs` and `--temperature` when given (dev probes). */
const GENERATOR = {
  ...GENERATOR_DEFAULTS,
  ...(values.epochs === undefined ? {} : { epochs: Number(values.epochs) }),
  ...(values.temperature === undefined ? {} : { temperature: Number(values.temperature) }),
};
mkdirSync(values.out!, { recursive: true });
const wanted = values.sets!.split(",");
for (const set of [metaTool(), stableToolBench()])
  if (wanted.includes(set.name)) await expand(set, values.out!);
