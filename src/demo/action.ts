import { FINISH_TOKEN } from "../catalog/catalog.ts";
import type { ActionRequest } from "../agents/toolgen.ts";
import type { ChatModel } from "../models/model.ts";
import { episodeQuery } from "./arguments.ts";

/** Which prompt decided the last action (the demo prints it). */
export interface ActionNote {
  prompt: "retrieval" | "agent";
  options: number;
}

/**
 * The demo's action decoder for the ToolGen agent. The first action of an episode is ToolGen retrieval proper:
 * the model reads the question alone (the retrieval stage's prompt) and its tool token is decoded over the
 * catalog's tokens. Later actions (after a tool has answered) are decoded in the agent's own three-round context
 * over the tool tokens and <<Finish>>. Both are the same model under the same choice constraint; only the prompt
 * differs, because the tiny demo model maps questions to tools much better in the short retrieval prompt.
 */
export function demoActionDecoder(model: ChatModel) {
  const note: { last?: ActionNote } = {};
  const decode = async (request: ActionRequest): Promise<string> => {
    const base = { temperature: request.temperature, ...(request.signal ? { signal: request.signal } : {}) };
    const query = episodeQuery(request.messages);
    const toolRan = request.messages.some((m) => m.role === "tool");
    if (!toolRan && query !== undefined) {
      const tools = request.options.filter((o) => o !== FINISH_TOKEN);
      note.last = { prompt: "retrieval", options: tools.length };
      const { message } = await model.generate([{ role: "user", content: query }], {
        ...base,
        constraint: { kind: "choice", options: tools },
      });
      return message.content;
    }
    note.last = { prompt: "agent", options: request.options.length };
    const { message } = await model.generate(request.messages, {
      ...base,
      constraint: { kind: "choice", options: request.options },
    });
    return message.content;
  };
  return { decode, note };
}
