import { createToolGenAgent, type ActionDecoder } from "../agents/toolgen.ts";
import type { AgentEvent, AgentRun, TurnDecoding } from "../agents/types.ts";
import type { CatalogEntry } from "../catalog/catalog.ts";
import type { ChatModel } from "../models/model.ts";
import type { LanguagePolicy } from "../constrain/policy.ts";
import type { Tool } from "../tools/types.ts";

/**
 * Runs questions through the ToolGen agent and prints each step readably: the thought, the action token it
 * decoded, the arguments (and whether they were free, written under a schema or chosen among candidates: the
 * decoding record the agent keeps on each model step), the tool's real result, and the final answer after the
 * word "Answer".
 */
export interface DemoRunOptions {
  model: ChatModel;
  catalog: CatalogEntry[];
  tools: Tool[];
  write?: (text: string) => void;
  /** Colour and symbols for a terminal. */
  color?: boolean;
  /**
   * How the arguments turns (the tool's arguments, and the final answer after <<Finish>>) are decoded:
   * "json-schema+copy" (default: the model writes them under the tool's JSON Schema, or the Finish schema,
   * and its free strings and numbers copy from the question, or for the final answer the last tool result
   * whole: src/constrain/copy.ts), "json-schema" (the schema alone), or "free" (asked with no
   * constraint; a ToolGenChatModel with `constrainArguments` then picks among candidates).
   */
  arguments?: DemoArgumentsDecoding;
  /**
   * How the action turns are decoded, and the words that say so on each action line (default: the model's
   * likeliest action; see action-prior.ts).
   */
  actions?: { decode: ActionDecoder; how: string };
  /** What the copy constraint knows of English and of property names (default englishPolicy; policy.ts). */
  policy?: LanguagePolicy;
}

/** How the demo decodes the arguments turns (`toolgen demo --arguments-constraint`, `bench:demo --arguments`). */
export type DemoArgumentsDecoding = "json-schema+copy" | "json-schema" | "free";

export interface DemoAnswer {
  question: string;
  /** The final answer; null when the model declined or the run stopped without one. */
  answer: string | null;
  /** The model finished with give_up_and_restart: it says the tools cannot answer this. */
  declined: boolean;
  stoppedBecause: AgentRun["stoppedBecause"];
  calls: { tool: string; arguments: Record<string, unknown>; ok: boolean; content: string }[];
  /** Which turns were decoded under a constraint: "action" always; "arguments" when the model adds one. */
  constrained: string[];
  seconds: number;
}

/** What the demo says when the model finishes with give_up_and_restart. */
export const DECLINED_TEXT = "I can't answer that with these tools.";

/** What constrained an action turn, in words. */
function actionHow(d: TurnDecoding): string {
  return d.constraint === "choice"
    ? `the model's token, decoded over the ${(d.options ?? 1) - 1} tool tokens and <<Finish>>`
    : "the model's action turn, asked freely (the backend cannot enforce a choice) and checked afterwards";
}

/** What constrained an arguments turn (a tool's arguments, or the final answer after <<Finish>>), in words. */
function argumentsHow(d: TurnDecoding): string {
  if (d.backend?.kind === "choice")
    return `model's choice among ${d.backend.options} candidates built from ${d.backend.source ?? "the conversation"}`;
  if (d.constraint === "none") return "written freely by the model";
  const schema = d.turn === "finish" ? "the Finish schema" : "the tool's JSON Schema";
  if (d.constraint !== "json-schema+copy") return `written by the model under ${schema}`;
  if (d.turn === "finish" && d.declineOnly)
    return `the Finish schema's declining branch only: no tool result to report`;
  if (d.turn === "finish" && d.copyFrom?.includes("observation"))
    return `written by the model under ${schema}: the last tool result whole`;
  const from = (d.copyFrom ?? []).map((s) => (s === "observation" ? "the last tool result" : `the ${s}`));
  return `written by the model under ${schema}, its free strings and numbers copied from ${from.join(" and ")}`;
}

const clip = (s: string, n = 160) => (s.length > n ? `${s.slice(0, n - 1)}…` : s).replace(/\n/g, "⏎");

export function createDemoRunner(o: DemoRunOptions) {
  const paint = (code: string, s: string) => (o.color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const write = o.write ?? ((t: string) => process.stdout.write(t));
  const agent = createToolGenAgent({
    model: o.model,
    catalog: o.catalog,
    tools: o.tools,
    maxTokens: 96,
    // Room for a final answer that reports a long result whole (a file listing, a hash, a time in two zones):
    // with 96 tokens the whole result did not fit, and the answer failed. Short turns end at the turn's end.
    argumentsMaxTokens: 256,
    maxRounds: 9,
    argumentsConstraint: o.arguments === "free" ? "none" : (o.arguments ?? "json-schema+copy"),
    // A give_up is the model declining the question: stop there (a restart would only sample another try).
    maxRestarts: 0,
    retryTemperatures: [],
    ...(o.actions ? { decodeAction: o.actions.decode } : {}),
    ...(o.policy ? { policy: o.policy } : {}),
  });
  let counter = 0;

  async function ask(question: string): Promise<DemoAnswer> {
    const started = performance.now();
    const constrained = new Set<string>();
    write(`\n${paint("1", "Question:")} ${question}\n`);
    const onEvent = (step: AgentEvent) => {
      switch (step.type) {
        case "thought":
          write(`  ${paint("2", "thought")}    ${clip(step.text)}\n`);
          break;
        case "model": {
          const d = step.decoding;
          if (d?.turn === "action") {
            if (d.constraint !== "none") constrained.add("action");
            const how = o.actions?.how ?? actionHow(d);
            write(`  ${paint("36", "action")}     ${step.message.content}   (${how})\n`);
          } else if (d?.turn === "arguments" || d?.turn === "finish") {
            if (d.constraint !== "none" || d.backend) constrained.add("arguments");
            write(`  ${paint("36", "arguments")}  ${clip(step.message.content)}   (${argumentsHow(d)})\n`);
          }
          break;
        }
        case "tool_result":
          write(
            `  ${paint("33", "result")}     ${step.result.ok ? clip(step.result.content) : `error: ${step.result.error.message}`}   (${step.call.function.name}, ${step.ms} ms)\n`,
          );
          break;
        case "guard":
          write(`  ${paint("31", "guard")}      ${step.guard}: ${clip(step.message)}\n`);
          break;
        default:
          break;
      }
    };
    const run = await agent.chat(`demo-${counter++}`, question, { onEvent });
    const seconds = (performance.now() - started) / 1000;
    const declined = run.stoppedBecause === "gave_up";
    if (run.stoppedBecause === "answer") write(`${paint("1;32", "Answer:")} ${run.answer}\n`);
    else if (declined) write(`${paint("1;33", "Declined:")} ${DECLINED_TEXT}\n`);
    else
      write(
        `${paint("1;31", "No answer")} (stopped: ${run.stoppedBecause}${run.error ? `, ${run.error}` : ""})\n`,
      );
    return {
      question,
      answer: run.stoppedBecause === "answer" ? run.answer : null,
      declined,
      stoppedBecause: run.stoppedBecause,
      calls: run.toolCalls.map((c) => ({
        tool: c.call.function.name,
        arguments: c.call.function.arguments,
        ok: c.result.ok,
        content: c.result.ok ? c.result.content : c.result.error.message,
      })),
      constrained: [...constrained],
      seconds,
    };
  }

  return { ask };
}
