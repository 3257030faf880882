import type { Command } from "commander";
import { trainOnText } from "../nn/train/text.ts";
import { SCHEDULES } from "../train/schedule.ts";
import { CommandError, runAction } from "./run-action.ts";
import { runToolGenTraining, type ToolGenTrainCliOptions } from "./train-toolgen.ts";
import { runAddTools, type AddToolsCliOptions } from "./train-add-tools.ts";
import { ToolgenError } from "../errors.ts";
import { integerOption, positiveNumberOption } from "./number-options.ts";
import { applyKernelOptions, type KernelCliOptions } from "./kernel-options.ts";

interface TrainCliOptions {
  text?: string;
  out: string;
  preset: string;
  steps?: string;
  seed: string;
  resume?: boolean;
  vocabSize?: string;
  batchSize?: string;
  gradAccum: string;
  seqLen?: string;
  lr?: string;
  saveEvery: string;
  progress: boolean;
  json?: boolean;
}

/** What `--text` training uses where an option is not given (ToolGen's come from its preset's schedule). */
const TEXT_DEFAULTS = { steps: "300", vocabSize: "1024", batchSize: "8", lr: "3e-3" };
const vocab = (preset: "tiny" | "small"): string => SCHEDULES[preset].tokenizerVocab.toLocaleString("en-US");

/**
 * `toolgen train`: trains a built-in model. One branch per kind of data: `--text FILE` (a language model on
 * plain text). ToolGen's `--catalog/--queries` stages add their own options and branch in `action` below.
 */
export function register(program: Command): void {
  program
    .command("train")
    .description(
      "train a built-in Llama-style model and write a checkpoint folder (config.json, model.safetensors, tokenizer.json)",
    )
    .option("--text <file>", "train a language model on a plain text file")
    .option("--catalog <file>", "ToolGen: train tool tokens for this catalog (tools.json, apis.json, …)")
    .option("--queries <files...>", "ToolGen: labelled queries for the retrieval stage (any importer format)")
    .option("--trajectories <file>", "ToolGen: agent trajectories (JSONL) for the agent stage")
    .option("--index <kind>", "ToolGen ids: atomic | semantic | numeric | hierarchical", "atomic")
    .option("--stages <list>", "ToolGen stages in order (default memorization,retrieval[,agent])")
    .option("--epochs <list>", "ToolGen epochs per stage, e.g. memorization=8,retrieval=3")
    .option(
      "--token-dropout <list>",
      "ToolGen token dropout per stage: each user token is removed with this probability, e.g. retrieval=0.25",
    )
    .option(
      "--average-last <list>",
      "ToolGen: keep the mean of the weights over this fraction of a stage's last updates, e.g. retrieval=0.25",
    )
    .option(
      "--user-loss <list>",
      "ToolGen: also train on predicting the user's words, per stage (1 or 0), e.g. memorization=1,retrieval=0",
    )
    .option(
      "--user-loss-fraction <list>",
      "ToolGen: with the user loss, the fraction of the user's words predicted in each batch (a fresh draw per batch; the LM head's cost falls with it), e.g. retrieval=0.25",
    )
    .option(
      "--split-digits",
      "ToolGen: keep every digit a token of its own (no BPE merge involves a digit), for models that copy numbers",
    )
    .option(
      "--dev-fraction <x>",
      "ToolGen: share of the queries held out of training to choose the hybrid's gate on (default 0.05; 0: none)",
    )
    .option(
      "--dev-tools-fraction <x>",
      "ToolGen: share of the queried tools whose queries are all held out as dev queries (default auto: 0.05 " +
        "when ≥ 10 % of the catalog's tools have no query, else 0)",
    )
    .option("--gate-at <k>", "ToolGen: the NDCG cutoff the hybrid's gate is chosen on (default 5)")
    .option("--add-tools <file>", "ToolGen: add these tools (a catalog file) to the trained model in --from")
    .option("--from <dir>", "--add-tools: the finished ToolGen model folder to add to (read only)")
    .option(
      "--method <m>",
      "--add-tools: rows (fit the new tokens' output rows on the frozen model; default) | all (train every weight)",
    )
    .option(
      "--replay <n>",
      "--add-tools: old training samples replayed per new sample (default: rows 4, all 1)",
    )
    .option(
      "--rows-first",
      "--add-tools --method all: fit the new rows on the frozen model before the stages",
    )
    .option(
      "--anchor <lambda>",
      "--add-tools --method all: pull every weight toward the --from model's (L2-SP strength; default 0)",
    )
    .option(
      "--train-layers <n>",
      "--add-tools --method all: train only the last N layers, the final norm and lm_head (default: all)",
    )
    .option(
      "--distill <weight>",
      "--add-tools --method all: train replayed old samples toward the --from model's own tool distribution " +
        "with this share in [0, 1] (the rest: their labels; default: labels alone)",
    )
    .option(
      "--distill-temperature <t>",
      "--add-tools --distill: softmax temperature of the soft targets (default 1)",
    )
    .option(
      "--distill-teacher <model>",
      "--add-tools --distill: base (the --from model over its own tools; default) or rows (the model after " +
        "--rows-first's fit, over the old and new tools)",
    )
    .option(
      "--distill-scope <scope>",
      "--add-tools --distill: the tokens the soft term's softmax is over: all (the vocabulary; default) or " +
        "old (the old tool tokens alone, so the teacher does not push the new tools down)",
    )
    .option(
      "--hard-replay <share>",
      "--add-tools --method all: the share in [0, 1] of the replayed old samples taken as those the new tools " +
        "take the most probability from once their rows are set (default: a random draw)",
    )
    .option(
      "--spread-replay",
      "--add-tools --method all: each epoch of a stage replays other old samples instead of the same draw again " +
        "(same steps and mix)",
    )
    .option(
      "--user-loss-samples <n>",
      "--add-tools --method all: the user loss (the question's words) as a sampled softmax over n candidates, " +
        "a cheaper step (default: the whole vocabulary)",
    )
    .option(
      "--replay-without-user-loss",
      "--add-tools --method all: the replayed old samples train their tool token alone, without the user loss " +
        "(a cheaper step; the new samples keep it)",
    )
    .option(
      "--new-tool-offset <x>",
      "--add-tools: logit offset for the added tools' tokens, applied when the model ranks tools " +
        "(toolgen-offsets.json; negative keeps more of the old tools' ranks; default 0), or auto: chosen on " +
        "queries held out of the addition (a fifth of those naming the new tools, and old-tool queries)",
    )
    .requiredOption("--out <dir>", "checkpoint folder to write (and resume from with --resume)")
    .option(
      "--preset <name>",
      "training recipe: tiny | small, the model's shape and its schedule (ToolGen: BPE vocabulary " +
        `${vocab("tiny")} | ${vocab("small")}, epochs and learning rate per stage, batch ${SCHEDULES.tiny.batchSize})`,
      "tiny",
    )
    .option(
      "--steps <n>",
      `--text: optimizer steps in total (default ${TEXT_DEFAULTS.steps}; ToolGen stages take --epochs)`,
    )
    .option("--seed <n>", "seed for initialisation and data order", "0")
    .option("--resume", "continue from the training state in --out")
    .option(
      "--vocab-size <n>",
      `tokenizer vocabulary of a new run (default: --text ${TEXT_DEFAULTS.vocabSize}; ToolGen the preset's, ${vocab("tiny")} for tiny)`,
    )
    .option(
      "--batch-size <n>",
      `sequences per step (default: --text ${TEXT_DEFAULTS.batchSize}; ToolGen the preset's, ${SCHEDULES.tiny.batchSize})`,
    )
    .option("--grad-accum <n>", "--text: micro-batches per step (gradient accumulation)", "1")
    .option("--seq-len <n>", "--text: tokens per sequence (default: the model context)")
    .option(
      "--lr <x>",
      `peak learning rate, cosine schedule with 3 % warm-up (default: --text ${TEXT_DEFAULTS.lr}; ToolGen the preset's per stage)`,
    )
    .option(
      "--save-every <n>",
      "--text: write a resumable checkpoint every N steps (0: only at the end)",
      "100",
    )
    .option(
      "--kernels <name>",
      "matrix-product kernels: auto (default: native when it is built and passes a self-check, else wasm) | " +
        "wasm (the same bytes on every machine) | native (the C++ AVX2/AVX-512 gemm, npm run build:native: about " +
        "2x faster, the same bytes on every x86-64 CPU with AVX2+FMA) | reference",
    )
    .option(
      "--threads <n>",
      "threads the kernels use (default: the cores, at most 8; the bytes do not depend on it)",
    )
    .option("--no-progress", "no progress bar on stderr")
    .option("--json", "print one JSON object with the result")
    .action(
      runAction(async (opts: AnyTrainOptions, command: Command) => {
        if (opts.addTools) refuseOptionsOf(command, ADD_TOOLS_REFUSED, "--add-tools");
        else {
          if (opts.catalog && opts.text)
            throw new ToolgenError("invalid_option", "give either --text FILE or --catalog FILE, not both");
          if (!opts.catalog && !opts.text)
            throw new ToolgenError("invalid_option", "give the training data: --text FILE or --catalog FILE");
          refuseOptionsOf(
            command,
            [...(opts.catalog ? TEXT_ONLY : TOOLGEN_ONLY), ...ADD_TOOLS_ONLY],
            opts.catalog ? "--catalog" : "--text",
          );
        }
        // after the options are checked: a refused command prints its error alone, not the kernels' line too
        await applyKernelOptions(opts);
        // Ctrl-C stops after the current step and still writes a resumable checkpoint
        const stop = new AbortController();
        const onSigint = () => stop.abort();
        process.once("SIGINT", onSigint);
        try {
          if (opts.addTools) return await runAddTools(opts as AddToolsCliOptions, command, stop.signal);
          if (opts.catalog)
            return await runToolGenTraining(opts as ToolGenTrainCliOptions, command, stop.signal);
          await runTextTraining(opts as TrainCliOptions & { text: string }, stop.signal);
        } finally {
          process.off("SIGINT", onSigint);
        }
      }),
    );
}

type AnyTrainOptions = TrainCliOptions &
  KernelCliOptions &
  Partial<ToolGenTrainCliOptions & AddToolsCliOptions>;

/** Options only one kind of training reads: given to the other kind they would be ignored without a word. */
const TEXT_ONLY = ["steps", "gradAccum", "seqLen", "saveEvery"];
const TOOLGEN_ONLY = [
  "queries",
  "trajectories",
  "index",
  "stages",
  "epochs",
  "tokenDropout",
  "averageLast",
  "userLoss",
  "userLossFraction",
  "splitDigits",
  "devFraction",
  "devToolsFraction",
  "gateAt",
];

/** Options of --add-tools alone, and the options an addition does not read (it keeps the model's own). */
const ADD_TOOLS_ONLY = [
  "from",
  "replay",
  "method",
  "rowsFirst",
  "anchor",
  "trainLayers",
  "distill",
  "distillTemperature",
  "distillTeacher",
  "distillScope",
  "hardReplay",
  "spreadReplay",
  "userLossSamples",
  "replayWithoutUserLoss",
  "newToolOffset",
];
const ADD_TOOLS_REFUSED = [
  ...TEXT_ONLY,
  ...TOOLGEN_ONLY.filter((name) => name !== "queries" && name !== "epochs"),
  "text",
  "catalog",
  "preset",
  "resume",
  "vocabSize",
  "batchSize",
];

function refuseOptionsOf(command: Command, names: readonly string[], kind: string): void {
  for (const name of names) {
    const source = command.getOptionValueSource(name);
    if (source === undefined || source === "default") continue;
    const flag = `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    const hint = kind === "--catalog" && name === "steps" ? " (ToolGen stages take --epochs)" : "";
    throw new ToolgenError("invalid_option", `${flag} does not apply to ${kind} training${hint}`);
  }
}

async function runTextTraining(opts: TrainCliOptions & { text: string }, signal: AbortSignal): Promise<void> {
  const result = await trainOnText({
    text: opts.text,
    out: opts.out,
    preset: opts.preset,
    steps: integerOption(opts.steps ?? TEXT_DEFAULTS.steps, "--steps"),
    seed: integerOption(opts.seed, "--seed", 0),
    resume: opts.resume === true,
    vocabSize: integerOption(opts.vocabSize ?? TEXT_DEFAULTS.vocabSize, "--vocab-size", 256),
    batchSize: integerOption(opts.batchSize ?? TEXT_DEFAULTS.batchSize, "--batch-size"),
    gradientAccumulation: integerOption(opts.gradAccum, "--grad-accum"),
    seqLen: opts.seqLen === undefined ? undefined : integerOption(opts.seqLen, "--seq-len", 2),
    lr: positiveNumberOption(opts.lr ?? TEXT_DEFAULTS.lr, "--lr"),
    saveEvery: integerOption(opts.saveEvery, "--save-every", 0),
    progress: opts.progress,
    signal,
  });
  if (result.interrupted) {
    throw new CommandError(
      `interrupted at step ${result.steps}; the checkpoint in ${result.out} continues with --resume`,
      {
        exitCode: 130,
        json: { ...result },
      },
    );
  }
  if (opts.json) process.stdout.write(JSON.stringify(result) + "\n");
  else {
    process.stdout.write(
      `trained ${result.preset} (${result.parameters} parameters, vocabulary ${result.vocabSize}) to step ${result.steps}` +
        `: loss ${result.finalLoss.toFixed(4)}, ${Math.round(result.tokensPerSecond)} tokens/s; saved to ${result.out}\n`,
    );
  }
}
