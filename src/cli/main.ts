import { Command } from "commander";

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
  await program.parseAsync(argv);
}
