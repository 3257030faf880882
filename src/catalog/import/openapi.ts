import type { JsonSchema, ObjectSchema } from "../../tools/types.ts";
import { CatalogError, catalogId, type CatalogEntry } from "../catalog.ts";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** True for an OpenAPI 3 document (JSON). */
export function looksLikeOpenApi(data: unknown): boolean {
  return (
    typeof data === "object" && data !== null && typeof (data as Record<string, unknown>).openapi === "string"
  );
}

/** Resolves local `$ref`s (`#/components/...`), with a depth limit against cycles. */
function resolveRefs(node: unknown, root: unknown, file: string, depth = 0): unknown {
  if (depth > 32) return {};
  if (Array.isArray(node)) return node.map((n) => resolveRefs(n, root, file, depth + 1));
  if (typeof node !== "object" || node === null) return node;
  const record = node as Record<string, unknown>;
  if (typeof record.$ref === "string") {
    const ref = record.$ref;
    if (!ref.startsWith("#/"))
      throw new CatalogError({ file, field: "$ref" }, `only local $refs are supported: ${ref}`);
    let target: unknown = root;
    for (const part of ref.slice(2).split("/")) {
      const key = part.replace(/~1/g, "/").replace(/~0/g, "~");
      target = (target as Record<string, unknown> | undefined)?.[key];
      if (target === undefined) throw new CatalogError({ file, field: "$ref" }, `unresolved $ref ${ref}`);
    }
    return resolveRefs(target, root, file, depth + 1);
  }
  return Object.fromEntries(
    Object.entries(record).map(([k, v]) => [k, resolveRefs(v, root, file, depth + 1)]),
  );
}

/** Path, query and header parameters plus a JSON request body's properties → one object schema. */
function operationSchema(pathParams: unknown[], operation: Record<string, unknown>): ObjectSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const params = [...pathParams, ...((operation.parameters as unknown[] | undefined) ?? [])];
  for (const raw of params) {
    const p = raw as Record<string, unknown>;
    if (typeof p.name !== "string" || p.in === "cookie") continue;
    const schema: JsonSchema = { ...((p.schema as JsonSchema | undefined) ?? { type: "string" }) };
    if (typeof p.description === "string" && schema.description === undefined)
      schema.description = p.description;
    properties[p.name] = schema;
    if ((p.required === true || p.in === "path") && !required.includes(p.name)) required.push(p.name);
  }
  const body = operation.requestBody as Record<string, unknown> | undefined;
  const content = body?.content as Record<string, { schema?: JsonSchema }> | undefined;
  const bodySchema = content?.["application/json"]?.schema;
  if (bodySchema?.type === "object" || bodySchema?.properties !== undefined) {
    Object.assign(properties, bodySchema.properties ?? {});
    if (body?.required === true)
      for (const r of bodySchema.required ?? []) if (!required.includes(r)) required.push(r);
  } else if (bodySchema !== undefined) {
    properties.body = bodySchema;
    if (body?.required === true) required.push("body");
  }
  return { type: "object", properties, required };
}

/** An OpenAPI 3 document → one entry per operation; id `title&&operationId` (or `METHOD path`). */
export function importOpenApi(data: unknown, file: string): CatalogEntry[] {
  if (!looksLikeOpenApi(data))
    throw new CatalogError({ file, field: "openapi" }, "not an OpenAPI 3 document");
  const doc = resolveRefs(data, data, file) as Record<string, unknown>;
  const info = (doc.info ?? {}) as Record<string, unknown>;
  const tool = typeof info.title === "string" && info.title !== "" ? info.title : "api";
  const paths = doc.paths;
  if (typeof paths !== "object" || paths === null)
    throw new CatalogError({ file, field: "paths" }, "expected an object");
  const entries: CatalogEntry[] = [];
  for (const [path, item] of Object.entries(paths as Record<string, Record<string, unknown>>)) {
    const pathParams = (item.parameters as unknown[] | undefined) ?? [];
    for (const method of METHODS) {
      const operation = item[method] as Record<string, unknown> | undefined;
      if (operation === undefined) continue;
      const api =
        typeof operation.operationId === "string" ? operation.operationId : `${method.toUpperCase()} ${path}`;
      const description = [operation.summary, operation.description]
        .filter((s) => typeof s === "string")
        .join(". ");
      const tags = operation.tags as string[] | undefined;
      entries.push({
        id: catalogId(tool, api),
        tool,
        api,
        ...(tags?.[0] === undefined ? {} : { category: tags[0] }),
        description,
        parameters: operationSchema(pathParams, operation),
        doc: { method: method.toUpperCase(), path, ...operation },
      });
    }
  }
  if (entries.length === 0) throw new CatalogError({ file, field: "paths" }, "no operations found");
  return entries;
}
