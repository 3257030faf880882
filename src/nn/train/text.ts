import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { presetConfig } from "../config.ts";
import { Llama } from "../llama.ts";
import { initParams } from "../params.ts";
import { Tokenizer } from "../tokenizer/index.ts";
import { gemmFamily, kernels } from "../kernels/index.ts";
import { hasTrainingState, resumeRun, trainWithCheckpoints, type RunResult } from "./run.ts";
import { ToolgenError } from "../../errors.ts";

/** Llama-3's markers: a model trained here can later be used with the plain Llama-3 chat format. */
export const LLAMA3_SPECIAL_TOKENS = [
  "<|begin_of_text|>",
  "<|end_of_text|>",
  "<|start_header_id|>",
  "<|end_header_id|>",
  "<|eot_id|>",
];

export interface TextTrainingOptions {
  text: string; // file path
  out: string;
  preset: string;
  steps: number;
  seed: number;
  resume: boolean;
  vocabSize: number;
  batchSize: number;
  gradientAccumulation?: number;
  seqLen?: number;
  lr: number;
  saveEvery: number;
  progress: boolean;
  /** Stops after the current step; the checkpoint is still written (resume with `resume: true`). */
  signal?: AbortSignal;
}

export interface TextTrainingResult extends RunResult {
  out: string;
  preset: string;
  parameters: number;
  vocabSize: number;
  textTokens: number;
  resumedFromStep: number;
  /** The matrix-product kernels' family that trained it (kernels/index.ts gemmFamily; with the code, its bytes). */
  gemm: string;
}

/**
 * Trains a language model on a plain text file: a byte-level BPE tokenizer learned from the text (unless
 * resuming), a model from the preset, packed windows of the token stream (paragraphs separated by
 * <|end_of_text|>), and a resumable checkpoint folder in `out`.
 */
export async function trainOnText(o: TextTrainingOptions): Promise<TextTrainingResult> {
  if (!existsSync(o.text) || !statSync(o.text).isFile())
    throw new ToolgenError("invalid_input", `--text: ${o.text} is not a file`);
  const text = readFileSync(o.text, "utf8");
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (paragraphs.length === 0) throw new ToolgenError("invalid_input", `--text: ${o.text} holds no text`);
  // a resume must see the same data: the text's hash is recorded with the other settings
  const textSha256 = createHash("sha256").update(text).digest("hex").slice(0, 16);
  const record = { seqLen: o.seqLen ?? "context", textSha256 };
  // --resume promises to continue a run; with nothing to continue, starting afresh would silently spend the whole
  // budget again (and the Hugging Face Trainer refuses too), so say so and write nothing.
  if (o.resume && !hasTrainingState(o.out)) {
    throw new ToolgenError(
      "invalid_option",
      `--resume: ${o.out} holds no training state to continue (model, optimizer and trainer_state.json); ` +
        `drop --resume to start a new run`,
    );
  }
  const resuming = o.resume;
  const run = resuming
    ? resumeRun(o.out, {
        batchSize: o.batchSize,
        gradientAccumulation: o.gradientAccumulation,
        lr: o.lr,
        seed: o.seed,
        ...record,
      })
    : (() => {
        const tokenizer = Tokenizer.train(paragraphs, o.vocabSize, { specialTokens: LLAMA3_SPECIAL_TOKENS });
        const eos = tokenizer.tokenToId("<|end_of_text|>");
        const config = presetConfig(o.preset, tokenizer.vocabSize, {
          bosTokenId: tokenizer.tokenToId("<|begin_of_text|>"),
          eosTokenId: eos,
          padTokenId: eos,
        });
        return { model: new Llama(config, initParams(config, o.seed)), tokenizer, optimizer: undefined };
      })();
  const { model, tokenizer, optimizer } = run;
  const eos = tokenizer.tokenToId("<|end_of_text|>");
  const ids: number[] = [];
  for (const p of paragraphs) {
    for (const id of tokenizer.encode(p, { special: false })) ids.push(id);
    if (eos !== undefined) ids.push(eos);
  }
  if (ids.length < 2)
    throw new ToolgenError(
      "invalid_input",
      `--text: ${o.text} is too short to train on (${ids.length} tokens)`,
    );
  const resumedFromStep = optimizer?.step ?? 0;
  if (resumedFromStep >= o.steps) {
    throw new ToolgenError(
      "invalid_input",
      `checkpoint ${o.out} is already at step ${resumedFromStep}; give --steps above it to continue`,
    );
  }
  const result = await trainWithCheckpoints(
    model,
    tokenizer,
    { kind: "stream", tokens: Int32Array.from(ids), seqLen: o.seqLen ?? model.config.maxPositions },
    {
      out: o.out,
      steps: o.steps,
      batchSize: o.batchSize,
      gradientAccumulation: o.gradientAccumulation,
      lr: o.lr,
      seed: o.seed,
      saveEvery: o.saveEvery,
      progress: o.progress,
      optimizer,
      record,
      signal: o.signal,
    },
  );
  return {
    ...result,
    out: o.out,
    preset: o.preset,
    parameters: model.params.flat.length,
    vocabSize: model.config.vocabSize,
    textTokens: ids.length,
    resumedFromStep,
    gemm: gemmFamily(kernels().name),
  };
}
