import { Command, CommanderError, Help } from "commander";
import { packageInfo } from "./package-info.ts";
import { commandPath } from "./run-action.ts";

type Register = (program: Command) => void;

/**
 * The top-level commands: how `toolgen --help` lists each one (term and description, so that the listing needs
 * none of the command modules) and the modules that register it. A command module loads only when its command
 * runs, and with it the heavy dependencies it needs (the engine, the TypeScript compiler API, the MCP SDK,
 * llama.cpp); test/cli/main.test.ts checks these lines against what the modules register.
 */
export const COMMANDS: Record<
  string,
  { term: string; description: string; load: () => Promise<Register[]> }
> = {
  catalog: {
    term: "catalog",
    description: "build and convert tool catalogs",
    load: async () => [(await import("./catalog.ts")).register],
  },
  chat: {
    term: "chat [options]",
    description: "chat with an agent that calls tools (one-shot with --message, a REPL without)",
    load: async () => [(await import("./chat.ts")).register],
  },
  completion: {
    term: "completion <shell>",
    description: "print a shell completion script (bash, zsh or fish)",
    load: async () => {
      const { register } = await import("./completion.ts");
      return [(program) => register(program, () => buildProgram(["node", "toolgen"], true))];
    },
  },
  demo: {
    term: "demo [options]",
    description:
      "load the committed demo ToolGen model (or retrain it when the catalog changed) and answer questions with the demo's 67 tools",
    load: async () => [(await import("./demo.ts")).register],
  },
  doctor: {
    term: "doctor [options]",
    description: "check this install: Node version, optional backends, WebAssembly kernels and threads, data",
    load: async () => [(await import("./doctor.ts")).register],
  },
  eval: {
    term: "eval",
    description: "evaluate retrieval (NDCG, recall, MRR) and function calling (BFCL)",
    load: async () => [(await import("./eval.ts")).register],
  },
  export: {
    term: "export",
    description: "write models and data in other tools' formats",
    load: async () => [
      (await import("./export.ts")).register,
      (await import("./export-training.ts")).register,
    ],
  },
  report: {
    term: "report [options] [paths...]",
    description: "write a self-contained HTML report (NDCG, training, latency) from result JSON files",
    load: async () => [(await import("./report.ts")).register],
  },
  retrieve: {
    term: "retrieve [options] <query>",
    description: "the catalog entries that best match a query",
    load: async () => [(await import("./retrieve.ts")).register],
  },
  serve: {
    term: "serve",
    description: "serve toolgen to other programs",
    load: async () => [(await import("./serve.ts")).register],
  },
  synth: {
    term: "synth [options]",
    description: "write labelled questions and ToolGen trajectories for any catalog, from its tools' schemas",
    load: async () => [(await import("./synth.ts")).register],
  },
  tools: {
    term: "tools",
    description: "define, inspect and check tools",
    load: async () => [(await import("./tools.ts")).register],
  },
  train: {
    term: "train [options]",
    description:
      "train a built-in Llama-style model and write a checkpoint folder (config.json, model.safetensors, tokenizer.json)",
    load: async () => [(await import("./train.ts")).register],
  },
  virtualize: {
    term: "virtualize [options]",
    description:
      "add one token per catalog tool (and <<Finish>>) to a Hugging Face model folder, new embedding and lm_head rows the mean of each name's token rows (safetensors shards streamed: bf16, f16, f32)",
    load: async () => [(await import("./virtualize.ts")).register],
  },
};

/** The command a command line asks for (`toolgen NAME …` or `toolgen help NAME`), if it names one. */
function requestedCommand(args: readonly string[]): string | undefined {
  const words = args.filter((a) => !a.startsWith("-"));
  const name = words[0] === "help" ? words[1] : words[0];
  return name !== undefined && Object.hasOwn(COMMANDS, name) ? name : undefined;
}

/**
 * The toolgen program for a command line: the requested command fully registered; without one (`--help`,
 * `--version`, a mistyped name), every command as a listing-only stub, so commander can print the overview
 * or suggest a name. `all` registers every command (tests compare the stubs with it).
 */
export async function buildProgram(argv: readonly string[], all = false): Promise<Command> {
  const program = new Command()
    .name("toolgen")
    .description(
      "LLM tool use at scale: ToolGen tool tokens, agents, retrieval, evaluation, a built-in engine",
    )
    .version(packageInfo().version, "-V, --version", "print the version of toolgen");
  const wanted = requestedCommand(argv.slice(2));
  const names = all ? Object.keys(COMMANDS) : wanted ? [wanted] : [];
  for (const name of names) for (const register of await COMMANDS[name]!.load()) register(program);
  if (names.length === 0) {
    for (const [name, { description }] of Object.entries(COMMANDS))
      program.command(name).description(description);
    const listing = new Help();
    program.configureHelp({
      subcommandTerm: (cmd) => COMMANDS[cmd.name()]?.term ?? listing.subcommandTerm(cmd),
    });
  }
  oneLineErrors(program);
  return program;
}

/**
 * Commander's own errors (an unknown command or option, a missing argument or required option) as the one
 * line every failed command prints (run-action.ts): `toolgen CMD: …`, with where to read more, not the help.
 */
function oneLineErrors(command: Command): void {
  const path = commandPath(command);
  const prefix = path === "" ? "toolgen" : `toolgen ${path}`;
  // and no process.exit inside commander: main() sets the exit status (tests run the CLI in-process)
  command.exitOverride();
  command.configureOutput({
    outputError: (text, write) =>
      write(
        `${prefix}: ${text
          .trim()
          .replace(/^error: /, "")
          .replace(/\s*\n\s*/g, " ")} (see ${prefix} --help)\n`,
      ),
  });
  for (const sub of command.commands) oneLineErrors(sub);
}

/** The toolgen CLI: thin commands over the library, one file per command (each exports `register`). */
export async function main(argv: string[]): Promise<void> {
  try {
    await (await buildProgram(argv)).parseAsync(argv);
  } catch (error) {
    // commander has printed its line (or the help, or the version); anything else is a bug, not bad input
    if (!(error instanceof CommanderError)) throw error;
    process.exitCode = error.exitCode;
  }
}
