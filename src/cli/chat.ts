import { createInterface } from "node:readline";
import type { Command } from "commander";
import { createAgent } from "../agents/functions.ts";
import type { MemoryOptions } from "../agents/memory.ts";
import { SqliteChatMemoryStore } from "../agents/memory-sqlite.ts";
import { createReactAgent } from "../agents/react.ts";
import { catalogEntryFromTool } from "../agents/toolbox.ts";
import { createToolGenAgent } from "../agents/toolgen.ts";
import type { Agent, AgentEvent, AgentRun } from "../agents/types.ts";
import type { CatalogEntry } from "../catalog/catalog.ts";
import { loadCatalog } from "../catalog/load.ts";
import { checkModelSpec, resolveModel } from "../models/resolve.ts";
import { Bm25Retriever } from "../retrieval/bm25.ts";
import { loadTools } from "../tools/load-module.ts";
import type { Tool } from "../tools/types.ts";
import { CommandError, runAction } from "./run-action.ts";
import { ToolgenError } from "../errors.ts";
import { positiveIntegerOption } from "./number-options.ts";

export const AGENT_KINDS = ["functions", "react", "toolgen"] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];

interface ChatCliOptions {
  model: string;
  agent: string;
  tools?: string;
  catalog?: string;
  message?: string;
  stream?: boolean;
  json?: boolean;
  memory?: string;
  session: string;
  maxSteps?: string;
  system?: string;
  topK?: string;
  timeout?: string;
}

/** `toolgen chat --model SPEC [--agent functions|react|toolgen] …`: one-shot with --message, a REPL without. */
export function register(program: Command): void {
  program
    .command("chat")
    .description("chat with an agent that calls tools (one-shot with --message, a REPL without)")
    .requiredOption("--model <spec>", "openai:MODEL@BASEURL, builtin:DIR, gguf:FILE, scripted:FILE …")
    .option("--agent <kind>", AGENT_KINDS.join(" | "), "functions")
    .option("--tools <file>", "a .ts/.js module whose exports are tools (any of the five styles)")
    .option("--catalog <file>", "a tool catalog (ToolGen agent documents)")
    .option("--message <text>", "ask once, print the answer and exit")
    .option("--stream", "print the answer as it is generated")
    .option("--json", 'with --message: print one JSON object {"answer", "steps", "stoppedBecause"}')
    .option("--memory <file>", "keep conversations in this SQLite file (survives restarts)")
    .option("--session <id>", "memory id of the conversation", "cli")
    .option("--max-steps <n>", "model calls per message")
    .option("--system <text>", "system prompt (functions agent)")
    .option("--top-k <n>", "functions/react: offer only the n tools BM25 finds for each message")
    .option(
      "--timeout <ms>",
      "milliseconds to wait for the model's next data (openai models; default 120000)",
    )
    .action(
      runAction(async (opts: ChatCliOptions) => {
        const { agent, dispose } = await buildAgent(opts);
        try {
          if (opts.message !== undefined) await oneShot(agent, opts.message, opts);
          else await repl(agent, opts);
        } finally {
          dispose();
        }
      }),
    );
}

async function buildAgent(opts: ChatCliOptions): Promise<{ agent: Agent; dispose: () => void }> {
  if (!(AGENT_KINDS as readonly string[]).includes(opts.agent)) {
    throw new ToolgenError(
      "invalid_option",
      `unknown agent ${JSON.stringify(opts.agent)}; choose one of ${AGENT_KINDS.join(", ")}`,
    );
  }
  if (opts.json && opts.message === undefined)
    throw new ToolgenError("invalid_option", "--json needs --message (one-shot mode)");
  const maxSteps =
    opts.maxSteps === undefined ? undefined : positiveIntegerOption(opts.maxSteps, "--max-steps");
  const topK = opts.topK === undefined ? undefined : positiveIntegerOption(opts.topK, "--top-k");
  const timeoutMs = opts.timeout === undefined ? undefined : positiveIntegerOption(opts.timeout, "--timeout");
  checkModelSpec(opts.model); // a bad --model is the first thing to hear about, before "needs tools"
  const onSkip = (message: string): void => void process.stderr.write(`toolgen chat: warning: ${message}\n`);
  const tools: Tool[] = opts.tools ? await loadTools(opts.tools, { onSkip }) : [];
  const catalog: CatalogEntry[] | undefined = opts.catalog ? loadCatalog(opts.catalog) : undefined;
  const kind = opts.agent as AgentKind;
  if (kind !== "toolgen" && tools.length === 0) {
    throw new ToolgenError(
      "invalid_option",
      `the ${kind} agent needs tools: pass --tools FILE.ts (a module exporting tools)`,
    );
  }
  if (kind !== "toolgen" && catalog) {
    process.stderr.write(
      `toolgen chat: note: --catalog is read by --agent toolgen only; the ${kind} agent uses --tools\n`,
    );
  }
  if (kind === "toolgen" && tools.length === 0 && !catalog) {
    throw new ToolgenError("invalid_option", "the toolgen agent needs --catalog FILE and/or --tools FILE.ts");
  }
  const model = await resolveModel(opts.model, timeoutMs ? { timeoutMs } : {});
  // The retriever pipeline ToolGen compares against: BM25 over the tools' names and descriptions.
  const retrieval = topK
    ? {
        retriever: new Bm25Retriever(tools.map(catalogEntryFromTool), { document: "name-description" }),
        topK,
      }
    : {};
  const store = opts.memory ? new SqliteChatMemoryStore(opts.memory) : undefined;
  const memory: MemoryOptions = store ? { store } : {};
  const dispose = (): void => store?.close();
  if (kind === "functions") {
    const agent = createAgent({
      model,
      tools,
      ...retrieval,
      memory,
      ...(maxSteps ? { maxSteps } : {}),
      ...(opts.system ? { systemPrompt: opts.system } : {}),
    });
    return { agent, dispose };
  }
  if (kind === "react") {
    return {
      agent: createReactAgent({
        model,
        tools,
        ...retrieval,
        memory,
        ...(maxSteps ? { maxIterations: maxSteps } : {}),
      }),
      dispose,
    };
  }
  const agent = createToolGenAgent({
    model,
    tools,
    memory,
    // local engines enforce the tool's schema on the arguments turn (token mask / grammar); HTTP servers differ
    ...(/^(builtin|gguf|hf):/.test(model.id) ? { argumentsConstraint: "json-schema" as const } : {}),
    ...(catalog ? { catalog } : {}),
    ...(maxSteps ? { maxRounds: maxSteps } : {}),
  });
  return { agent, dispose };
}

async function oneShot(agent: Agent, message: string, opts: ChatCliOptions): Promise<void> {
  // Answer text streams to stdout only for the functions agent (ReAct/ToolGen stream their reasoning, not the
  // answer) and never with --json, whose stdout is exactly one JSON object.
  const streamToStdout = opts.stream === true && !opts.json && agent.kind === "functions";
  let streamed = false;
  const run = await agent.chat(opts.session, message, {
    stream: opts.stream === true,
    onEvent: (event) => {
      if (event.type === "text_delta" && streamToStdout) {
        process.stdout.write(event.delta);
        streamed = true;
      } else if (event.type === "text_delta") {
        process.stderr.write(event.delta); // the reasoning as it is generated, kept off stdout
      } else {
        trace(event);
      }
    },
  });
  const result = { answer: run.answer, steps: run.steps, stoppedBecause: run.stoppedBecause };
  if (failed(run)) {
    // The job was to get an answer from the model; a model that cannot be reached, answers 404 or HTML, or
    // times out is a failed command (exit 1), with the cause in one line and in the JSON's `error`.
    throw new CommandError(`the model failed: ${run.error ?? run.stoppedBecause}`, { json: result });
  }
  if (opts.json) {
    process.stdout.write(JSON.stringify(result) + "\n");
  } else {
    if (!streamed || !run.answer.length) process.stdout.write(run.answer);
    process.stdout.write("\n");
    report(run);
  }
}

async function repl(agent: Agent, opts: ChatCliOptions): Promise<void> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: process.stdin.isTTY });
  const ask = (): void => {
    if (process.stdin.isTTY) rl.prompt();
  };
  rl.setPrompt("you> ");
  process.stderr.write(
    `toolgen chat (${agent.kind} agent, session ${opts.session}). /reset clears it, /exit quits.\n`,
  );
  ask();
  for await (const line of rl) {
    const text = line.trim();
    if (text === "/exit" || text === "/quit") break;
    if (text === "/reset") {
      await agent.memory(opts.session).clear();
      process.stderr.write(`(session ${opts.session} cleared)\n`);
    } else if (text !== "") {
      const run = await agent.chat(opts.session, text, { onEvent: trace });
      process.stdout.write(`${run.answer}\n`);
      report(run);
    }
    ask();
  }
  rl.close();
}

/** Tool calls and guards, one line each, on stderr: what the agent did, never mixed into the answer. */
function trace(event: AgentEvent): void {
  if (event.type === "tool_call") {
    process.stderr.write(
      `  → ${event.call.function.name} ${JSON.stringify(event.call.function.arguments)}\n`,
    );
  } else if (event.type === "tool_result") {
    const text = event.result.ok ? event.result.content : `error: ${event.result.error.message}`;
    process.stderr.write(`  ← ${text.replace(/\s+/g, " ").slice(0, 200)}\n`);
  } else if (event.type === "guard") {
    process.stderr.write(`  ! ${event.guard}: ${event.message.slice(0, 200)}\n`);
  }
}

/** Runs that ended without the model's help: its errors and an interrupt. Guard stops are answers. */
function failed(run: AgentRun): boolean {
  return run.stoppedBecause === "model_error" || run.stoppedBecause === "aborted";
}

function report(run: AgentRun): void {
  if (run.stoppedBecause !== "answer") {
    process.stderr.write(`  (stopped: ${run.stoppedBecause}${run.error ? ` — ${run.error}` : ""})\n`);
  }
}
