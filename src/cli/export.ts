import type { Command } from "commander";
import { makeParentFolder } from "../io/atomic.ts";
import { exportCheckpointToGguf } from "../nn/gguf/export.ts";
import { runAction } from "./run-action.ts";
import { ToolgenError } from "../errors.ts";

/**
 * The `export` command group, shared with other exporters (`export training`): whoever registers first
 * creates it, the others add their subcommand to it.
 */
export function exportCommand(program: Command): Command {
  return (
    program.commands.find((c) => c.name() === "export") ??
    program.command("export").description("write models and data in other tools' formats")
  );
}

/** `toolgen export gguf --model DIR --out FILE [--type f32|f16] [--json]`. */
export function register(program: Command): void {
  exportCommand(program)
    .command("gguf")
    .description(
      "write a checkpoint folder as a GGUF file for llama.cpp (llama architecture, gpt2 BPE tokenizer)",
    )
    .requiredOption("--model <dir>", "checkpoint folder (config.json, model.safetensors, tokenizer.json)")
    .requiredOption("--out <file>", "the .gguf file to write")
    .option("--type <type>", "tensor type of the matrices: f32 | f16", "f32")
    .option("--name <name>", "general.name in the file (default: the folder name)")
    .option("--json", "print one JSON object: {file, bytes, tensors, vocabSize, type}")
    .action(
      runAction((opts: { model: string; out: string; type: string; name?: string; json?: boolean }) => {
        if (opts.type !== "f32" && opts.type !== "f16") {
          throw new ToolgenError("invalid_option", `--type must be f32 or f16, got "${opts.type}"`);
        }
        makeParentFolder(opts.out);
        const summary = exportCheckpointToGguf(opts.model, opts.out, { type: opts.type, name: opts.name });
        if (opts.json) process.stdout.write(JSON.stringify(summary) + "\n");
        else {
          const mb = (summary.bytes / 2 ** 20).toFixed(1);
          process.stdout.write(
            `wrote ${summary.file} (${mb} MiB, ${summary.tensors} tensors, ${summary.type}, vocab ${summary.vocabSize})\n`,
          );
        }
      }),
    );
}
