import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CatalogEntry, LabelledQuery } from "../catalog/catalog.ts";
import { BuiltinTokenModel } from "../models/builtin.ts";
import type { LlamaConfig } from "../nn/config.ts";
import { pinWasmKernels } from "../nn/kernels/index.ts";
import type { Tool } from "../tools/types.ts";
import type { Stage, Trajectory } from "../train/datasets.ts";
import { loadToolGenModel, readManifest, type ToolGenManifest } from "../toolgen/model-folder.ts";
import { trainToolGen, type ToolGenTrainOptions } from "../train/pipeline.ts";
import { demoCatalog, demoTools } from "./catalog.ts";
import { ToolGenChatModel } from "./chat-model.ts";
import {
  generateSamples,
  labelledQueries,
  offTopicSamples,
  trajectoriesFor,
  type DemoSample,
} from "./generator.ts";
import type { HandwrittenSet } from "./grading.ts";
import { normalizeQuestion } from "./off-topic.ts";
import { SHOWN_QUESTIONS } from "./questions.ts";

/** Where `toolgen demo` trains a model when the committed one does not fit the current catalog (gitignored). */
export const DEMO_MODEL_DIR = join(".cache", "demo-model");
/**
 * The committed demo model (about 1 MB): `npm run demo:model` (= `toolgen demo --rebuild`) rebuilds it; the
 * training is deterministic, so the weights, tokenizer and index come out bit for bit the same.
 */
export const COMMITTED_DEMO_MODEL = fileURLToPath(new URL("../../models/demo", import.meta.url));
// The hand-written sets ship with the package (src/): the training data is defined by them (the generator never
// produces their questions), so an installed `toolgen demo` needs them to check the committed model's fingerprint.
export const HANDWRITTEN_SET = fileURLToPath(
  new URL("../../src/demo/held-out/handwritten.json", import.meta.url),
);
/** Hand-written off-topic questions for choosing among models (dev): never trained on either. */
export const HANDWRITTEN_DEV_SET = fileURLToPath(
  new URL("../../src/demo/held-out/handwritten-dev.json", import.meta.url),
);

/**
 * The demo model: a little wider than the first demo model (64) so it can tell apart the many phrasings of the
 * 67 tools, still small enough that the three stages fit in about half an hour on two cores. The context
 * (2048 positions; RoPE has no learned positions, so this costs no weights) holds the agent's whole prompt, so
 * `toolgen chat --agent toolgen --model builtin:models/demo` runs; the demo itself cuts user and tool contents
 * to 40 tokens as the training did (the model learns the agent's turns, not the long system prompt). Four heads
 * of 20 rather than two of 40 (same weights, about the same compute): copying arguments takes several
 * attention patterns at once, and on 397 generated dev questions four heads wrote 29.7 % correct answers against
 * 23.9 % with two (docs/demo-model.md lists every setting tried).
 */
export const DEMO_CONFIG: Partial<LlamaConfig> = {
  hiddenSize: 80,
  intermediateSize: 224,
  numLayers: 2,
  numHeads: 4,
  maxPositions: 2048,
};
export const DEMO_SCHEDULE: NonNullable<ToolGenTrainOptions["schedule"]> = {
  tokenizerVocab: 1024,
  splitDigits: true,
  batchSize: 8,
  maxContentTokens: 40,
  stages: {
    // user losses and weight averaging named off: not measured for the demo model (the tiny preset's were chosen
    // on MetaTool)
    memorization: { epochs: 20, lr: 3e-3, userLoss: false },
    retrieval: { epochs: 6, lr: 3e-3, tokenDropout: 0, userLoss: false, averageLast: 0 },
    agent: { epochs: 12, lr: 3e-3 },
  },
};
export const DEMO_SEED = 1;
/**
 * The paper's stage order. The agent stage comes last and is what the demo runs on: it overwrites much of what
 * the retrieval stage taught in the short retrieval prompt (measured: 9 % hit@1 there afterwards), so the demo
 * decodes actions in the agent's own context. (Putting the retrieval stage last instead made the model forget
 * to finish after a tool's result.)
 */
export const DEMO_STAGES: Stage[] = ["memorization", "retrieval", "agent"];
/**
 * Generated questions per tool (training) and held out (evaluation). More phrasings and values seen once beat
 * the same ones seen twice (80 for 6 agent epochs beat 40 for 12 at the same compute), 9 agent epochs then beat
 * 6, 12 beat 9, and 100 per tool beat 80 at 12 epochs (docs/demo-model.md).
 */
export const TRAIN_PER_TOOL = 100;
/** Off-topic training questions (declined); about 8 % of the trajectories. */
export const OFF_TOPIC_TRAIN = 480;
/**
 * Every training question is also an agent trajectory; this many per tool run to the end (<<Finish>> and the
 * final answer), the others stop after the tool's result. All of them: with 8 per tool the model never learnt
 * to copy the tool's result into the Finish answer (it copied a number of the question instead; 4.5 % correct
 * answers on the generated held-out set), so every trajectory carries a copying example with its own values.
 */
export const FULL_TRAJECTORIES_PER_TOOL = TRAIN_PER_TOOL;
export const HELD_OUT_PER_TOOL = 6;

export interface DemoData {
  tools: Tool[];
  catalog: CatalogEntry[];
  train: DemoSample[];
  heldOut: DemoSample[];
  queries: LabelledQuery[];
  trajectories: Trajectory[];
}

/** Runs `fn` with the file tools pointed at a fresh sandbox folder, removed afterwards. */
export async function withSandbox<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "toolgen-demo-sandbox-"));
  const before = process.env.TOOLGEN_DEMO_SANDBOX;
  process.env.TOOLGEN_DEMO_SANDBOX = join(dir, "files");
  try {
    return await fn(dir);
  } finally {
    if (before === undefined) delete process.env.TOOLGEN_DEMO_SANDBOX;
    else process.env.TOOLGEN_DEMO_SANDBOX = before;
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The hand-written held-out set (src/demo/held-out/handwritten.json): the generator must never produce its questions. */
export function handwrittenSet(): HandwrittenSet {
  return JSON.parse(readFileSync(HANDWRITTEN_SET, "utf8")) as HandwrittenSet;
}

/** The hand-written dev questions (src/demo/held-out/handwritten-dev.json): off-topic ones, for choosing models. */
export function handwrittenDevSet(): { offTopic: string[] } {
  return JSON.parse(readFileSync(HANDWRITTEN_DEV_SET, "utf8")) as { offTopic: string[] };
}

/** Every hand-written set, test and dev (src/demo/held-out/*.json): the generator never produces their questions. */
export const HELD_OUT_FILES = [
  "handwritten.json",
  "handwritten-2.json",
  "handwritten-3.json",
  "handwritten-dev.json",
  "handwritten-dev-off-topic-2.json",
  "handwritten-dev-questions.json",
];

/** The questions, on-topic and off-topic, of every hand-written set. */
export function heldOutQuestions(): string[] {
  return HELD_OUT_FILES.flatMap((name) => {
    const set = JSON.parse(
      readFileSync(fileURLToPath(new URL(`../../src/demo/held-out/${name}`, import.meta.url)), "utf8"),
    ) as Partial<HandwrittenSet>;
    return [...(set.questions ?? []).map((q) => q.question), ...(set.offTopic ?? [])];
  });
}

const demoDataCache = new Map<string, Promise<DemoData>>();

/** The generated training data (deterministic for the seed): questions, labels and real-run trajectories. */
export function demoData(
  seed = DEMO_SEED,
  size: { perTool: number; offTopic: number } = { perTool: TRAIN_PER_TOOL, offTopic: OFF_TOPIC_TRAIN },
): Promise<DemoData> {
  // Deterministic and a few seconds to make: made once per process (the fingerprint check and the word prior
  // both read it). Callers must not change it.
  const key = `${seed}/${size.perTool}/${size.offTopic}`;
  let found = demoDataCache.get(key);
  if (!found) {
    found = makeDemoData(seed, size);
    demoDataCache.set(key, found);
    found.catch(() => demoDataCache.delete(key));
  }
  return found;
}

async function makeDemoData(seed: number, size: { perTool: number; offTopic: number }): Promise<DemoData> {
  const tools = await demoTools();
  const catalog = await demoCatalog();
  const never = new Set(
    [...heldOutQuestions(), ...SHOWN_QUESTIONS.map((q) => q.question)].map(normalizeQuestion),
  );
  const onTopic = generateSamples(tools, { perTool: size.perTool, seed, exclude: never });
  const offTopic = offTopicSamples(size.offTopic, seed + 500, never);
  // Interleaved so that every stretch of the agent stage's batches mixes declines with tool calls.
  const train = interleave(onTopic, offTopic);
  const heldOut = generateSamples(tools, {
    perTool: HELD_OUT_PER_TOOL,
    seed: seed + 1000,
    exclude: new Set([...never, ...train.map((s) => normalizeQuestion(s.query))]),
  });
  const seen = new Map<string, number>();
  const full = (s: DemoSample) => {
    const tool = s.tool ?? "";
    seen.set(tool, (seen.get(tool) ?? 0) + 1);
    return seen.get(tool)! <= FULL_TRAJECTORIES_PER_TOOL;
  };
  const { trajectories } = await withSandbox(() => trajectoriesFor(train, tools, full));
  return { tools, catalog, train, heldOut, queries: labelledQueries(train), trajectories };
}

function interleave<T>(a: readonly T[], b: readonly T[]): T[] {
  const out: T[] = [];
  const every = Math.max(1, Math.floor(a.length / Math.max(1, b.length)));
  let j = 0;
  for (const [i, x] of a.entries()) {
    out.push(x);
    if ((i + 1) % every === 0 && j < b.length) out.push(b[j++]!);
  }
  return [...out, ...b.slice(j)];
}

/**
 * Trains the demo model into `dir` unless it is already there (the pipeline resumes an interrupted run and skips
 * finished stages). A folder from another version of the catalog or generator is replaced.
 */
export async function ensureDemoModel(
  o: {
    dir?: string;
    progress?: boolean;
    log?: (line: string) => void;
    data?: DemoData;
    /** false: a folder of another version is an error, not replaced (the committed model is never deleted). */
    replaceStale?: boolean;
  } = {},
): Promise<{ dir: string; manifest: ToolGenManifest; trained: boolean }> {
  const dir = o.dir ?? DEMO_MODEL_DIR;
  const data = o.data ?? (await demoData());
  const options: ToolGenTrainOptions = {
    catalog: data.catalog,
    queries: data.queries,
    trajectories: data.trajectories,
    out: dir,
    stages: DEMO_STAGES,
    preset: "tiny",
    seed: DEMO_SEED,
    schedule: DEMO_SCHEDULE,
    config: DEMO_CONFIG,
    progress: o.progress ?? true,
    ...(o.log ? { log: o.log } : {}),
  };
  const before = safeManifest(dir);
  const complete = (m: ToolGenManifest | undefined) => m !== undefined && m.done.length === m.stages.length;
  try {
    const manifest = await trainToolGen(options);
    return { dir, manifest, trained: !complete(before) };
  } catch (error) {
    if (!/different training run/.test((error as Error).message) || o.replaceStale === false) throw error;
    o.log?.(`${dir} holds a model of another demo version; training a new one`);
    rmSync(dir, { recursive: true, force: true });
    return { dir, manifest: await trainToolGen(options), trained: true };
  }
}

/**
 * The model the demo runs on: the committed one when it was trained on exactly the current catalog, questions
 * and settings (checked by the pipeline's fingerprint), else one trained into `fallbackDir` (cached).
 */
export async function prepareDemoModel(
  o: {
    fallbackDir?: string;
    progress?: boolean;
    log?: (line: string) => void;
    /** false: throw at once instead of training when the committed model does not fit (tests use this). */
    trainIfStale?: boolean;
  } = {},
): Promise<{ dir: string; manifest: ToolGenManifest; trained: boolean; committed: boolean }> {
  const data = await demoData();
  const log = o.log ?? (() => {});
  if (existsSync(join(COMMITTED_DEMO_MODEL, "toolgen.json"))) {
    try {
      const ready = await ensureDemoModel({
        dir: COMMITTED_DEMO_MODEL,
        data,
        progress: false,
        log: () => {},
        replaceStale: false,
      });
      if (!ready.trained) return { ...ready, committed: true };
    } catch (error) {
      if (!/different training run/.test((error as Error).message)) throw error;
    }
    if (o.trainIfStale === false) {
      throw new Error(
        "the committed demo model does not match this catalog, generator or schedule; run npm run demo:model",
      );
    }
    log(
      `the committed demo model does not match this catalog or generator; training one in ${o.fallbackDir ?? DEMO_MODEL_DIR}`,
    );
  }
  const built = await ensureDemoModel({
    dir: o.fallbackDir ?? DEMO_MODEL_DIR,
    data,
    progress: o.progress,
    log,
  });
  return { ...built, committed: false };
}

/** Rebuilds the committed model from scratch (a temporary folder, then one rename over the old one). */
export async function rebuildCommittedDemoModel(
  log: (line: string) => void = () => {},
): Promise<ToolGenManifest> {
  // Two kernel threads: the engine is deterministic for a given thread count, and the default count is the
  // machine's cores, so only a fixed count rebuilds the committed weights bit for bit on any machine; two
  // keep the rebuild within 30 minutes on a 2-core machine. (Read when the kernels are first made, which
  // `toolgen demo --rebuild` has not done yet.)
  process.env.TOOLGEN_KERNEL_THREADS = "2";
  // the committed weights' kernels: WebAssembly, whose bytes are the same on every machine
  pinWasmKernels("the committed demo model");
  const tmp = join(dirname(COMMITTED_DEMO_MODEL), `.demo-rebuild-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  const { manifest } = await ensureDemoModel({ dir: tmp, log });
  rmSync(join(tmp, "data"), { recursive: true, force: true }); // the training data is regenerated on demand
  rmSync(COMMITTED_DEMO_MODEL, { recursive: true, force: true });
  renameSync(tmp, COMMITTED_DEMO_MODEL);
  return manifest;
}

function safeManifest(dir: string): ToolGenManifest | undefined {
  try {
    return readManifest(dir);
  } catch {
    return undefined;
  }
}

/**
 * The trained folder as the ChatModel the ToolGen agent talks to, plus its token model and index.
 * `constrainArguments`: unconstrained arguments turns become a choice among candidates built from the question
 * (arguments.ts; `toolgen demo --candidates`); off by default, the agent asks for the JSON Schema instead.
 */
export function openDemoModel(
  dir = DEMO_MODEL_DIR,
  constrainArguments = false,
  beams: { schemaBeams?: number; schemaBeamsPerToken?: boolean } = {},
) {
  const loaded = loadToolGenModel(dir);
  const tokens = new BuiltinTokenModel(loaded.model, loaded.tokenizer, `builtin:${dir}`);
  const chat = new ToolGenChatModel(tokens, {
    maxContentTokens: DEMO_SCHEDULE.maxContentTokens!,
    maxToolContentTokens: 128,
    constrainArguments,
    ...beams,
  });
  return { chat, tokens, index: loaded.index, manifest: loaded.manifest };
}
