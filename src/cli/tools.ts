import type { Command } from "commander";
import { toToolJson } from "../tools/define.ts";
import { loadTools } from "../tools/load-module.ts";
import { prettyJson } from "../tools/pretty.ts";
import { runAction } from "./run-action.ts";

function warnSkipped(message: string): void {
  process.stderr.write(`toolgen tools inspect: warning: ${message}\n`);
}

/** `toolgen tools inspect FILE [--json]`: the model-facing JSON of every tool a module exports. */
export function register(program: Command): void {
  const tools = program.command("tools").description("define, inspect and check tools");
  tools
    .command("inspect")
    .description(
      "print the HF/OpenAI JSON schema of each tool exported by a .ts/.js module (any of the five styles)",
    )
    .argument("<file>", "a .ts or .js module exporting tools or JSDoc'd functions")
    .option("--json", "print one JSON object: {file, tools: [...]}")
    .action(
      runAction(async (file: string, opts: { json?: boolean }) => {
        const schemas = (await loadTools(file, { onSkip: warnSkipped })).map(toToolJson);
        if (opts.json) process.stdout.write(JSON.stringify({ file, tools: schemas }) + "\n");
        else process.stdout.write(schemas.map((s) => prettyJson(s)).join("\n\n") + "\n");
      }),
    );
}
