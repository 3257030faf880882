import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { writeFileAtomic } from "../../io/atomic.ts";
import { sandboxPath, sandboxRoot } from "./sandbox.ts";

/**
 * Files inside the demo's sandbox folder, JSON and CSV queries: plain exported functions documented with JSDoc
 * (schemas read by `loadTools` with the TypeScript compiler API).
 */

function readText(path: string): string {
  const full = sandboxPath(path);
  if (!existsSync(full))
    throw new Error(`no file ${JSON.stringify(path)} in the sandbox (list_files shows them)`);
  return readFileSync(full, "utf8");
}

function csvRows(path: string): { header: string[]; rows: string[][] } {
  const [head, ...rest] = readText(path).trim().split(/\r?\n/);
  return { header: (head ?? "").split(","), rows: rest.map((line) => line.split(",")) };
}

/** List the files in the sandbox folder with their sizes. */
export function list_files(): string {
  const root = sandboxRoot();
  return readdirSync(root)
    .filter((name) => statSync(`${root}/${name}`).isFile())
    .sort()
    .map((name) => `${name} (${statSync(`${root}/${name}`).size} bytes)`)
    .join(", ");
}

/**
 * Read a text file from the sandbox folder.
 *
 * @param path The file name, e.g. notes.txt
 */
export function read_file(path: string): string {
  return readText(path);
}

/**
 * Count the lines of a file in the sandbox folder.
 *
 * @param path The file name
 */
export function count_lines(path: string): string {
  const text = readText(path);
  const lines = text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  return `${path} has ${lines} lines`;
}

/**
 * The size of a file in the sandbox folder, in bytes.
 *
 * @param path The file name
 */
export function file_size(path: string): string {
  readText(path);
  return `${path} is ${statSync(sandboxPath(path)).size} bytes`;
}

/**
 * Write a text file into the sandbox folder (replacing it if it exists).
 *
 * @param path The file name
 * @param content The text to write
 */
export function write_file(path: string, content: string): string {
  writeFileAtomic(sandboxPath(path), content);
  return `wrote ${Buffer.byteLength(content)} bytes to ${path}`;
}

/**
 * Read one value out of a JSON file in the sandbox by a dotted path such as server.port.
 *
 * @param path The JSON file name
 * @param key The dotted path of the value
 */
export function json_get(path: string, key: string): string {
  const root: unknown = JSON.parse(readText(path));
  const found = dottedPath(root, key) ?? nestedKey(root, key);
  if (found === undefined) throw new Error(`${path} has no ${JSON.stringify(key)}`);
  return `${found.key} = ${JSON.stringify(found.value)}`;
}

function dottedPath(root: unknown, key: string): { key: string; value: unknown } | undefined {
  let value = root;
  for (const part of key.split(".")) {
    if (typeof value !== "object" || value === null || !(part in value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return { key, value };
}

/**
 * A key as a person names it ("port" for server.port, any letter case): the one nested key of that name, or
 * undefined when there is none or more than one.
 */
function nestedKey(root: unknown, name: string): { key: string; value: unknown } | undefined {
  const hits: { key: string; value: unknown }[] = [];
  const visit = (value: unknown, at: string) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return;
    for (const [k, v] of Object.entries(value)) {
      const key = at ? `${at}.${k}` : k;
      if (k.toLowerCase() === name.trim().toLowerCase()) hits.push({ key, value: v });
      visit(v, key);
    }
  };
  visit(root, "");
  return hits.length === 1 ? hits[0] : undefined;
}

/** The index of a CSV column named as a person may type it (any letter case, spaces around). */
function columnIndex(header: string[], column: string): number {
  const exact = header.indexOf(column);
  if (exact >= 0) return exact;
  const wanted = column.trim().toLowerCase();
  return header.findIndex((h) => h.trim().toLowerCase() === wanted);
}

/**
 * List the top-level keys of a JSON file in the sandbox.
 *
 * @param path The JSON file name
 */
export function json_keys(path: string): string {
  const value: unknown = JSON.parse(readText(path));
  if (typeof value !== "object" || value === null) throw new Error(`${path} does not hold a JSON object`);
  return Object.keys(value).join(", ");
}

/**
 * Sum a numeric column of a CSV file in the sandbox.
 *
 * @param path The CSV file name
 * @param column The column name
 */
export function csv_column_sum(path: string, column: string): string {
  const { header, rows } = csvRows(path);
  const i = columnIndex(header, column);
  if (i < 0)
    throw new Error(`${path} has no column ${JSON.stringify(column)}; columns: ${header.join(", ")}`);
  return `sum of ${header[i]} = ${rows.reduce((s, r) => s + Number(r[i]), 0)}`;
}

/**
 * Count the data rows of a CSV file in the sandbox (the header is not counted).
 *
 * @param path The CSV file name
 */
export function csv_row_count(path: string): string {
  return `${path} has ${csvRows(path).rows.length} rows`;
}

/**
 * The largest value of a numeric column of a CSV file in the sandbox, with its row.
 *
 * @param path The CSV file name
 * @param column The column name
 */
export function csv_column_max(path: string, column: string): string {
  const { header, rows } = csvRows(path);
  const i = columnIndex(header, column);
  if (i < 0 || rows.length === 0)
    throw new Error(`${path} has no column ${JSON.stringify(column)}; columns: ${header.join(", ")}`);
  const best = rows.reduce((a, b) => (Number(b[i]) > Number(a[i]) ? b : a));
  return `max ${header[i]} = ${best[i]} (${best.join(",")})`;
}
