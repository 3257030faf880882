import { ToolgenError } from "../errors.ts";

/**
 * A small YAML writer for training configs: mappings, sequences, strings, numbers, booleans and null. Strings
 * are written plain when YAML reads them back as the same string, double-quoted (JSON escapes, valid YAML)
 * otherwise, so a value never changes type on the way.
 */
export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };

const PLAIN = /^[A-Za-z_./][A-Za-z0-9_./-]*$/;
const RESERVED = /^(true|false|yes|no|on|off|null|~|y|n)$/i;

function scalar(value: string | number | boolean | null): string {
  if (value === null) return "null";
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value))
      throw new ToolgenError("invalid_input", `YAML: ${value} is not a finite number`);
    // YAML 1.1 readers (PyYAML) need a dot in floats written with an exponent: 4.0e-05, not 4e-05.
    const text = String(value);
    return /e/.test(text) && !/\./.test(text) ? text.replace("e", ".0e") : text;
  }
  return PLAIN.test(value) && !RESERVED.test(value) ? value : JSON.stringify(value);
}

function isMapping(v: YamlValue): v is { [key: string]: YamlValue } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function lines(value: YamlValue, indent: string): string[] {
  if (isMapping(value)) {
    return Object.entries(value).flatMap(([k, v]) => {
      const key = scalar(k);
      if ((isMapping(v) && Object.keys(v).length > 0) || (Array.isArray(v) && v.length > 0))
        return [`${indent}${key}:`, ...lines(v, Array.isArray(v) ? indent : indent + "  ")];
      return [`${indent}${key}: ${inline(v)}`];
    });
  }
  if (Array.isArray(value)) {
    return value.flatMap((item) => {
      if (!isMapping(item) || Object.keys(item).length === 0) return [`${indent}- ${inline(item)}`];
      const [first, ...rest] = lines(item, indent + "  ");
      return [`${indent}- ${first!.trimStart()}`, ...rest];
    });
  }
  return [`${indent}${scalar(value)}`];
}

function inline(value: YamlValue): string {
  if (Array.isArray(value)) return `[${value.map(inline).join(", ")}]`;
  if (isMapping(value))
    return `{${Object.entries(value)
      .map(([k, v]) => `${scalar(k)}: ${inline(v)}`)
      .join(", ")}}`;
  return scalar(value);
}

/** A YAML document for a mapping; `comments` become leading `#` lines. */
export function toYaml(value: { [key: string]: YamlValue }, comments: string[] = []): string {
  return [...comments.map((c) => `# ${c}`), ...lines(value, "")].join("\n") + "\n";
}
