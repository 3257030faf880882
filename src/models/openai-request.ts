import type { Message } from "../chat/messages.ts";
import { toWireMessage } from "../chat/wire.ts";
import { UnsupportedConstraintError } from "./http-errors.ts";
import { choiceGrammar } from "./llamacpp/grammar.ts";
import type { Constraint, GenerateOptions, ToolChoice } from "./model.ts";

/**
 * Which OpenAI-compatible server is on the other end. It matters only for constraints, which each server
 * spells its own way: OpenAI has `response_format` only; vLLM adds `guided_choice` / `guided_grammar`;
 * llama.cpp's server takes a GBNF `grammar`; "generic" sends both vLLM's and llama.cpp's fields (each server
 * ignores the other's).
 */
export const SERVER_DIALECTS = ["generic", "openai", "vllm", "llamacpp", "ollama"] as const;
export type ServerDialect = (typeof SERVER_DIALECTS)[number];

export interface RequestSettings {
  model: string;
  dialect: ServerDialect;
  stream: boolean;
  /** Extra fields merged into the body last (anything the server understands that toolgen does not model). */
  extraBody?: Record<string, unknown>;
}

export function buildChatRequest(
  messages: Message[],
  options: GenerateOptions,
  settings: RequestSettings,
): Record<string, unknown> {
  const body: Record<string, unknown> = { model: settings.model, messages: messages.map(toWireMessage) };
  if (options.tools && options.tools.length > 0) body.tools = options.tools;
  if (options.toolChoice !== undefined) body.tool_choice = toolChoiceField(options.toolChoice);
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (options.topP !== undefined) body.top_p = options.topP;
  if (options.maxTokens !== undefined) body.max_tokens = options.maxTokens;
  if (options.stop && options.stop.length > 0) body.stop = options.stop;
  if (options.seed !== undefined) body.seed = options.seed;
  if (options.constraint) Object.assign(body, constraintFields(options.constraint, settings.dialect));
  if (settings.stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  return { ...body, ...settings.extraBody };
}

function toolChoiceField(choice: ToolChoice): unknown {
  return typeof choice === "string" ? choice : { type: "function", function: { name: choice.name } };
}

/** The request fields that carry a constraint, or UnsupportedConstraintError naming what the server lacks. */
export function constraintFields(constraint: Constraint, dialect: ServerDialect): Record<string, unknown> {
  switch (constraint.kind) {
    case "json-schema":
      if (constraint.copyFrom)
        throw new UnsupportedConstraintError(
          "copying values from the conversation (copyFrom) needs the model's logits (builtin: or gguf: models); " +
            "an OpenAI-compatible HTTP server cannot enforce it",
        );
      return {
        response_format: {
          type: "json_schema",
          json_schema: { name: "response", schema: constraint.schema, strict: true },
        },
      };
    case "choice": {
      if (constraint.options.length === 0)
        throw new UnsupportedConstraintError("a choice constraint needs at least one option");
      // The llama.cpp backend's grammar, so both escape the same way (JSON.stringify's \b and \f are not GBNF);
      // sent without the final newline, as this request always was.
      const grammar = choiceGrammar(constraint.options).trimEnd();
      return pick(dialect, "choice", { guided_choice: constraint.options }, { grammar });
    }
    case "grammar":
      return pick(dialect, "grammar", { guided_grammar: constraint.gbnf }, { grammar: constraint.gbnf });
    case "tokens":
      throw new UnsupportedConstraintError(
        "a token-id constraint needs direct access to the model's logits (builtin: or gguf: models); " +
          "an OpenAI-compatible HTTP server cannot enforce it",
      );
  }
}

function pick(
  dialect: ServerDialect,
  kind: string,
  vllm: Record<string, unknown>,
  llamacpp: Record<string, unknown>,
): Record<string, unknown> {
  if (dialect === "vllm") return vllm;
  if (dialect === "llamacpp") return llamacpp;
  if (dialect === "generic") return { ...vllm, ...llamacpp };
  throw new UnsupportedConstraintError(
    `a ${kind} constraint cannot be passed to a ${dialect} server (it has no grammar or guided-choice field); ` +
      `use a vllm, llamacpp or generic dialect, or a json-schema constraint`,
  );
}
