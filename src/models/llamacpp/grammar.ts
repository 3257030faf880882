/**
 * JSON Schema -> GBNF (llama.cpp's grammar format), so a model can only write JSON the schema accepts:
 * objects with their properties in schema order (required ones always, optional ones optionally), enums,
 * consts, anyOf/oneOf, arrays, numbers, integers, strings, booleans, null, local $refs. Keywords the grammar
 * cannot express (minimum, pattern, …) are left to validation after generation. Whitespace is limited to one
 * optional space and numbers to 16 digits, so a small model cannot pad forever.
 */
import type { JsonSchema } from "../../tools/types.ts";

const PRIMITIVES: Record<string, string> = {
  ws: '" "?',
  string:
    '"\\"" ( [^"\\\\\\x00-\\x1F] | "\\\\" ( ["\\\\/bfnrt] | "u" [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] ) )* "\\""',
  integer: '"-"? ( "0" | [1-9] [0-9]{0,15} )',
  number: '"-"? ( "0" | [1-9] [0-9]{0,15} ) ( "." [0-9]{1,16} )? ( [eE] [-+]? [0-9]{1,3} )?',
  boolean: '"true" | "false"',
  null: '"null"',
  value: "object | array | string | number | boolean | null",
  object: '"{" ws ( string ":" ws value ( "," ws string ":" ws value )* )? "}"',
  array: '"[" ws ( value ( "," ws value )* )? "]"',
};

/** A GBNF string literal for exact text. */
export function gbnfLiteral(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '"' || ch === "\\") out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20) out += "\\x" + code.toString(16).padStart(2, "0");
    else out += ch;
  }
  return out + '"';
}

/** Builds named rules; primitives are added once, on first use. */
export class GrammarBuilder {
  private readonly rules = new Map<string, string>();
  private readonly refs = new Map<string, string>();
  private counter = 0;

  private rootIndex = 0;

  constructor(private root: JsonSchema = {}) {}

  /** The schema whose $defs later $refs point into (one per tool when several share a grammar). */
  setRoot(root: JsonSchema): void {
    this.root = root;
    this.rootIndex++;
  }

  /** A rule name for a primitive (string, number, value, …), defining it and what it uses. */
  primitive(name: keyof typeof PRIMITIVES): string {
    if (!this.rules.has(name)) {
      this.rules.set(name, PRIMITIVES[name]!);
      const uses: Record<string, (keyof typeof PRIMITIVES)[]> = {
        value: ["object", "array", "string", "number", "boolean", "null"],
        object: ["ws", "string", "value"],
        array: ["ws", "value"],
      };
      for (const u of uses[name] ?? []) this.primitive(u);
    }
    return name;
  }

  /** Adds a rule with a fresh name and returns the name. */
  rule(body: string, hint = "r"): string {
    const name = `${
      hint
        .replace(/[^a-zA-Z0-9]+/g, "-")
        .replace(/^-|-$/g, "")
        .toLowerCase() || "r"
    }-${++this.counter}`;
    this.rules.set(name, body);
    return name;
  }

  /** The rule (or inline expression) that matches JSON accepted by `schema`. */
  schema(schema: JsonSchema | boolean | undefined, hint = "v"): string {
    if (schema === undefined || schema === true || typeof schema !== "object") return this.primitive("value");
    if (typeof schema.$ref === "string") return this.ref(schema.$ref);
    if ("const" in schema) return gbnfLiteral(JSON.stringify(schema.const));
    if (Array.isArray(schema.enum)) {
      if (schema.enum.length === 0) throw new Error(`schema ${hint}: an empty enum accepts nothing`);
      return this.rule(schema.enum.map((v) => gbnfLiteral(JSON.stringify(v))).join(" | "), hint);
    }
    const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
    if (Array.isArray(alternatives) && alternatives.length > 0) {
      return this.rule(alternatives.map((s, i) => this.schema(s, `${hint}-${i}`)).join(" | "), hint);
    }
    if (Array.isArray(schema.type)) {
      return this.rule(schema.type.map((t) => this.schema({ ...schema, type: t }, hint)).join(" | "), hint);
    }
    switch (schema.type) {
      case "string":
      case "integer":
      case "number":
      case "boolean":
      case "null":
        return this.primitive(schema.type);
      case "array":
        return this.array(schema, hint);
      case "object":
        return this.object(schema, hint);
      default:
        if (schema.properties) return this.object(schema, hint);
        return this.primitive("value");
    }
  }

  private ref(ref: string): string {
    const key = `${this.rootIndex}:${ref}`;
    const known = this.refs.get(key);
    if (known) return known;
    const m = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
    const target = m ? (this.root[m[1]!] as Record<string, JsonSchema> | undefined)?.[m[2]!] : undefined;
    if (!target) throw new Error(`schema $ref "${ref}" is not a local #/$defs/… or #/definitions/… entry`);
    const name = this.rule("", `ref-${m![2]}`);
    this.refs.set(key, name); // registered before recursing, so recursive schemas terminate
    this.rules.set(name, this.schema(target, name));
    return name;
  }

  private array(schema: JsonSchema, hint: string): string {
    const items = Array.isArray(schema.items) ? undefined : schema.items;
    const item = this.schema(items, `${hint}-item`);
    const ws = this.primitive("ws");
    const min = typeof schema.minItems === "number" ? schema.minItems : 0;
    const more = `( "," ${ws} ${item} )*`;
    const body = min >= 1 ? `${item} ${more}` : `( ${item} ${more} )?`;
    return this.rule(`"[" ${ws} ${body} "]"`, hint);
  }

  private object(schema: JsonSchema, hint: string): string {
    const props = Object.entries(schema.properties ?? {});
    if (props.length === 0) return this.primitive("object");
    const required = new Set(schema.required ?? []);
    const ws = this.primitive("ws");
    const pair = ([key, sub]: [string, JsonSchema]) =>
      `${gbnfLiteral(JSON.stringify(key))} ":" ${ws} ${this.schema(sub, `${hint}-${key}`)}`;
    const req = props.filter(([k]) => required.has(k)).map(pair);
    const opt = props.filter(([k]) => !required.has(k)).map(pair);
    let body: string;
    if (req.length > 0) {
      body = [req.join(` "," ${ws} `), ...opt.map((p) => `( "," ${ws} ${p} )?`)].join(" ");
    } else {
      // No required key: the first property written carries no comma; each choice of first one is an alternative.
      const chains = opt.map((p, i) => [p, ...opt.slice(i + 1).map((q) => `( "," ${ws} ${q} )?`)].join(" "));
      body = `( ${chains.map((c) => `( ${c} )`).join(" | ")} )?`;
    }
    return this.rule(`"{" ${ws} ${body} "}"`, hint);
  }

  /** The grammar text with `root ::= rootExpr` first. */
  build(rootExpr: string): string {
    const lines = [`root ::= ${rootExpr}`];
    for (const [name, body] of this.rules) lines.push(`${name} ::= ${body}`);
    return lines.join("\n") + "\n";
  }
}

/** A grammar for JSON accepted by `schema`. */
export function jsonSchemaGrammar(schema: JsonSchema): string {
  const b = new GrammarBuilder(schema);
  return b.build(b.schema(schema, "root"));
}

/** A grammar for exactly one of the given strings. */
export function choiceGrammar(options: readonly string[]): string {
  if (options.length === 0) throw new Error("a choice constraint needs at least one option");
  return `root ::= ${options.map(gbnfLiteral).join(" | ")}\n`;
}
