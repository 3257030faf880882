import { checkToolName } from "./define.ts";
import { toObjectSchema } from "./schema.ts";
import type { JsonSchema, Tool, ToolExecute } from "./types.ts";
import { ToolgenError } from "../errors.ts";

export type ParamType = "string" | "number" | "integer" | "boolean" | "array" | "object";

export interface ParamOptions {
  /** Required unless set to false (as LangChain4j's addParameter). */
  required?: boolean;
  enum?: readonly (string | number | boolean)[];
  /** Item schema of an array parameter: a type name or a full schema. */
  items?: ParamType | JsonSchema;
  /** Properties of an object parameter. */
  properties?: Record<string, JsonSchema>;
  default?: unknown;
}

/** Builds one parameter's schema; shared by the builder and the method decorator. */
export function paramSchema(
  type: ParamType | JsonSchema,
  description?: string,
  opts: ParamOptions = {},
): JsonSchema {
  const schema: JsonSchema = typeof type === "string" ? { type } : { ...type };
  if (opts.enum) schema.enum = [...opts.enum];
  if (opts.items) schema.items = typeof opts.items === "string" ? { type: opts.items } : opts.items;
  if (opts.properties) schema.properties = opts.properties;
  if (description !== undefined) schema.description = description;
  if (opts.default !== undefined) schema.default = opts.default;
  return schema;
}

/** LangChain4j-style ToolSpecification builder: `toolSpec().name(..).description(..).param(..).build()`. */
export class ToolSpec {
  #name?: string;
  #description = "";
  #properties: Record<string, JsonSchema> = {};
  #required: string[] = [];
  #execute?: ToolExecute;

  name(name: string): this {
    this.#name = checkToolName(name, "ToolSpec.name");
    return this;
  }

  description(description: string): this {
    this.#description = description;
    return this;
  }

  param(name: string, type: ParamType | JsonSchema, description?: string, opts: ParamOptions = {}): this {
    if (name in this.#properties)
      throw new ToolgenError("invalid_tool", `ToolSpec: parameter "${name}" declared twice`);
    this.#properties[name] = paramSchema(type, description, opts);
    if (opts.required !== false) this.#required.push(name);
    return this;
  }

  execute(fn: ToolExecute): this {
    this.#execute = fn;
    return this;
  }

  build(): Tool {
    if (this.#name === undefined)
      throw new ToolgenError("invalid_tool", "ToolSpec.build: call name(...) first");
    const parameters = toObjectSchema(
      { type: "object", properties: { ...this.#properties }, required: [...this.#required] },
      `tool ${this.#name}`,
    );
    const tool: Tool = { name: this.#name, description: this.#description, parameters };
    if (this.#execute) tool.execute = this.#execute;
    return tool;
  }
}

export function toolSpec(): ToolSpec {
  return new ToolSpec();
}
