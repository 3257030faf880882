// Tools to and from the Vercel AI SDK's tools record (`{ [name]: { description, inputSchema, execute } }`),
// by shape only: toolgen does not depend on `ai`. The AI SDK marks its JSON Schema wrapper (what its
// `jsonSchema()` helper returns) with Symbol.for("vercel.ai.schema") and reads `.jsonSchema` and `.validate`
// from it; AI SDK 4 called the field `parameters`, 5 and later `inputSchema`, so both are read and written.
import { checkToolName, fromToolJson } from "../tools/define.ts";
import { isZodSchema, toObjectSchema, zodToParameters } from "../tools/schema.ts";
import { executeToolCall } from "../tools/execute.ts";
import type { JsonSchema, ObjectSchema, Tool, ToolContext } from "../tools/types.ts";
import { ToolgenError } from "../errors.ts";

const AI_SDK_SCHEMA = Symbol.for("vercel.ai.schema");
const AI_SDK_VALIDATOR = Symbol.for("vercel.ai.validator");

/** The second argument the AI SDK passes to `execute`. */
export interface AiSdkExecuteOptions {
  toolCallId?: string;
  abortSignal?: AbortSignal;
  messages?: unknown[];
  [key: string]: unknown;
}

/** One tool of an AI SDK tools record, as far as toolgen reads or writes it. */
export interface AiSdkTool {
  description?: string;
  /** AI SDK ≥ 5: a zod schema, a `jsonSchema()` wrapper, or (read only) a plain JSON Schema object. */
  inputSchema?: unknown;
  /** AI SDK 4's name for the same schema. */
  parameters?: unknown;
  execute?: (input: never, options: AiSdkExecuteOptions) => unknown;
}

/** An AI SDK tools record: tool name → tool. */
export type AiSdkToolSet = Record<string, AiSdkTool>;

/** The wrapper `toAiSdkTools` writes: the same fields as the AI SDK's `jsonSchema()` result. */
interface JsonSchemaWrapper {
  readonly jsonSchema: ObjectSchema;
  validate(value: unknown): { success: true; value: unknown } | { success: false; error: Error };
}

function parametersOf(name: string, t: AiSdkTool): ObjectSchema {
  const where = `AI SDK tool ${name}`;
  const schema = t.inputSchema ?? t.parameters;
  if (schema === undefined) return { type: "object", properties: {} };
  if (isZodSchema(schema)) return zodToParameters(schema, where);
  if (typeof schema === "object" && schema !== null && "jsonSchema" in schema) {
    const json = (schema as { jsonSchema: unknown }).jsonSchema;
    if (typeof (json as PromiseLike<unknown> | null)?.then === "function")
      throw new ToolgenError(
        "invalid_tool",
        `${where}: a lazily resolved schema is not supported; pass the JSON Schema itself`,
      );
    return toObjectSchema(json as JsonSchema, where);
  }
  return toObjectSchema(schema as JsonSchema, where);
}

/**
 * Tools from an AI SDK tools record. The record's keys become the tool names; `execute` receives the
 * arguments and `{ toolCallId, abortSignal, messages: [] }` (a toolgen tool sees no conversation).
 */
export function fromAiSdkTools(record: AiSdkToolSet): Tool[] {
  return Object.entries(record).map(([name, t]) => {
    checkToolName(name, "AI SDK tool");
    const run = t.execute as ((input: unknown, options: AiSdkExecuteOptions) => unknown) | undefined;
    const spec = fromToolJson({
      type: "function",
      function: { name, description: t.description ?? "", parameters: parametersOf(name, t) },
    });
    if (!run) return spec;
    let calls = 0;
    return {
      ...spec,
      execute: (args: Record<string, unknown>, context: ToolContext) =>
        run(args, {
          toolCallId: `${name}-${++calls}`,
          ...(context.signal ? { abortSignal: context.signal } : {}),
          messages: [],
        }),
    };
  });
}

/**
 * An AI SDK tools record from toolgen tools, ready for `generateText({ tools })`. Each schema is wrapped as
 * the AI SDK's `jsonSchema()` would wrap it; `execute` runs through toolgen's executeToolCall (argument
 * validation and coercion, timeouts) and returns the tool's result text, or throws with the tool's error
 * message so the AI SDK reports a tool error. Tools without `execute` are left for the caller to run.
 */
export function toAiSdkTools(tools: readonly Tool[]): Record<string, AiSdkTool> {
  const record: Record<string, AiSdkTool> = {};
  for (const t of tools) {
    if (Object.hasOwn(record, t.name))
      throw new ToolgenError("invalid_option", `two tools are named ${t.name}`);
    const schema = jsonSchemaWrapper(t.parameters);
    const entry: AiSdkTool = { description: t.description, inputSchema: schema, parameters: schema };
    if (t.execute) {
      const execute = async (input: Record<string, unknown>, options: AiSdkExecuteOptions) => {
        const call = { id: options.toolCallId ?? t.name, type: "function" as const };
        const result = await executeToolCall(
          { ...call, function: { name: t.name, arguments: input } },
          [t],
          options.abortSignal ? { signal: options.abortSignal } : {},
        );
        if (!result.ok) throw new Error(result.error.message); // toolgen's messages name the tool
        return result.content;
      };
      entry.execute = execute as AiSdkTool["execute"];
    }
    record[t.name] = entry;
  }
  return record;
}

function jsonSchemaWrapper(parameters: ObjectSchema): JsonSchemaWrapper {
  return {
    [AI_SDK_SCHEMA]: true,
    [AI_SDK_VALIDATOR]: true,
    _type: undefined,
    jsonSchema: parameters,
    // toolgen validates (and coerces) in execute, where a failure becomes a tool error the model can read.
    validate: (value: unknown) => ({ success: true, value }),
  } as JsonSchemaWrapper;
}
