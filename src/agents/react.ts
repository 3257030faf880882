import type { Message } from "../chat/messages.ts";
import { parseReactStep } from "../chat/parse/react-step.ts";
import type { ParsedToolCall } from "../chat/parse/types.ts";
import type { ChatModel } from "../models/model.ts";
import type { Tool, ToolCall, ToolContext } from "../tools/types.ts";
import { invokeTool } from "./invoke.ts";
import { callModel, ErrorStreak, positiveInteger, RepeatGuard } from "./loop.ts";
import type { RunOutcome, RunRecorder } from "./loop.ts";
import type { MemoryOptions } from "./memory.ts";
import { MemoryAgent } from "./base.ts";
import { checkReactTemplate, describeTools, REACT_PROMPT, renderReactPrompt } from "./react-prompt.ts";
import { Toolbox, type ToolboxOptions } from "./toolbox.ts";
import type { ChatOptions, GuardKind } from "./types.ts";

export interface ReactAgentOptions extends ToolboxOptions {
  model: ChatModel;
  /** Keeps each conversation's questions and final answers (the scratchpad is not history, as in LangChain's agents). */
  memory?: MemoryOptions;
  /** A prompt with {tools}, {tool_names}, {history}, {input}, {agent_scratchpad}; default REACT_PROMPT. */
  template?: string;
  /** Model calls per question; default 10. */
  maxIterations?: number;
  /** The same action with the same input this many times is a dead loop; default 3. */
  maxRepeats?: number;
  /** Corrective observations in a row before the run stops; default 5. */
  maxConsecutiveErrors?: number;
  /** Intent recognition + tool call, no final model round: the observation is the answer (all tools, or these). */
  directReturn?: boolean | string[];
  /** Context size in tokens; the oldest scratchpad steps are dropped to stay under it. Default 8192. */
  contextLimit?: number;
  /** Tokens of a text; default about 4 characters a token. */
  countTokens?: (text: string) => number;
  temperature?: number;
  /** Tokens kept free for the reply (default 512), also sent as maxTokens. */
  maxTokens?: number;
  context?: Record<string, unknown>;
}

interface ScratchEntry {
  log: string;
  observation: string;
}

type Observation = { ok: true; text: string } | { ok: false; guard: GuardKind; text: string };

const OBSERVATION_LINE = /\n?[ \t]*Observation[ \t]*\d*[ \t]*:/;

/** The ReAct agent: Thought / Action / Action Input / Observation in plain text, for any ChatModel. */
export class ReactAgent extends MemoryAgent {
  readonly kind = "react";
  private readonly toolbox: Toolbox;
  private readonly template: string;
  private readonly maxIterations: number;
  private readonly maxRepeats: number;
  private readonly maxErrors: number;
  private readonly contextLimit: number;
  private readonly reserve: number;
  private readonly countTokens: (text: string) => number;

  constructor(private readonly options: ReactAgentOptions) {
    super(options.memory);
    this.toolbox = new Toolbox(options);
    this.template = options.template ?? REACT_PROMPT;
    checkReactTemplate(this.template);
    this.maxIterations = positiveInteger("maxIterations", options.maxIterations, 10);
    this.maxRepeats = positiveInteger("maxRepeats", options.maxRepeats, 3);
    this.maxErrors = positiveInteger("maxConsecutiveErrors", options.maxConsecutiveErrors, 5);
    this.contextLimit = positiveInteger("contextLimit", options.contextLimit, 8192);
    this.reserve = positiveInteger("maxTokens", options.maxTokens, 512);
    this.countTokens = options.countTokens ?? ((text) => Math.ceil(text.length / 4));
  }

  protected async loop(
    memoryId: string,
    input: string,
    chat: ChatOptions,
    rec: RunRecorder,
  ): Promise<RunOutcome> {
    const memory = this.memory(memoryId);
    const history = await memory.messages();
    await memory.add({ role: "user", content: input });
    const retrieved = await this.toolbox.retrieve(input);
    const repeats = new RepeatGuard(this.maxRepeats);
    const errors = new ErrorStreak(this.maxErrors);
    const scratch: ScratchEntry[] = [];
    let lastThought = "";
    for (;;) {
      if (rec.modelCalls >= this.maxIterations) return { answer: lastThought, stoppedBecause: "max_steps" };
      const offered = await this.toolbox.offer({
        memoryId,
        query: input,
        step: rec.modelCalls,
        messages: history,
        retrieved,
      });
      const prompt = this.fit(offered, history, input, scratch, rec);
      const { message } = await callModel(
        this.options.model,
        [{ role: "user", content: prompt }],
        {
          stop: ["\nObservation:"],
          maxTokens: this.reserve,
          ...(this.options.temperature !== undefined ? { temperature: this.options.temperature } : {}),
          ...(chat.signal ? { signal: chat.signal } : {}),
        },
        rec,
        chat.stream === true,
      );
      const index = rec.modelCalls - 1;
      // Whatever the model invented after its action (a fake Observation) is not part of the step.
      const output = message.content.split(OBSERVATION_LINE)[0]!;
      const step = parseReactStep(output);
      if (step.thought) {
        lastThought = step.thought;
        rec.record({ type: "thought", index, text: step.thought });
      }
      if (step.kind === "final") {
        await memory.add({ role: "assistant", content: step.finalAnswer });
        return { answer: step.finalAnswer, stoppedBecause: "answer" };
      }
      let observation: Observation;
      if (step.kind === "invalid") {
        observation = {
          ok: false,
          guard: "unparsable_step",
          text:
            `Invalid Format: ${step.error.message}. Reply with "Action: <one of [${offered.map((t) => t.name).join(", ")}]>" ` +
            `and "Action Input: <input>", or with "Final Answer: <answer>".`,
        };
      } else {
        const tool = this.toolbox.get(step.action.name);
        if (tool && repeats.isDeadLoop(tool.name, step.action.arguments)) {
          return { answer: lastThought, stoppedBecause: "repeated_action" };
        }
        observation = tool
          ? await this.act(tool, step.action, index, memoryId, chat, rec)
          : {
              ok: false,
              guard: "unknown_tool",
              text: `${step.action.name} is not a valid tool, try one of [${offered.map((t) => t.name).join(", ")}].`,
            };
        if (observation.ok && this.isDirect(step.action.name)) {
          await memory.add({ role: "assistant", content: observation.text });
          return { answer: observation.text, stoppedBecause: "direct_return" };
        }
      }
      if (observation.ok) {
        errors.reset();
      } else {
        rec.record({ type: "guard", index, guard: observation.guard, message: observation.text });
        if (errors.fail()) return { answer: lastThought, stoppedBecause: "too_many_errors" };
      }
      scratch.push({ log: output, observation: observation.text });
    }
  }

  private async act(
    tool: Tool,
    action: ParsedToolCall,
    index: number,
    memoryId: string,
    chat: ChatOptions,
    rec: RunRecorder,
  ): Promise<Observation> {
    const args = adaptInput(tool, action);
    if (typeof args === "string") return { ok: false, guard: "invalid_input", text: args };
    const call: ToolCall = {
      id: `react_${index}`,
      type: "function",
      function: { name: tool.name, arguments: args },
    };
    rec.record({ type: "tool_call", index, call });
    const context: ToolContext = { ...this.options.context, memoryId };
    if (chat.signal) context.signal = chat.signal;
    const started = performance.now();
    const result = await invokeTool(call, [tool], context);
    rec.record({ type: "tool_result", index, call, result, ms: Math.round(performance.now() - started) });
    if (result.ok) return { ok: true, text: result.content };
    if (result.error.code === "invalid_arguments") {
      return {
        ok: false,
        guard: "invalid_input",
        text: `Invalid input for ${tool.name}: ${result.error.message}`,
      };
    }
    return { ok: false, guard: "tool_error", text: `Error: ${result.error.message}` };
  }

  private isDirect(name: string): boolean {
    const direct = this.options.directReturn;
    return direct === true || (Array.isArray(direct) && direct.includes(name));
  }

  /** Renders the prompt, dropping the oldest scratchpad steps, then the oldest history, to fit the context. */
  private fit(
    tools: Tool[],
    history: Message[],
    input: string,
    scratch: ScratchEntry[],
    rec: RunRecorder,
  ): string {
    const budget = this.contextLimit - this.reserve;
    let skipSteps = 0;
    let skipHistory = 0;
    let prompt = this.render(tools, history, input, scratch, 0, 0);
    while (this.countTokens(prompt) > budget) {
      if (scratch.length - skipSteps > 1) skipSteps += 1;
      else if (history.length - skipHistory > 0) skipHistory += 1;
      else break; // Nothing left to drop: send it and let the model (or server) say what it can do.
      prompt = this.render(tools, history, input, scratch, skipSteps, skipHistory);
    }
    if (skipSteps + skipHistory > 0) {
      rec.record({
        type: "trim",
        index: rec.modelCalls,
        dropped: skipSteps + skipHistory,
        reason: `prompt over ${budget} tokens: dropped ${skipSteps} scratchpad step(s) and ${skipHistory} history message(s)`,
      });
    }
    return prompt;
  }

  private render(
    tools: Tool[],
    history: Message[],
    input: string,
    scratch: ScratchEntry[],
    skipSteps: number,
    skipHistory: number,
  ): string {
    const omitted = skipSteps > 0 ? ` (${skipSteps} earlier step(s) omitted to fit the context)\n` : "";
    const pad = scratch
      .slice(skipSteps)
      .map(
        (e) =>
          ` ${e.log.trim().replace(/^Thought[ \t]*:[ \t]*/, "")}\nObservation: ${e.observation}\nThought:`,
      )
      .join("");
    return renderReactPrompt(this.template, {
      tools: describeTools(tools),
      tool_names: tools.map((t) => t.name).join(", "),
      history: history
        .slice(skipHistory)
        .map((m) => `${m.role === "user" ? "Human" : "AI"}: ${m.content}`)
        .join("\n"),
      input,
      agent_scratchpad: omitted + pad,
    });
  }
}

export function createReactAgent(options: ReactAgentOptions): ReactAgent {
  return new ReactAgent(options);
}

/**
 * Maps the Action Input to the tool's arguments. Plain text (`{input: text}` from the parser) goes to the
 * tool's only parameter, or its only required one; otherwise a JSON object is needed. Returns an error text.
 */
function adaptInput(tool: Tool, action: ParsedToolCall): Record<string, unknown> | string {
  if (!action.wrappedInput) return action.arguments;
  const properties = Object.keys(tool.parameters.properties);
  if (properties.length === 0) return {};
  if (properties.includes("input")) return action.arguments;
  const required = tool.parameters.required ?? [];
  const target = properties.length === 1 ? properties[0] : required.length === 1 ? required[0] : undefined;
  if (target !== undefined) return { [target]: action.arguments.input };
  return (
    `Invalid input for ${tool.name}: Action Input must be a JSON object with the keys ` +
    `${properties.map((p) => JSON.stringify(p)).join(", ")}, e.g. {${properties.map((p) => `"${p}": …`).join(", ")}}.`
  );
}
