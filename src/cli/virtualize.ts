import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { CATALOG_FORMATS, loadCatalog, type CatalogFormat } from "../catalog/load.ts";
import { TEMPLATE_INFO, TEMPLATE_NAMES, isTemplateName } from "../chat/templates/registry.ts";
import { progressBar } from "../eval/progress.ts";
import { virtualizeHfModel } from "../train/virtualize-hf.ts";
import { runAction } from "./run-action.ts";
import { ToolgenError } from "../errors.ts";

interface VirtualizeCliOptions {
  base: string;
  catalog: string;
  format?: string;
  out: string;
  chatTemplate?: string;
  progress: boolean;
  json?: boolean;
}

/** A shipped template by name (llama3, …) or a .jinja file. */
function chatTemplateSource(value: string): string {
  if (isTemplateName(value)) {
    return readFileSync(
      fileURLToPath(new URL(`../chat/templates/${TEMPLATE_INFO[value].file}`, import.meta.url)),
      "utf8",
    );
  }
  if (!existsSync(value))
    throw new ToolgenError(
      "invalid_option",
      `--chat-template: "${value}" is neither a shipped template (${TEMPLATE_NAMES.join(", ")}) nor a file`,
    );
  return readFileSync(value, "utf8");
}

/** `toolgen virtualize --base HF_MODEL_DIR --catalog F --out DIR`: tool tokens added to a Hugging Face model. */
export function register(program: Command): void {
  program
    .command("virtualize")
    .description(
      "add one token per catalog tool (and <<Finish>>) to a Hugging Face model folder, new embedding and lm_head rows " +
        "the mean of each name's token rows (safetensors shards streamed: bf16, f16, f32)",
    )
    .requiredOption("--base <dir>", "Hugging Face model folder (config.json, tokenizer.json, *.safetensors)")
    .requiredOption("--catalog <file>", "catalog file or folder (format recognised from the file)")
    .option("--format <name>", `force the catalog format (${CATALOG_FORMATS.join(", ")})`)
    .requiredOption("--out <dir>", "the new model folder (must not exist)")
    .option(
      "--chat-template <name|file>",
      `chat template written when the base has none (${TEMPLATE_NAMES.join(", ")}, or a .jinja file)`,
    )
    .option("--no-progress", "no progress bar on stderr")
    .option("--json", "print one JSON object with the summary")
    .action(
      runAction(async (opts: VirtualizeCliOptions) => {
        const entries = loadCatalog(opts.catalog, { format: opts.format as CatalogFormat | undefined });
        const chatTemplate =
          opts.chatTemplate === undefined ? undefined : chatTemplateSource(opts.chatTemplate);
        const bar = opts.progress && process.stderr.isTTY ? progressBar("virtualize MiB") : undefined;
        let summary;
        try {
          summary = await virtualizeHfModel({
            base: opts.base,
            out: opts.out,
            entries,
            chatTemplate,
            onProgress: bar
              ? (done, total) => bar.update(Math.round(done / 2 ** 20), Math.round(total / 2 ** 20))
              : undefined,
          });
        } finally {
          bar?.stop();
        }
        if (opts.json) process.stdout.write(JSON.stringify(summary) + "\n");
        else {
          process.stdout.write(
            `wrote ${summary.out}: vocabulary ${summary.baseVocab} -> ${summary.vocab} (${summary.added} new tokens, ` +
              `${summary.existing} already present; ${summary.grown.join(", ")} in ${summary.dtype}; ${summary.shards} shard(s))\n`,
          );
          if (summary.skipped.length > 0) process.stdout.write(`not copied: ${summary.skipped.join(", ")}\n`);
        }
      }),
    );
}
