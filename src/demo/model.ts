import { existsSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CatalogEntry, LabelledQuery } from "../catalog/catalog.ts";
import { BuiltinTokenModel } from "../models/builtin.ts";
import type { LlamaConfig } from "../nn/config.ts";
import type { Tool } from "../tools/types.ts";
import type { Stage, Trajectory } from "../train/datasets.ts";
import { loadToolGenModel, readManifest, type ToolGenManifest } from "../train/model-folder.ts";
import { trainToolGen, type ToolGenTrainOptions } from "../train/pipeline.ts";
import { demoCatalog, demoTools } from "./catalog.ts";
import { ToolGenChatModel } from "./chat-model.ts";
import { generateSamples, labelledQueries, trajectoriesFor, type DemoSample } from "./generator.ts";
import { TAUGHT_QUESTIONS } from "./questions.ts";

/** Where `toolgen demo` trains a model when the committed one does not fit the current catalog (gitignored). */
export const DEMO_MODEL_DIR = join(".cache", "demo-model");
/**
 * The committed demo model (about 1 MB): `npm run demo:model` (= `toolgen demo --rebuild`) rebuilds it; the
 * training is deterministic, so the weights, tokenizer and index come out bit for bit the same.
 */
export const COMMITTED_DEMO_MODEL = fileURLToPath(new URL("../../models/demo", import.meta.url));

/**
 * The demo model: smaller than the tiny preset so the three stages fit in about two minutes on two busy cores.
 * User and tool contents are cut to 28 tokens (the model learns the agent's turns, not the long system prompt).
 */
export const DEMO_CONFIG: Partial<LlamaConfig> = {
  hiddenSize: 64,
  intermediateSize: 176,
  numLayers: 2,
  numHeads: 2,
  maxPositions: 448,
};
export const DEMO_SCHEDULE: NonNullable<ToolGenTrainOptions["schedule"]> = {
  tokenizerVocab: 1024,
  batchSize: 8,
  maxContentTokens: 28,
  stages: {
    memorization: { epochs: 20, lr: 3e-3 },
    retrieval: { epochs: 15, lr: 3e-3, tokenDropout: 0 },
    agent: { epochs: 10, lr: 3e-3 },
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
/** Generated questions per tool (training) and held out (evaluation). */
export const TRAIN_PER_TOOL = 15;
/**
 * Every training question is also an agent trajectory; this many per tool run to the end (<<Finish>> and the
 * final answer), the others stop after the tool's result, which keeps the costly agent stage short.
 */
export const FULL_TRAJECTORIES_PER_TOOL = 3;
export const HELD_OUT_PER_TOOL = 2;

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

/** The generated training data (deterministic for the seed): questions, labels and real-run trajectories. */
export async function demoData(seed = DEMO_SEED): Promise<DemoData> {
  const tools = await demoTools();
  const catalog = await demoCatalog();
  const demo = new Set(TAUGHT_QUESTIONS.map((q) => q.question));
  // The hand-written questions are taught too (see questions.ts); the held-out ones measure unseen questions.
  const train = [
    ...TAUGHT_QUESTIONS.map((q) => ({ query: q.question, tool: q.tool, arguments: q.arguments })),
    ...generateSamples(tools, { perTool: TRAIN_PER_TOOL, seed, exclude: demo }),
  ];
  const heldOut = generateSamples(tools, {
    perTool: HELD_OUT_PER_TOOL,
    seed: seed + 1000,
    exclude: new Set([...demo, ...train.map((s) => s.query)]),
  });
  const seen = new Map<string, number>();
  const full = (s: DemoSample) => {
    seen.set(s.tool, (seen.get(s.tool) ?? 0) + 1);
    return seen.get(s.tool)! <= FULL_TRAJECTORIES_PER_TOOL;
  };
  const { trajectories } = await withSandbox(() => trajectoriesFor(train, tools, full));
  return { tools, catalog, train, heldOut, queries: labelledQueries(train), trajectories };
}

/**
 * Trains the demo model into `dir` unless it is already there (the pipeline resumes an interrupted run and skips
 * finished stages). A folder from another version of the catalog or generator is replaced.
 */
export async function ensureDemoModel(
  o: { dir?: string; progress?: boolean; log?: (line: string) => void; data?: DemoData } = {},
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
    if (!/different training run/.test((error as Error).message)) throw error;
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
  o: { fallbackDir?: string; progress?: boolean; log?: (line: string) => void } = {},
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
      });
      if (!ready.trained) return { ...ready, committed: true };
    } catch (error) {
      if (!/different training run/.test((error as Error).message)) throw error;
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

/** The trained folder as the ChatModel the ToolGen agent talks to, plus its token model and index. */
export function openDemoModel(dir = DEMO_MODEL_DIR, constrainArguments = true) {
  const loaded = loadToolGenModel(dir);
  const tokens = new BuiltinTokenModel(loaded.model, loaded.tokenizer, `builtin:${dir}`);
  const chat = new ToolGenChatModel(tokens, {
    maxContentTokens: DEMO_SCHEDULE.maxContentTokens!,
    constrainArguments,
  });
  return { chat, tokens, index: loaded.index, manifest: loaded.manifest };
}
