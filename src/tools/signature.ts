import ts from "typescript";
import { checkToolName } from "./define.ts";
import { normalizeSchema } from "./schema.ts";
import type { JsonSchema, ObjectSchema, ToolJson } from "./types.ts";
import { ToolgenError } from "../errors.ts";

/** A plain function read from source: its HF schema plus the parameter order used to call it. */
export interface FunctionSignature {
  exportName: string;
  paramNames: string[];
  json: ToolJson;
}

const MAX_DEPTH = 6;
const COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  target: ts.ScriptTarget.ES2023,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  allowImportingTsExtensions: true,
  allowJs: true,
  checkJs: false,
  noEmit: true,
  skipLibCheck: true,
  types: [],
};
let cachedHost: ts.CompilerHost | undefined;

/** A compiler host that parses library files (lib.d.ts, node_modules) once per process; user files fresh. */
function compilerHost(): ts.CompilerHost {
  if (cachedHost) return cachedHost;
  const host = ts.createCompilerHost(COMPILER_OPTIONS);
  const cache = new Map<string, ts.SourceFile | undefined>();
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, onError, fresh) => {
    if (!fileName.includes("/node_modules/")) return read(fileName, language, onError, fresh);
    if (!cache.has(fileName)) cache.set(fileName, read(fileName, language, onError, fresh));
    return cache.get(fileName);
  };
  cachedHost = host;
  return host;
}
const CHOICES = /\(choices:\s*(.*?)\)\s*$/i;

/**
 * The analogue of HF `get_json_schema` for TypeScript: every exported function of `file` (declarations and
 * `const f = (…) => …`) documented as a tool becomes one: JSDoc summary → description, `@param` texts →
 * parameter descriptions (HF's `(choices: [...])` note → enum), parameter types → JSON Schema, optional or
 * defaulted parameters not required, literal defaults → `default`.
 *
 * Documented as a tool (the rule src/tools/README.md states): a JSDoc summary and a `@param` text for every
 * parameter, as HF's `get_json_schema` demands of a docstring, and no `@internal` tag. A helper with a one-line
 * comment (`formatNumber(x)`) is therefore not a tool; `@internal` leaves out a fully documented one.
 */
export function functionSignatures(
  file: string,
  options: {
    /** Called for an exported function not documented as a tool, with the reason; it is then left out
     * instead of failing the whole file (a module's helpers are not tools). `@internal` ones are always left
     * out without a call. */
    onUndocumented?: (exportName: string, reason: string) => void;
  } = {},
): FunctionSignature[] {
  const program = ts.createProgram({ rootNames: [file], options: COMPILER_OPTIONS, host: compilerHost() });
  const source = program.getSourceFile(file);
  if (!source) throw new ToolgenError("invalid_input", `cannot read ${file} as TypeScript`);
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) return [];
  const out: FunctionSignature[] = [];
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const fn = functionNode(symbol);
    if (!fn || isInternal(symbol)) continue;
    const missing = undocumented(symbol, fn, checker);
    if (missing === undefined) out.push(readFunction(exported.name, symbol, fn, checker));
    else if (options.onUndocumented) options.onUndocumented(exported.name, missing);
    else {
      const fix =
        fn.parameters.length > 0 && summaryOf(symbol, checker)
          ? "add them"
          : "add /** what it does */ above it";
      throw new ToolgenError(
        "invalid_input",
        `function ${exported.name}: ${missing}; ${fix} (or tag a helper that is not a tool @internal)`,
      );
    }
  }
  return out;
}

/** The HF JSON of one exported function, by name (throws when there is none). */
export function getJsonSchema(file: string, functionName: string): ToolJson {
  const found = functionSignatures(file).find((s) => s.exportName === functionName);
  if (!found) throw new ToolgenError("invalid_input", `${file} exports no function named ${functionName}`);
  return found.json;
}

/** What keeps a function from being documented as a tool, or undefined when it is one. */
function undocumented(symbol: ts.Symbol, fn: FnNode, checker: ts.TypeChecker): string | undefined {
  if (!summaryOf(symbol, checker)) return "no JSDoc summary";
  // (destructured parameters have no @param name; readFunction refuses them with its own message)
  const bare = fn.parameters.filter((p) => ts.isIdentifier(p.name) && paramDoc(p) === "");
  if (bare.length > 0) return `no @param text for ${bare.map((p) => p.name.getText()).join(", ")}`;
  return undefined;
}

function isInternal(symbol: ts.Symbol): boolean {
  return symbol.getJsDocTags().some((tag) => tag.name === "internal");
}

function paramDoc(param: ts.ParameterDeclaration): string {
  return ts
    .getJSDocParameterTags(param)
    .map((tag) => ts.getTextOfJSDocComment(tag.comment) ?? "")
    .join(" ")
    .replace(/^-\s*/, "")
    .trim();
}

function summaryOf(symbol: ts.Symbol, checker: ts.TypeChecker): string {
  return ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
}

type FnNode = ts.FunctionDeclaration | ts.ArrowFunction | ts.FunctionExpression;

function functionNode(symbol: ts.Symbol): FnNode | undefined {
  for (const decl of symbol.declarations ?? []) {
    if (ts.isFunctionDeclaration(decl) && decl.body) return decl;
    if (ts.isVariableDeclaration(decl) && decl.initializer) {
      const init = decl.initializer;
      if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return init;
    }
  }
  return undefined;
}

function readFunction(
  exportName: string,
  symbol: ts.Symbol,
  fn: FnNode,
  checker: ts.TypeChecker,
): FunctionSignature {
  const where = `function ${exportName}`;
  const name = checkToolName(exportName === "default" ? symbol.name : exportName, where);
  const description = summaryOf(symbol, checker);
  if (!description)
    throw new ToolgenError("invalid_input", `${where}: no JSDoc summary; add /** what it does */ above it`);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const paramNames: string[] = [];
  for (const param of fn.parameters) {
    if (!ts.isIdentifier(param.name)) {
      throw new ToolgenError(
        "invalid_input",
        `${where}: destructured parameters are not supported; name each parameter`,
      );
    }
    if (param.dotDotDotToken)
      throw new ToolgenError("invalid_input", `${where}: rest parameters are not supported`);
    const pname = param.name.text;
    paramNames.push(pname);
    const type = checker.getTypeAtLocation(param);
    const { schema, optional } = typeToSchema(type, checker, 0);
    let doc = paramDoc(param);
    const choices = CHOICES.exec(doc);
    if (choices) {
      schema.enum = parseChoices(choices[1]!, where, pname);
      doc = doc.slice(0, choices.index).trim();
    }
    if (doc) schema.description = doc;
    const dflt = param.initializer ? literalValue(param.initializer) : undefined;
    if (dflt !== undefined) schema.default = dflt;
    properties[pname] = normalizeSchema(schema);
    if (!optional && !param.questionToken && !param.initializer) required.push(pname);
  }
  const parameters: ObjectSchema = { type: "object", properties };
  if (required.length > 0) parameters.required = required;
  return { exportName, paramNames, json: { type: "function", function: { name, description, parameters } } };
}

function parseChoices(text: string, where: string, param: string): unknown[] {
  try {
    const parsed: unknown = JSON.parse(text);
    if (Array.isArray(parsed)) return parsed.map((c) => (typeof c === "string" ? c.trim() : c));
  } catch {
    // fall through to the error below
  }
  throw new ToolgenError(
    "invalid_input",
    `${where}: parameter ${param}: (choices: ...) must hold a JSON array, got ${text}`,
  );
}

/** Maps a checker type to JSON Schema; `optional` is true when the type admits undefined. */
function typeToSchema(
  type: ts.Type,
  checker: ts.TypeChecker,
  depth: number,
): { schema: JsonSchema; optional: boolean } {
  if (type.isUnion()) {
    let optional = false;
    let nullable = false;
    const rest: ts.Type[] = [];
    for (const t of type.types) {
      if (t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) optional = true;
      else if (t.flags & ts.TypeFlags.Null) nullable = true;
      else rest.push(t);
    }
    const schema = unionSchema(rest, checker, depth);
    if (nullable) schema.nullable = true;
    return { schema, optional };
  }
  return { schema: singleSchema(type, checker, depth), optional: false };
}

function unionSchema(types: ts.Type[], checker: ts.TypeChecker, depth: number): JsonSchema {
  const isBoolLit = (t: ts.Type) => (t.flags & ts.TypeFlags.BooleanLiteral) !== 0;
  if (types.length === 0) return {};
  if (types.length === 2 && types.every(isBoolLit)) return { type: "boolean" };
  if (types.length === 1) return singleSchema(types[0]!, checker, depth);
  if (types.every((t) => t.isStringLiteral())) {
    return { type: "string", enum: types.map((t) => (t as ts.StringLiteralType).value) };
  }
  if (types.every((t) => t.isNumberLiteral())) {
    return { type: "number", enum: types.map((t) => (t as ts.NumberLiteralType).value) };
  }
  const parts = types.filter((t) => !isBoolLit(t)).map((t) => singleSchema(t, checker, depth));
  if (types.some(isBoolLit)) parts.push({ type: "boolean" });
  const simple = parts.every((p) => Object.keys(p).length === 1 && typeof p.type === "string");
  if (simple) return { type: [...new Set(parts.map((p) => p.type as string))] };
  return { anyOf: parts };
}

function singleSchema(type: ts.Type, checker: ts.TypeChecker, depth: number): JsonSchema {
  const f = type.flags;
  if (f & ts.TypeFlags.StringLike)
    return type.isStringLiteral() ? { type: "string", enum: [type.value] } : { type: "string" };
  if (f & ts.TypeFlags.NumberLike)
    return type.isNumberLiteral() ? { type: "number", enum: [type.value] } : { type: "number" };
  if (f & ts.TypeFlags.BigIntLike) return { type: "integer" };
  if (f & ts.TypeFlags.BooleanLike) return { type: "boolean" };
  if (f & ts.TypeFlags.Null) return { type: "null" };
  if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {};
  if (depth >= MAX_DEPTH) return { type: "object" };
  if (checker.isArrayType(type)) {
    const [item] = checker.getTypeArguments(type as ts.TypeReference);
    return { type: "array", items: item ? typeToSchema(item, checker, depth + 1).schema : {} };
  }
  if (checker.isTupleType(type)) {
    const items = checker
      .getTypeArguments(type as ts.TypeReference)
      .map((t) => typeToSchema(t, checker, depth + 1).schema);
    return { type: "array", prefixItems: items, minItems: items.length, maxItems: items.length };
  }
  if (type.symbol?.name === "Date") return { type: "string", format: "date-time" };
  if (f & ts.TypeFlags.Object) return objectSchema(type, checker, depth);
  return {};
}

function objectSchema(type: ts.Type, checker: ts.TypeChecker, depth: number): JsonSchema {
  const schema: JsonSchema = { type: "object" };
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const prop of checker.getPropertiesOfType(type)) {
    const decl = prop.valueDeclaration ?? prop.declarations?.[0];
    const propType = decl
      ? checker.getTypeOfSymbolAtLocation(prop, decl)
      : checker.getDeclaredTypeOfSymbol(prop);
    if (propType.getCallSignatures().length > 0) continue;
    const { schema: sub, optional } = typeToSchema(propType, checker, depth + 1);
    const doc = ts.displayPartsToString(prop.getDocumentationComment(checker)).trim();
    if (doc) sub.description = doc;
    properties[prop.name] = normalizeSchema(sub);
    if (!optional && !(prop.flags & ts.SymbolFlags.Optional)) required.push(prop.name);
  }
  schema.properties = properties;
  if (required.length > 0) schema.required = required;
  const index = checker.getIndexInfoOfType(type, ts.IndexKind.String);
  if (index) schema.additionalProperties = typeToSchema(index.type, checker, depth + 1).schema;
  return schema;
}

/** A default value written as a literal (number, string, boolean, null, arrays and objects of those). */
function literalValue(node: ts.Expression): unknown {
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isStringLiteralLike(node)) return node.text;
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (node.kind === ts.SyntaxKind.NullKeyword) return null;
  if (
    ts.isPrefixUnaryExpression(node) &&
    node.operator === ts.SyntaxKind.MinusToken &&
    ts.isNumericLiteral(node.operand)
  ) {
    return -Number(node.operand.text);
  }
  if (ts.isArrayLiteralExpression(node)) {
    const items = node.elements.map(literalValue);
    return items.includes(undefined) ? undefined : items;
  }
  if (ts.isObjectLiteralExpression(node)) {
    const obj: Record<string, unknown> = {};
    for (const p of node.properties) {
      if (!ts.isPropertyAssignment(p) || !(ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)))
        return undefined;
      const v = literalValue(p.initializer);
      if (v === undefined) return undefined;
      obj[p.name.text] = v;
    }
    return obj;
  }
  return undefined;
}
