/**
 * JSON Schema -> GBNF (llama.cpp's grammar format), so a model can only write JSON the schema accepts. The
 * schema is read by `normaliseSchema` (src/constrain/schema-node.ts), the same walk the built-in engine's
 * token constraint uses, so both accept the same keywords the same way: objects with their required properties
 * first and then the optional ones (each group in schema order), enums and consts (filtered by the type),
 * anyOf/oneOf, type lists, nullable, arrays with minItems/maxItems, strings with minLength/maxLength,
 * integers (a small minimum..maximum range as an enum) and numbers (no minus sign when the minimum is ≥ 0),
 * booleans, null, local $refs. Keywords the grammar cannot express (other number bounds, pattern, …) are left
 * to validation after generation. Numbers have at most 16 integer and 16 fraction digits and no exponent.
 * Unlike the built-in constraint (compact JSON, default length bounds) the grammar allows one optional space
 * after `{`, `[`, `:` and `,`, and leaves unbounded strings and arrays to maxTokens.
 */
import { normaliseSchema, type SchemaNode } from "../../constrain/schema-node.ts";
import type { JsonSchema } from "../../tools/types.ts";
import { ToolgenError } from "../../errors.ts";

const DIGITS = '( "0" | [1-9] [0-9]{0,15} )';
const FRACTION = '( "." [0-9]{1,16} )?';

const PRIMITIVES: Record<string, string> = {
  ws: '" "?',
  char: '[^"\\\\\\x00-\\x1F] | "\\\\" ( ["\\\\/bfnrt] | "u" [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] )',
  string: '"\\"" char* "\\""',
  integer: `"-"? ${DIGITS}`,
  natural: DIGITS,
  number: `"-"? ${DIGITS} ${FRACTION}`,
  "unsigned-number": `${DIGITS} ${FRACTION}`,
  boolean: '"true" | "false"',
  null: '"null"',
  value: "object | array | string | number | boolean | null",
  object: '"{" ws ( string ":" ws value ( "," ws string ":" ws value )* )? "}"',
  array: '"[" ws ( value ( "," ws value )* )? "]"',
};

const USES: Record<string, (keyof typeof PRIMITIVES)[]> = {
  string: ["char"],
  value: ["object", "array", "string", "number", "boolean", "null"],
  object: ["ws", "string", "value"],
  array: ["ws", "value"],
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
  private readonly refs = new Map<SchemaNode, string>();
  private counter = 0;

  /** `root`: the schema whose $defs local $refs point into; by default each schema given to `schema()`. */
  constructor(private root?: JsonSchema) {}

  /** The schema whose $defs later $refs point into (one per tool when several share a grammar). */
  setRoot(root: JsonSchema): void {
    this.root = root;
  }

  /** A rule name for a primitive (string, number, value, …), defining it and what it uses. */
  primitive(name: keyof typeof PRIMITIVES): string {
    if (!this.rules.has(name)) {
      this.rules.set(name, PRIMITIVES[name]!);
      for (const u of USES[name] ?? []) this.primitive(u);
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
    return this.node(normaliseSchema(schema, this.root), hint);
  }

  /** The rule (or inline expression) for a normalised schema. */
  node(node: SchemaNode, hint = "v"): string {
    switch (node.kind) {
      case "any":
        return this.primitive("value");
      case "literal": {
        const alternatives = node.values.map((v) => gbnfLiteral(JSON.stringify(v)));
        return alternatives.length === 1 ? alternatives[0]! : this.rule(alternatives.join(" | "), hint);
      }
      case "string": {
        if (node.minLength === 0 && node.maxLength === undefined) return this.primitive("string");
        const char = this.primitive("char");
        const quote = gbnfLiteral('"');
        return this.rule(`${quote} ${char}{${node.minLength},${node.maxLength ?? ""}} ${quote}`, hint);
      }
      case "number":
        if (node.integer) return this.primitive(node.nonNegative ? "natural" : "integer");
        return this.primitive(node.nonNegative ? "unsigned-number" : "number");
      case "boolean":
      case "null":
        return this.primitive(node.kind);
      case "union":
        return this.rule(node.options.map((o, i) => this.node(o, `${hint}-${i}`)).join(" | "), hint);
      case "ref":
        return this.ref(node);
      case "array":
        return this.array(node, hint);
      case "object":
        return this.object(node, hint);
      case "map": {
        if (node.values.kind === "any") return this.primitive("object");
        const ws = this.primitive("ws");
        const pair = `${this.primitive("string")} ":" ${ws} ${this.node(node.values, `${hint}-value`)}`;
        return this.rule(`"{" ${ws} ( ${pair} ( "," ${ws} ${pair} )* )? "}"`, hint);
      }
    }
  }

  private ref(node: Extract<SchemaNode, { kind: "ref" }>): string {
    const known = this.refs.get(node);
    if (known) return known;
    const name = this.rule("", `ref-${node.name.split("/").pop()}`);
    this.refs.set(node, name); // registered before recursing, so recursive schemas terminate
    this.rules.set(name, this.node(node.target(), name));
    return name;
  }

  private array(node: Extract<SchemaNode, { kind: "array" }>, hint: string): string {
    const item = this.node(node.items, `${hint}-item`);
    const ws = this.primitive("ws");
    const { minItems: min, maxItems: max } = node;
    if (max === 0) return this.rule(`"[" ${ws} "]"`, hint);
    const more = `"," ${ws} ${item}`;
    const rest =
      max === undefined
        ? min <= 1
          ? `( ${more} )*`
          : `( ${more} ){${min - 1},}`
        : `( ${more} ){${Math.max(0, min - 1)},${max - 1}}`;
    const body = min >= 1 ? `${item} ${rest}` : `( ${item} ${rest} )?`;
    return this.rule(`"[" ${ws} ${body} "]"`, hint);
  }

  private object(node: Extract<SchemaNode, { kind: "object" }>, hint: string): string {
    const ws = this.primitive("ws");
    const pair = (p: { key: string; value: SchemaNode }) =>
      `${gbnfLiteral(JSON.stringify(p.key))} ":" ${ws} ${this.node(p.value, `${hint}-${p.key}`)}`;
    // normaliseSchema puts the required properties first
    const req = node.properties.filter((p) => p.required).map(pair);
    const opt = node.properties.filter((p) => !p.required).map(pair);
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
  if (options.length === 0) throw new ToolgenError("invalid_option", "a choice constraint needs at least one option");
  return `root ::= ${options.map(gbnfLiteral).join(" | ")}\n`;
}
