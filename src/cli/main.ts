import { Command } from "commander";
import { register as registerCatalog } from "./catalog.ts";
import { register as registerChat } from "./chat.ts";
import { register as registerDemo } from "./demo.ts";
import { register as registerEval } from "./eval.ts";
import { register as registerExport } from "./export.ts";
import { register as registerExportTraining } from "./export-training.ts";
import { register as registerReport } from "./report.ts";
import { register as registerRetrieve } from "./retrieve.ts";
import { register as registerServe } from "./serve.ts";
import { register as registerTools } from "./tools.ts";
import { register as registerTrain } from "./train.ts";
import { register as registerVirtualize } from "./virtualize.ts";

/** The toolgen CLI: thin commands over the library, one file per command (each exports `register`). */
export async function main(argv: string[]): Promise<void> {
  const program = new Command()
    .name("toolgen")
    .description(
      "LLM tool use at scale: ToolGen tool tokens, agents, retrieval, evaluation, a built-in engine",
    )
    .version("0.1.0")
    .showHelpAfterError();
  // Command registrations (one line each, keep sorted):
  registerCatalog(program);
  registerChat(program);
  registerDemo(program);
  registerEval(program);
  registerExport(program);
  registerExportTraining(program);
  registerReport(program);
  registerRetrieve(program);
  registerServe(program);
  registerTools(program);
  registerTrain(program);
  registerVirtualize(program);
  await program.parseAsync(argv);
}
