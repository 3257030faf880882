import type { z } from "zod";
import { isZodSchema, normalizeSchema, toObjectSchema, zodToParameters } from "./schema.ts";
import type { JsonSchema, ObjectSchema, Tool, ToolContext, ToolJson } from "./types.ts";
import { ToolgenError } from "../errors.ts";

/** Thrown by a tool wrapper when arguments pass the JSON Schema but fail the tool's own check (zod refinements). */
export class ToolInputError extends ToolgenError {
  override name = "ToolInputError";
  constructor(message: string, options?: { cause?: unknown }) {
    super("tool_input", message, options);
  }
}

const NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** OpenAI and most chat templates accept only these names; say so at definition time rather than at call time. */
export function checkToolName(name: unknown, where = "tool"): string {
  if (typeof name !== "string" || !NAME_PATTERN.test(name)) {
    throw new ToolgenError(
      "invalid_tool",
      `${where}: invalid tool name ${JSON.stringify(name)}; use 1-64 characters from A-Z a-z 0-9 _ . -`,
    );
  }
  return name;
}

interface ZodToolDef<S extends z.ZodType> {
  name: string;
  description: string;
  inputSchema: S;
  execute?: (args: z.output<S>, context: ToolContext) => unknown;
}

interface JsonToolDef {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  execute?: (args: Record<string, unknown>, context: ToolContext) => unknown;
}

/** Defines a tool from a zod 4 schema (AI SDK style) or a raw JSON Schema object. */
export function tool<S extends z.ZodType>(def: ZodToolDef<S>): Tool;
export function tool(def: JsonToolDef): Tool;
export function tool(def: ZodToolDef<z.ZodType> | JsonToolDef): Tool {
  const name = checkToolName(def.name);
  const where = `tool ${name}`;
  if (typeof def.description !== "string")
    throw new ToolgenError("invalid_tool", `${where}: description must be a string`);
  const input: unknown = def.inputSchema;
  if (isZodSchema(input)) {
    const parameters = zodToParameters(input, where);
    const run = def.execute as ZodToolDef<z.ZodType>["execute"];
    const execute = run
      ? async (args: Record<string, unknown>, context: ToolContext) => {
          // zod applies defaults and transforms, so the function sees the typed output.
          const parsed = await input.safeParseAsync(args);
          if (!parsed.success) {
            const issues = parsed.error.issues.map((i) => `/${i.path.join("/")}: ${i.message}`);
            throw new ToolInputError(issues.join("; "));
          }
          return run(parsed.data, context);
        }
      : undefined;
    return { name, description: def.description, parameters, ...(execute ? { execute } : {}) };
  }
  const parameters = toObjectSchema(input as JsonSchema, where);
  const run = (def as JsonToolDef).execute;
  return { name, description: def.description, parameters, ...(run ? { execute: run } : {}) };
}

/** The model-facing HF/OpenAI form, with HF's key order. */
export function toToolJson(t: Pick<Tool, "name" | "description" | "parameters">): ToolJson {
  return {
    type: "function",
    function: {
      name: t.name,
      description: t.description,
      parameters: normalizeSchema(t.parameters) as ObjectSchema,
    },
  };
}

/** True for a value already in the HF/OpenAI tool form (e.g. the `current_time` dict of Hugging Face's tool-use guide). */
export function isToolJson(value: unknown): value is ToolJson {
  if (typeof value !== "object" || value === null) return false;
  const v = value as { type?: unknown; function?: { name?: unknown } };
  return v.type === "function" && typeof v.function === "object" && typeof v.function?.name === "string";
}

/** A Tool from the HF/OpenAI JSON form (no code attached unless given). */
export function fromToolJson(json: ToolJson, execute?: Tool["execute"]): Tool {
  const name = checkToolName(json.function.name);
  const description = json.function.description ?? "";
  const parameters = toObjectSchema(
    json.function.parameters ?? { type: "object", properties: {} },
    `tool ${name}`,
  );
  return { name, description, parameters, ...(execute ? { execute } : {}) };
}

/** True for a Tool object (name, description and object parameters). */
export function isTool(value: unknown): value is Tool {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Partial<Tool>;
  return typeof v.name === "string" && typeof v.description === "string" && typeof v.parameters === "object";
}
