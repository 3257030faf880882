import type { CatalogEntry } from "../catalog/catalog.ts";
import type { JsonSchema } from "../tools/types.ts";
import { isPlainObject } from "../plain-object.ts";
import type { ValuePool } from "./value-pool.ts";
import { examplesIn } from "./values.ts";
import { nameWords } from "./words.ts";

/** A value pool (value-pool.ts) from every string value the catalogs' own schemas give. */
const MAX_CHARS = 40;
const MAX_WORDS = 4;

function usable(v: unknown): v is string {
  return (
    typeof v === "string" &&
    v.trim() === v &&
    v !== "" &&
    v.length <= MAX_CHARS &&
    !/[\n\r\t]/.test(v) &&
    v.split(/\s+/).length <= MAX_WORDS
  );
}

/** The values one string schema lists or describes. */
function valuesOf(schema: JsonSchema): string[] {
  const listed = [
    ...(Array.isArray(schema.examples) ? schema.examples : []),
    schema.example,
    schema.default,
    ...(Array.isArray(schema.enum) ? schema.enum : []),
  ];
  return [...listed, ...examplesIn(schema.description)].filter(usable);
}

/** The pool of every string parameter (top level and nested) of the catalogs' tools. */
export function catalogValuePool(catalogs: readonly (readonly CatalogEntry[])[], share: number): ValuePool {
  const byWord = new Map<string, Set<string>>();
  const all = new Set<string>();
  const visit = (name: string, schema: JsonSchema, depth: number) => {
    if (depth > 4 || !isPlainObject(schema)) return;
    if (isPlainObject(schema.properties))
      for (const [k, s] of Object.entries(schema.properties as Record<string, JsonSchema>))
        visit(k, s, depth + 1);
    if (isPlainObject(schema.items)) visit(name, schema.items as JsonSchema, depth + 1);
    if (name === "") return;
    for (const value of valuesOf(schema)) {
      all.add(value);
      for (const word of nameWords(name).split(" ")) {
        if (word === "") continue;
        let set = byWord.get(word);
        if (set === undefined) byWord.set(word, (set = new Set()));
        set.add(value);
      }
    }
  };
  for (const catalog of catalogs) for (const entry of catalog) visit("", entry.parameters, 0);
  return {
    share,
    byWord: new Map([...byWord].map(([w, s]) => [w, [...s].sort()])),
    all: [...all].sort(),
  };
}
