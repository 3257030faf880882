import { existsSync } from "node:fs";
import { join } from "node:path";
import type { LabelledQuery } from "../../src/catalog/catalog.ts";
import { loadCatalog, loadQueries } from "../../src/catalog/load.ts";
import { dropRepeats, splitQueries, splitThreeWay } from "../../src/eval/split.ts";
import { PRESETS, type LlamaConfig } from "../../src/nn/config.ts";
import type { IndexKind } from "../../src/toolgen/ids.ts";
import type { Stage } from "../../src/train/datasets.ts";
import { SCHEDULES } from "../../src/train/schedule.ts";
import { SHARED_DATA } from "../../test/helpers/shared-data.ts";
import { checkProtocolParts } from "./checks.ts";
import type { Variant } from "./common.ts";

/**
 * What bench:toolgen trains, and on which queries. Every model is one plan: a name, a model size and a schedule.
 * The benchmark trains the plans named in TOOLGEN_BENCH_PLANS (or a named set), selects among them on dev and
 * reports the selected one on test; `npx tsx bench/toolgen/train.ts GROUP PLAN` rebuilds one model alone.
 */

/** The data folder (../shared/data beside the checkout, or TOOLGEN_BENCH_DATA). */
export const DATA = process.env.TOOLGEN_BENCH_DATA ?? SHARED_DATA;
export const dataFile = (relative: string): string | undefined => {
  const path = join(DATA, relative);
  return existsSync(path) ? path : undefined;
};

/**
 * MetaTool protocol: `splitThreeWay(loadQueries(queries.csv), seed 1, dev 0.1, test 0.1)` — the same rows as
 * `toolgen eval split --queries queries.csv --seed 1 --train-out … --dev-out … --test-out …` (dev and test rows
 * repeating an earlier part's query are dropped there too). Train is the earlier benches' 80 % train part; their
 * dev part is now halved into dev (selection) and test (reporting).
 */
export const METATOOL_SPLIT = { seed: 1, dev: 0.1, test: 0.1 };

export function metaToolData() {
  const tools = dataFile("metatool/tools.json");
  const queries = dataFile("metatool/queries.csv");
  if (!tools || !queries) return undefined;
  const catalog = loadCatalog(tools);
  const split = splitThreeWay(loadQueries(queries, catalog), METATOOL_SPLIT.seed, METATOOL_SPLIT);
  // Dev and test rows repeating an earlier part's query text are dropped, as `toolgen eval split` does.
  const { parts, dropped: repeats } = dropRepeats([split.train, split.dev, split.test], (q) => q.query);
  const [train, dev, test] = parts as [LabelledQuery[], LabelledQuery[], LabelledQuery[]];
  const checks = checkProtocolParts(
    [
      ["train", train],
      ["dev", dev],
      ["test", test],
    ],
    catalog,
  );
  const dropped = { dev: repeats[0]!, test: repeats[1]! };
  return { tools, queries, catalog, train, dev, test, dropped, checks };
}

/**
 * StableToolBench protocol: retrieval training on the G1 query files less a seeded 20 % dev part
 * (`splitQueries(G1, 1, 0.8)`), on which the hybrid's fusion is chosen; G2 (instruction + category) is the test.
 * Memorization covers all of apis.json.
 */
export const STB_SPLIT = { seed: 1, trainFraction: 0.8 };
export const STB_TRAIN_FILES = ["G1_instruction", "G1_category", "G1_tool"];
export const STB_TEST_FILES = ["G2_instruction", "G2_category"];

export function stableToolBenchData() {
  const apis = dataFile("stabletoolbench/apis.json");
  if (!apis) return undefined;
  const dir = join(apis, "..");
  const catalog = loadCatalog(apis);
  const load = (files: string[]): LabelledQuery[] =>
    files.flatMap((f) => loadQueries(join(dir, `${f}.json`), catalog));
  const { train, dev } = splitQueries(load(STB_TRAIN_FILES), STB_SPLIT.seed, STB_SPLIT.trainFraction);
  const test = load(STB_TEST_FILES);
  const checks = checkProtocolParts(
    [
      ["train", train],
      ["dev", dev],
      ["test", test],
    ],
    catalog,
  );
  return { catalog, train, dev, test, checks };
}

/** The model sizes: the tiny preset cut to fit a shared 2-core machine, and the tiny preset itself. */
export const SIZES: Record<string, Partial<LlamaConfig>> = {
  /** The tiny preset as `toolgen train --preset tiny` builds it (no override: the default plan passes none). */
  tiny: { ...PRESETS.tiny },
  d64x2: { hiddenSize: 64, intermediateSize: 176, numLayers: 2, numHeads: 2, maxPositions: 128 },
  d128x2: { hiddenSize: 128, intermediateSize: 336, numLayers: 2, numHeads: 4, maxPositions: 128 },
  /** The tiny preset's own size (d128 × 4), with the bench's context. */
  d128x4: { hiddenSize: 128, intermediateSize: 352, numLayers: 4, numHeads: 4, maxPositions: 128 },
  /** The tiny preset one and a half times as wide (heads of 32 as in tiny; its context). */
  d192x4: { hiddenSize: 192, intermediateSize: 512, numLayers: 4, numHeads: 6, maxPositions: 256 },
};

export interface Plan {
  name: string;
  size: keyof typeof SIZES;
  index: IndexKind;
  stages: Stage[];
  memorization: { epochs: number; lr: number; tokenDropout?: number; userLoss?: boolean };
  retrieval: { epochs: number; lr: number; tokenDropout?: number; userLoss?: boolean; averageLast?: number };
  /** User and tool contents are cut to this many tokens. */
  maxContentTokens: number;
  /** The BPE vocabulary learned from the catalog and queries (special tokens and bytes included). */
  tokenizerVocab: number;
  /**
   * The model a user gets: trained exactly as `toolgen train --catalog … --queries TRAIN --out DIR --preset tiny`
   * trains it (no size or schedule override, the CLI's default seed), so its fingerprint is the CLI folder's and
   * a folder the CLI trained is reused as it is (TOOLGEN_BENCH_MODELS). The fields above only describe it.
   */
  cliDefaults?: boolean;
  /**
   * Trained as `toolgen train --catalog … --queries TRAIN --out DIR --preset tiny FLAGS` (these flags, the CLI's
   * seed, the preset's size): a folder the CLI wrote with these flags has the plan's fingerprint and is reused.
   */
  cliFlags?: string;
  /** The training seed (default 1; plans that vary one setting of the default plan take its seed, 0). */
  seed?: number;
}

/** `toolgen train`'s default `--seed`. */
export const CLI_DEFAULT_SEED = 0;

/** The name of the default-preset plan in both groups. */
export const DEFAULT_PLAN = "tiny-preset";

/** The default plan: the tiny preset's own size and schedule (src/train/schedule.ts), nothing overridden. */
function defaultPresetPlan(): Plan {
  const { memorization, retrieval } = SCHEDULES.tiny.stages;
  return {
    name: DEFAULT_PLAN,
    size: "tiny",
    index: "atomic",
    stages: ["memorization", "retrieval"],
    memorization: { ...memorization },
    retrieval: { ...retrieval },
    maxContentTokens: SCHEDULES.tiny.maxContentTokens,
    tokenizerVocab: SCHEDULES.tiny.tokenizerVocab,
    cliDefaults: true,
  };
}

/** The vocabulary every plan but the CLI ones was trained with (the tiny preset's until 2026-12-03). */
const VOCAB_2048 = 2048;

const BOTH: Stage[] = ["memorization", "retrieval"];

/**
 * The default plan with one retrieval setting changed and nothing else (not through the CLI's defaults, so its
 * fingerprint is its own; the CLI's seed, so the comparison with the default plan varies that setting alone).
 */
function tinyVariant(name: string, retrieval: Partial<Plan["retrieval"]>): Plan {
  const base = defaultPresetPlan();
  return {
    ...base,
    name,
    retrieval: { epochs: 16, lr: 3e-3, tokenDropout: 0.3, userLoss: true, ...retrieval },
    memorization: { epochs: 32, lr: 2e-3, userLoss: true },
    maxContentTokens: 96,
    tokenizerVocab: VOCAB_2048,
    cliDefaults: false,
    seed: CLI_DEFAULT_SEED,
  };
}

/** The retrieval settings and seed of a CLI plan; a plan's name spells those that differ from `CLI_NAMING_BASE`. */
interface CliSettings {
  epochs: number;
  tokenDropout: number;
  averageLast: number;
  seed: number;
}

/**
 * What a CLI plan's name leaves unsaid: `tiny-v8192` is 16 retrieval epochs, token dropout 0.3, no weight
 * averaging, seed 0, whatever the preset is today, so a name keeps meaning the same model when the preset moves.
 */
const CLI_NAMING_BASE: CliSettings = {
  epochs: 16,
  tokenDropout: 0.3,
  averageLast: 0,
  seed: CLI_DEFAULT_SEED,
};

/**
 * The CLI's tiny preset with a BPE vocabulary of `vocab` tokens and the given retrieval settings: what
 * `toolgen train --preset tiny --vocab-size N FLAGS` trains, FLAGS being the settings that differ from the
 * preset's (`--epochs retrieval=E`, `--token-dropout retrieval=P`, `--average-last retrieval=F`, `--seed S`).
 */
function cliVocabPlan(vocab: number, changes: Partial<CliSettings> = {}): Plan {
  const base = defaultPresetPlan();
  const want: CliSettings = { ...CLI_NAMING_BASE, ...changes };
  const preset: CliSettings = {
    epochs: base.retrieval.epochs,
    tokenDropout: base.retrieval.tokenDropout ?? 0,
    averageLast: base.retrieval.averageLast ?? 0,
    seed: CLI_DEFAULT_SEED,
  };
  const differs = (k: keyof CliSettings, from: CliSettings) => want[k] !== from[k];
  const name =
    `tiny-v${vocab}` +
    (differs("epochs", CLI_NAMING_BASE) ? `-r${want.epochs}` : "") +
    (differs("tokenDropout", CLI_NAMING_BASE) ? `-drop${want.tokenDropout}` : "") +
    (differs("averageLast", CLI_NAMING_BASE) ? `-avg${want.averageLast}` : "") +
    (differs("seed", CLI_NAMING_BASE) ? `-seed${want.seed}` : "");
  const flags = [
    `--vocab-size ${vocab}`,
    ...(differs("epochs", preset) ? [`--epochs retrieval=${want.epochs}`] : []),
    ...(differs("tokenDropout", preset) ? [`--token-dropout retrieval=${want.tokenDropout}`] : []),
    ...(differs("averageLast", preset) ? [`--average-last retrieval=${want.averageLast}`] : []),
    ...(differs("seed", preset) ? [`--seed ${want.seed}`] : []),
  ];
  return {
    ...base,
    name,
    retrieval: {
      ...base.retrieval,
      epochs: want.epochs,
      tokenDropout: want.tokenDropout,
      averageLast: want.averageLast,
    },
    tokenizerVocab: vocab,
    cliDefaults: false,
    cliFlags: flags.join(" "),
    seed: want.seed,
  };
}

/**
 * `tiny-v8192` (the CLI's tiny schedule, an 8,192-token vocabulary, no weight averaging, the CLI's seed) at
 * another model size: what a larger model buys with nothing else changed.
 */
function sizedPlan(size: Plan["size"]): Plan {
  const { name: _name, cliFlags: _flags, ...plan } = cliVocabPlan(8192);
  return { ...plan, name: `${size}-v8192`, size };
}

function metaToolPlan(size: Plan["size"], mem: number, ret: number, dropout: number, lr = 3e-3): Plan {
  return {
    name: `${size}-m${mem}-r${ret}-drop${dropout}`,
    size,
    index: "atomic",
    stages: BOTH,
    memorization: { epochs: mem, lr: 2e-3, tokenDropout: 0 },
    retrieval: { epochs: ret, lr, tokenDropout: dropout },
    maxContentTokens: 52,
    tokenizerVocab: VOCAB_2048,
  };
}

/** Every MetaTool plan the bench knows; the sets below pick from them. */
export const METATOOL_PLANS: readonly Plan[] = [
  defaultPresetPlan(),
  metaToolPlan("d64x2", 8, 4, 0.3),
  metaToolPlan("d64x2", 8, 8, 0),
  metaToolPlan("d64x2", 8, 8, 0.3),
  metaToolPlan("d64x2", 32, 16, 0.3),
  metaToolPlan("d128x2", 8, 8, 0.3),
  metaToolPlan("d128x2", 32, 16, 0.3),
  metaToolPlan("d128x4", 32, 16, 0.3),
  metaToolPlan("d128x4", 32, 32, 0.3),
  tinyVariant("tiny-r24", { epochs: 24 }),
  tinyVariant("tiny-drop0.1", { tokenDropout: 0.1 }),
  cliVocabPlan(2048),
  cliVocabPlan(8192),
  cliVocabPlan(16384),
  cliVocabPlan(8192, { epochs: 24 }),
  cliVocabPlan(8192, { seed: 1 }),
  cliVocabPlan(8192, { averageLast: 0.25 }),
  cliVocabPlan(8192, { averageLast: 0.5 }),
  sizedPlan("d192x4"),
  ...(["semantic", "numeric", "hierarchical"] as const).map((index): Plan => ({
    ...metaToolPlan("d64x2", 8, 1, 0),
    name: `${index}-d64x2-m8-r1`,
    index,
  })),
];

export const STB_PLANS: readonly Plan[] = [
  defaultPresetPlan(),
  {
    name: "d64x2-m4-r3",
    size: "d64x2",
    index: "atomic",
    stages: BOTH,
    memorization: { epochs: 4, lr: 2e-3, tokenDropout: 0 },
    retrieval: { epochs: 3, lr: 2e-3, tokenDropout: 0 },
    maxContentTokens: 96,
    tokenizerVocab: VOCAB_2048,
  },
  {
    name: "d64x2-m24-r16-drop",
    size: "d64x2",
    index: "atomic",
    stages: BOTH,
    memorization: { epochs: 24, lr: 2e-3, tokenDropout: 0.2 },
    retrieval: { epochs: 16, lr: 4e-3, tokenDropout: 0.25 },
    maxContentTokens: 96,
    tokenizerVocab: VOCAB_2048,
  },
  {
    name: "d128x4-m32-r16",
    size: "d128x4",
    index: "atomic",
    stages: BOTH,
    memorization: { epochs: 32, lr: 2e-3, tokenDropout: 0 },
    retrieval: { epochs: 16, lr: 3e-3, tokenDropout: 0.3 },
    maxContentTokens: 96,
    tokenizerVocab: VOCAB_2048,
  },
];

/**
 * Named sets. `default` (what `npm run bench:toolgen` runs) is the default preset's model; `today` the d64 × 2
 * plans that fit in about an hour on a shared 2-core machine; `full` the whole grid (the tiny preset's size with
 * long schedules). TOOLGEN_BENCH_PLANS takes a set name or a comma-separated list of plan names.
 */
export const PLAN_SETS: Record<string, { metatool: string[]; stabletoolbench: string[] }> = {
  /**
   * The model a user gets (the default preset; reuse the CLI's folders with TOOLGEN_BENCH_MODELS) and, for the
   * unconstrained hallucination rate per index kind, one small model per multi-token index kind.
   */
  default: {
    metatool: [DEFAULT_PLAN, "semantic-d64x2-m8-r1", "numeric-d64x2-m8-r1", "hierarchical-d64x2-m8-r1"],
    stabletoolbench: [DEFAULT_PLAN],
  },
  /**
   * The default plan beside its neighbours, for choosing the preset: the CLI's tiny preset with other BPE
   * vocabularies (`--vocab-size`) and more retrieval epochs. (tiny-r24 and tiny-drop0.1, the 2,048-token
   * neighbours of the 2026-12-02 run, are on record under `earlier_runs`.)
   */
  schedule: {
    metatool: [DEFAULT_PLAN, "tiny-v16384", "tiny-v8192-r24", "tiny-v8192-seed1"],
    stabletoolbench: [DEFAULT_PLAN],
  },
  today: {
    metatool: ["d64x2-m8-r4-drop0.3", "d64x2-m8-r8-drop0", "d64x2-m8-r8-drop0.3"],
    stabletoolbench: ["d64x2-m4-r3"],
  },
  full: {
    metatool: METATOOL_PLANS.map((p) => p.name),
    stabletoolbench: STB_PLANS.map((p) => p.name),
  },
};

export function selectedPlans(group: "metatool" | "stabletoolbench", spec: string): Plan[] {
  const all = group === "metatool" ? METATOOL_PLANS : STB_PLANS;
  if (!PLAN_SETS[spec]) {
    const known = new Set([...METATOOL_PLANS, ...STB_PLANS].map((p) => p.name));
    const unknown = spec.split(",").filter((n) => !known.has(n));
    if (unknown.length > 0)
      throw new Error(
        `TOOLGEN_BENCH_PLANS: unknown plan ${unknown.join(", ")} (sets: ${Object.keys(PLAN_SETS).join(", ")}; ` +
          `plans: ${[...known].join(", ")})`,
      );
  }
  const names = PLAN_SETS[spec]?.[group] ?? spec.split(",").filter((n) => all.some((p) => p.name === n));
  return names.map((n) => {
    const plan = all.find((p) => p.name === n);
    if (!plan) throw new Error(`unknown ${group} plan "${n}" (known: ${all.map((p) => p.name).join(", ")})`);
    return plan;
  });
}

export function findPlan(group: string, name: string): Plan {
  const all = group === "metatool" ? METATOOL_PLANS : group === "stabletoolbench" ? STB_PLANS : undefined;
  if (!all) throw new Error(`unknown group "${group}" (metatool, stabletoolbench)`);
  const plan = all.find((p) => p.name === name);
  if (!plan) throw new Error(`unknown ${group} plan "${name}" (known: ${all.map((p) => p.name).join(", ")})`);
  return plan;
}

/**
 * The training options of a plan (token dropout and user loss always named: the tiny preset's retrieval default
 * is dropout 0.3, its memorization trains on the document's words). The
 * default plan gets the CLI's options and nothing else: the preset, its seed, no size or schedule override.
 */
export function planVariant(plan: Plan, seed = plan.seed ?? 1): Variant {
  if (plan.cliDefaults)
    return { name: plan.name, options: { preset: "tiny", seed: CLI_DEFAULT_SEED, progress: false } };
  // The CLI's flags become these schedule overrides; the fingerprint sees the merged schedule, so it is the
  // folder's that `toolgen train --preset tiny FLAGS` writes.
  if (plan.cliFlags)
    return {
      name: plan.name,
      options: {
        preset: "tiny",
        seed,
        progress: false,
        schedule: {
          tokenizerVocab: plan.tokenizerVocab,
          stages: {
            retrieval: {
              epochs: plan.retrieval.epochs,
              tokenDropout: plan.retrieval.tokenDropout,
              averageLast: plan.retrieval.averageLast ?? 0,
            },
          },
        },
      },
    };
  return {
    name: plan.name,
    options: {
      preset: "tiny",
      index: plan.index,
      stages: plan.stages,
      seed,
      progress: false,
      config: SIZES[plan.size],
      schedule: {
        maxContentTokens: plan.maxContentTokens,
        tokenizerVocab: plan.tokenizerVocab,
        stages: {
          memorization: { tokenDropout: 0, userLoss: false, ...plan.memorization },
          retrieval: { tokenDropout: 0, userLoss: false, averageLast: 0, ...plan.retrieval },
        },
      },
    },
  };
}
