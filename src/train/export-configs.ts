import type { Stage } from "./datasets.ts";
import { stageFile, type ExportFormat } from "./export-formats.ts";
import { toYaml, type YamlValue } from "./export-yaml.ts";
import { ToolgenError } from "../errors.ts";

/**
 * Ready training configs that reproduce the paper's recipe (ToolGen §4.1, §5.1): full fine-tune of the
 * virtualized model, DeepSpeed ZeRO-3, peak lr 4e-5 with a cosine schedule and 3 % warm-up, context 6144,
 * total batch 512, bf16; 8 epochs of memorization, then 1 of retrieval, then agent tuning, each stage starting
 * from the previous stage's output. The agent stage's epoch count is not given in the paper (default 1).
 */
export interface PaperRecipe {
  lr: number;
  warmupRatio: number;
  cutoff: number;
  totalBatch: number;
  epochs: Record<Stage, number>;
}

export const PAPER_RECIPE: PaperRecipe = {
  lr: 4e-5,
  warmupRatio: 0.03,
  cutoff: 6144,
  totalBatch: 512,
  epochs: { memorization: 8, retrieval: 1, agent: 1 },
};

export interface ConfigOptions {
  format: ExportFormat;
  /** The virtualized model folder the first stage starts from (as the training machine sees it). */
  model: string;
  stages: Stage[];
  gpus: number;
  perDeviceBatch: number;
  /** Chat template name in the engine (LLaMA-Factory `template`, axolotl `chat_template`). */
  template: string;
  recipe: PaperRecipe;
}

export const DEEPSPEED_FILE = "ds_z3_config.json";

/** DeepSpeed ZeRO-3 for the Hugging Face Trainer integration ("auto" values are filled from the trainer). */
export function deepSpeedZero3(): Record<string, unknown> {
  return {
    train_batch_size: "auto",
    train_micro_batch_size_per_gpu: "auto",
    gradient_accumulation_steps: "auto",
    gradient_clipping: "auto",
    zero_allow_untested_optimizer: true,
    bf16: { enabled: "auto" },
    fp16: {
      enabled: "auto",
      loss_scale: 0,
      loss_scale_window: 1000,
      initial_scale_power: 16,
      hysteresis: 2,
      min_loss_scale: 1,
    },
    zero_optimization: {
      stage: 3,
      overlap_comm: true,
      contiguous_gradients: true,
      sub_group_size: 1e9,
      reduce_bucket_size: "auto",
      stage3_prefetch_bucket_size: "auto",
      stage3_param_persistence_threshold: "auto",
      stage3_max_live_parameters: 1e9,
      stage3_max_reuse_distance: 1e9,
      stage3_gather_16bit_weights_on_model_save: true,
    },
  };
}

export function gradientAccumulation(o: Pick<ConfigOptions, "gpus" | "perDeviceBatch" | "recipe">): number {
  const per = o.gpus * o.perDeviceBatch;
  if (o.recipe.totalBatch % per !== 0) {
    throw new ToolgenError(
      "invalid_option",
      `the total batch ${o.recipe.totalBatch} is not a multiple of gpus × per-device batch (${o.gpus} × ${o.perDeviceBatch})`,
    );
  }
  return o.recipe.totalBatch / per;
}

export function stageConfigFile(stage: Stage, i: number): string {
  return `stage${i + 1}_${stage}.yaml`;
}

const outputDir = (stage: Stage, i: number) => `saves/stage${i + 1}_${stage}`;

function stageModel(o: ConfigOptions, i: number): string {
  return i === 0 ? o.model : outputDir(o.stages[i - 1]!, i - 1);
}

function llamaFactory(o: ConfigOptions, stage: Stage, i: number): { [key: string]: YamlValue } {
  return {
    model_name_or_path: stageModel(o, i),
    stage: "sft",
    do_train: true,
    finetuning_type: "full",
    deepspeed: DEEPSPEED_FILE,
    dataset: `toolgen_${stage}`,
    dataset_dir: ".",
    template: o.template,
    cutoff_len: o.recipe.cutoff,
    overwrite_cache: true,
    preprocessing_num_workers: 16,
    output_dir: outputDir(stage, i),
    logging_steps: 10,
    save_strategy: "epoch",
    plot_loss: true,
    overwrite_output_dir: true,
    per_device_train_batch_size: o.perDeviceBatch,
    gradient_accumulation_steps: gradientAccumulation(o),
    learning_rate: o.recipe.lr,
    num_train_epochs: o.recipe.epochs[stage],
    lr_scheduler_type: "cosine",
    warmup_ratio: o.recipe.warmupRatio,
    bf16: true,
    flash_attn: "fa2",
    gradient_checkpointing: true,
    ddp_timeout: 180000000,
  };
}

function axolotl(o: ConfigOptions, stage: Stage, i: number): { [key: string]: YamlValue } {
  return {
    base_model: stageModel(o, i),
    chat_template: o.template,
    datasets: [
      {
        path: stageFile("axolotl", stage),
        ds_type: "json",
        type: "chat_template",
        field_messages: "messages",
        message_property_mappings: { role: "role", content: "content" },
        roles_to_train: ["assistant"],
        train_on_eos: "turn",
      },
    ],
    dataset_prepared_path: `prepared/${stage}`,
    output_dir: outputDir(stage, i),
    sequence_len: o.recipe.cutoff,
    sample_packing: false,
    micro_batch_size: o.perDeviceBatch,
    gradient_accumulation_steps: gradientAccumulation(o),
    num_epochs: o.recipe.epochs[stage],
    optimizer: "adamw_torch",
    learning_rate: o.recipe.lr,
    lr_scheduler: "cosine",
    warmup_ratio: o.recipe.warmupRatio,
    bf16: true,
    flash_attention: true,
    gradient_checkpointing: true,
    deepspeed: DEEPSPEED_FILE,
    logging_steps: 10,
    saves_per_epoch: 1,
  };
}

function trl(o: ConfigOptions, stage: Stage, i: number): { [key: string]: YamlValue } {
  return {
    model_name_or_path: stageModel(o, i),
    datasets: [{ path: "json", data_files: stageFile("trl", stage), split: "train" }],
    completion_only_loss: true,
    max_length: o.recipe.cutoff,
    output_dir: outputDir(stage, i),
    per_device_train_batch_size: o.perDeviceBatch,
    gradient_accumulation_steps: gradientAccumulation(o),
    num_train_epochs: o.recipe.epochs[stage],
    learning_rate: o.recipe.lr,
    lr_scheduler_type: "cosine",
    warmup_ratio: o.recipe.warmupRatio,
    bf16: true,
    gradient_checkpointing: true,
    deepspeed: DEEPSPEED_FILE,
    logging_steps: 10,
    save_strategy: "epoch",
  };
}

/** One YAML file per stage, in order. */
export function stageConfigs(o: ConfigOptions): { file: string; text: string }[] {
  const build = { llamafactory: llamaFactory, axolotl, trl }[o.format];
  return o.stages.map((stage, i) => ({
    file: stageConfigFile(stage, i),
    text: toYaml(build(o, stage, i), [
      `ToolGen stage ${i + 1}/${o.stages.length}: ${stage} (${o.format}); written by toolgen export training.`,
      `Paper recipe: full fine-tune, lr ${o.recipe.lr} cosine, warm-up ${o.recipe.warmupRatio}, context ${o.recipe.cutoff}, total batch ${o.recipe.totalBatch} = ${o.gpus} GPUs x ${o.perDeviceBatch} x ${gradientAccumulation(o)}.`,
    ]),
  }));
}

const LAUNCH: Record<ExportFormat, (file: string, gpus: number) => string> = {
  llamafactory: (file) => `FORCE_TORCHRUN=1 llamafactory-cli train ${file}`,
  axolotl: (file, gpus) => `accelerate launch --num_processes ${gpus} -m axolotl.cli.train ${file}`,
  trl: (file, gpus) => `torchrun --nproc_per_node ${gpus} -m trl.scripts.sft --config ${file}`,
};

/** A shell script that runs the stages in order from the export folder. */
export function runScript(o: ConfigOptions): string {
  return [
    "#!/usr/bin/env bash",
    `# ToolGen training with ${o.format} on ${o.gpus} GPUs: run from this folder. Each stage starts from the last one's output.`,
    "set -euo pipefail",
    'cd "$(dirname "$0")"',
    ...o.stages.map((stage, i) => LAUNCH[o.format](stageConfigFile(stage, i), o.gpus)),
    "",
  ].join("\n");
}
