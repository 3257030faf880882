import { checkToolName } from "./define.ts";
import { toObjectSchema } from "./schema.ts";
import { paramSchema, type ParamOptions, type ParamType } from "./spec-builder.ts";
import type { JsonSchema, Tool, ToolContext } from "./types.ts";
import { ToolgenError } from "../errors.ts";

/**
 * Standard (TC39) decorators have no parameter decorators, so the method decorator carries the
 * parameter list in positional order: documented parameters (`P`, LangChain4j's @P), and slots that
 * receive the caller's memory id (`memoryId()`, @ToolMemoryId) or the whole context (`toolContext()`).
 * Those slots never appear in the schema.
 */
export interface ParamDoc {
  kind: "param";
  name: string;
  schema: JsonSchema;
  required: boolean;
}
export type MethodParam = ParamDoc | { kind: "memoryId" } | { kind: "context" };

export function P(
  name: string,
  type: ParamType | JsonSchema,
  description?: string,
  opts: ParamOptions = {},
): ParamDoc {
  return {
    kind: "param",
    name,
    schema: paramSchema(type, description, opts),
    required: opts.required !== false,
  };
}
export function memoryId(): MethodParam {
  return { kind: "memoryId" };
}
export function toolContext(): MethodParam {
  return { kind: "context" };
}

interface MethodMeta {
  name: string;
  description: string;
  params: MethodParam[];
}

// A global symbol, not a WeakMap: a module loaded twice (e.g. by tsx's loader) still sees the marks.
const TOOL_META = Symbol.for("toolgen.toolMethod");

type Method = (...args: never[]) => unknown;

/** `@toolMethod("description", P("city", "string", "The city"), memoryId())`, or `{name, description}` first. */
export function toolMethod(spec: string | { name?: string; description: string }, ...params: MethodParam[]) {
  const names = params.filter((p): p is ParamDoc => p.kind === "param").map((p) => p.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new ToolgenError("invalid_tool", `toolMethod: parameter "${dup}" declared twice`);
  return function decorate<M extends Method>(method: M, context: ClassMethodDecoratorContext): void {
    if (context.kind !== "method")
      throw new ToolgenError("invalid_tool", "toolMethod decorates methods only");
    const description = typeof spec === "string" ? spec : spec.description;
    const name = checkToolName((typeof spec === "object" && spec.name) || String(context.name), "toolMethod");
    const meta: MethodMeta = { name, description, params };
    Object.defineProperty(method, TOOL_META, { value: meta });
  };
}

function metaOf(value: unknown): MethodMeta | undefined {
  return typeof value === "function"
    ? (value as unknown as Record<symbol, MethodMeta>)[TOOL_META]
    : undefined;
}

/** True when an object (or a class's prototype) has decorated tool methods. */
export function hasToolMethods(target: object): boolean {
  return methodNames(target).length > 0;
}

function methodNames(target: object): string[] {
  const found: string[] = [];
  for (let proto = target; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      const desc = Object.getOwnPropertyDescriptor(proto, key);
      if (desc && "value" in desc && metaOf(desc.value) && !found.includes(key)) found.push(key);
    }
  }
  return found;
}

/** The tools of an instance (LangChain4j's ToolSpecifications.toolSpecificationsFrom), bound to it. */
export function toolsFrom(instance: object): Tool[] {
  return methodNames(instance).map((key) => {
    const method = (instance as Record<string, Method>)[key]!;
    const meta = metaOf(method)!;
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const p of meta.params) {
      if (p.kind !== "param") continue;
      properties[p.name] = p.schema;
      if (p.required) required.push(p.name);
    }
    const parameters = toObjectSchema({ type: "object", properties, required }, `tool ${meta.name}`);
    const execute = (args: Record<string, unknown>, context: ToolContext) => {
      const positional = meta.params.map((p) =>
        p.kind === "memoryId" ? context.memoryId : p.kind === "context" ? context : args[p.name],
      );
      return (method as unknown as (...a: unknown[]) => unknown).apply(instance, positional);
    };
    return { name: meta.name, description: meta.description, parameters, execute };
  });
}
