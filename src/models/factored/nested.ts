/**
 * Object parameters whose schema declares their own properties ("options: {issuer, role, algorithm}"): the
 * caller fills each property as a parameter of its own, named `parent.child` (its words and description are the
 * cues the scorer reads, as a top-level parameter's), and the chosen values are put back together as the object.
 * A schema transformation, the same for any catalog; one level deep.
 */
import type { JsonSchema, ObjectSchema, ToolJson } from "../../tools/types.ts";

const SEPARATOR = ".";

type Props = Record<string, JsonSchema>;

/** The object parameters of a tool that declare properties of their own, or none to flatten. */
function nestedParents(tool: ToolJson): string[] {
  const props = (tool.function.parameters.properties ?? {}) as Props;
  const names = Object.keys(props);
  // a name already holding the separator would be ambiguous: such a tool is left as it is
  if (names.some((n) => n.includes(SEPARATOR))) return [];
  return names.filter((n) => {
    const s = props[n]! as JsonSchema & { properties?: Props };
    const children = Object.keys(s.properties ?? {});
    return s.type === "object" && children.length > 0 && !children.some((c) => c.includes(SEPARATOR));
  });
}

/**
 * The tool with each such object parameter replaced by its properties (`parent.child`): a child is required when
 * its parent is and the parent's schema requires it.
 */
export function flattenTool(tool: ToolJson): ToolJson {
  const parents = new Set(nestedParents(tool));
  if (parents.size === 0) return tool;
  const schema = tool.function.parameters;
  const props = (schema.properties ?? {}) as Props;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const outProps: Props = {};
  const outRequired: string[] = [];
  for (const [name, s] of Object.entries(props)) {
    if (!parents.has(name)) {
      outProps[name] = s;
      if (required.has(name)) outRequired.push(name);
      continue;
    }
    const parent = s as JsonSchema & { properties: Props; required?: string[] };
    const inner = new Set(Array.isArray(parent.required) ? parent.required : []);
    for (const [child, cs] of Object.entries(parent.properties)) {
      const key = `${name}${SEPARATOR}${child}`;
      outProps[key] = cs;
      if (required.has(name) && inner.has(child)) outRequired.push(key);
    }
  }
  const parameters: ObjectSchema = { ...schema, properties: outProps, required: outRequired };
  return { ...tool, function: { ...tool.function, parameters } };
}

/** The arguments of a flattened tool's call put back as the original tool takes them. */
export function nestArguments(tool: ToolJson, args: Record<string, unknown>): Record<string, unknown> {
  const parents = new Set(nestedParents(tool));
  if (parents.size === 0) return args;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    const at = key.indexOf(SEPARATOR);
    const parent = at < 0 ? "" : key.slice(0, at);
    if (!parents.has(parent)) {
      out[key] = value;
      continue;
    }
    const object = (out[parent] ?? {}) as Record<string, unknown>;
    object[key.slice(at + 1)] = value;
    out[parent] = object;
  }
  return out;
}
