import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import type { ToolJson } from "../../tools/types.ts";
import { CatalogError, type CatalogEntry } from "../catalog.ts";
import { bfclParametersToSchema } from "./schema-types.ts";

/** A BFCL function doc as published: BFCL type names inside `parameters`. */
export interface BfclFunctionDoc {
  name: string;
  description?: string;
  parameters?: unknown;
}

/** One BFCL test item: the conversation turns, the offered functions (raw and as JSON Schema tools). */
export interface BfclItem {
  id: string;
  category: string;
  question: { role: string; content: string }[][];
  docs: BfclFunctionDoc[];
  tools: ToolJson[];
}

/** `{func_name: {param: [allowed values]}}` per expected call; `""` among the values = may be omitted. */
export type BfclExpectedCall = Record<string, Record<string, unknown[]>>;

const FILE_PATTERN = /^BFCL_v\d+_(.+)\.jsonl?$/;

/** Reads a JSON-lines file (BFCL's `.json` files hold one object per line). */
export function readJsonLines(file: string): unknown[] {
  const out: unknown[] = [];
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, i) => {
      if (line.trim() === "") return;
      try {
        out.push(JSON.parse(line));
      } catch (error) {
        throw new CatalogError(
          { file, record: `line ${i + 1}` },
          `not valid JSON (${(error as Error).message})`,
        );
      }
    });
  return out;
}

/** A BFCL function doc → the model-facing tool (HF/OpenAI form) with a JSON Schema. */
export function bfclDocToTool(raw: unknown, file: string, record: string): ToolJson {
  if (typeof raw !== "object" || raw === null)
    throw new CatalogError({ file, record }, "expected a function doc");
  const doc = raw as Record<string, unknown>;
  if (typeof doc.name !== "string" || doc.name === "") {
    throw new CatalogError({ file, record, field: "name" }, "function doc without a name");
  }
  const where = { file, record: `${record} (${doc.name})` };
  return {
    type: "function",
    function: {
      name: doc.name,
      description: typeof doc.description === "string" ? doc.description : "",
      parameters: bfclParametersToSchema(doc.parameters, where),
    },
  };
}

/** The categories present in a BFCL data folder (from `BFCL_v4_<category>.json`), sorted. */
export function bfclCategories(dir: string): string[] {
  return readdirSync(dir)
    .map((name) => FILE_PATTERN.exec(name)?.[1])
    .filter((c): c is string => c !== undefined)
    .sort();
}

function categoryFile(dir: string, category: string, sub = ""): string | undefined {
  const folder = join(dir, sub);
  if (!existsSync(folder)) return undefined;
  const name = readdirSync(folder).find((n) => FILE_PATTERN.exec(n)?.[1] === category);
  return name === undefined ? undefined : join(folder, name);
}

function parseItem(raw: unknown, file: string, category: string, i: number): BfclItem {
  const record = raw as Record<string, unknown>;
  const id = typeof record.id === "string" ? record.id : `${category}_${i}`;
  if (!Array.isArray(record.function))
    throw new CatalogError({ file, record: id, field: "function" }, "expected a list");
  if (!Array.isArray(record.question))
    throw new CatalogError({ file, record: id, field: "question" }, "expected a list");
  const docs = record.function as BfclFunctionDoc[];
  return {
    id,
    category,
    question: record.question as BfclItem["question"],
    docs,
    tools: docs.map((doc, j) => bfclDocToTool(doc, file, `${id}.function[${j}]`)),
  };
}

/** The items of one category of a BFCL data folder. */
export function readBfclCategory(dir: string, category: string): BfclItem[] {
  const file = categoryFile(dir, category);
  if (file === undefined) {
    throw new CatalogError(
      { file: dir },
      `no BFCL file for category "${category}" (have: ${bfclCategories(dir).join(", ")})`,
    );
  }
  return readJsonLines(file).map((raw, i) => parseItem(raw, file, category, i));
}

/** Possible answers by item id (`possible_answer/BFCL_v4_<category>.json`); empty when the file is absent. */
export function readBfclAnswers(dir: string, category: string): Map<string, BfclExpectedCall[]> {
  const file = categoryFile(dir, category, "possible_answer");
  const answers = new Map<string, BfclExpectedCall[]>();
  if (file === undefined) return answers;
  readJsonLines(file).forEach((raw, i) => {
    const record = raw as Record<string, unknown>;
    if (typeof record.id !== "string" || !Array.isArray(record.ground_truth)) {
      throw new CatalogError(
        { file, record: i, field: "ground_truth" },
        "expected {id, ground_truth: [...]}",
      );
    }
    answers.set(record.id, record.ground_truth as BfclExpectedCall[]);
  });
  return answers;
}

/** True for a BFCL data folder or one of its files. */
export function looksLikeBfcl(path: string): boolean {
  if (statSync(path).isDirectory()) return bfclCategories(path).length > 0;
  return FILE_PATTERN.test(basename(path));
}

/** A BFCL folder (all categories) or file → the union of its functions as catalog entries (name = id). */
export function importBfcl(path: string): CatalogEntry[] {
  const files = statSync(path).isDirectory()
    ? bfclCategories(path).map((c) => categoryFile(path, c) as string)
    : [path];
  const byName = new Map<string, CatalogEntry>();
  for (const file of files) {
    const category = FILE_PATTERN.exec(basename(file))?.[1] ?? basename(file);
    readJsonLines(file).forEach((raw, i) => {
      for (const [j, tool] of parseItem(raw, file, category, i).tools.entries()) {
        const { name, description, parameters } = tool.function;
        if (byName.has(name)) continue;
        const doc = (raw as { function: unknown[] }).function[j];
        byName.set(name, { id: name, tool: name, api: "", category, description, parameters, doc });
      }
    });
  }
  return [...byName.values()];
}
