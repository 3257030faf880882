/**
 * A small arithmetic evaluator for the demo's `evaluate_expression` tool: numbers, + - * / % ^, parentheses,
 * unary minus and a few functions. A recursive-descent parser, never `eval`, so a question cannot run code.
 */
const FUNCTIONS: Record<string, (x: number) => number> = {
  sqrt: Math.sqrt,
  abs: Math.abs,
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  ln: Math.log,
  log10: Math.log10,
  exp: Math.exp,
  round: Math.round,
  floor: Math.floor,
  ceil: Math.ceil,
};
const CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E };

export function evaluateExpression(source: string): number {
  const tokens = source.match(/\d+(?:\.\d+)?(?:e[+-]?\d+)?|[a-z_][a-z0-9_]*|[-+*/%^()]|\S/gi) ?? [];
  let pos = 0;
  const peek = () => tokens[pos];
  const fail = (what: string): never => {
    throw new Error(`cannot evaluate ${JSON.stringify(source)}: ${what}`);
  };
  const expect = (t: string) => (tokens[pos] === t ? pos++ : fail(`expected "${t}" at token ${pos + 1}`));
  const primary = (): number => {
    const t = tokens[pos++];
    if (t === undefined) return fail("unexpected end");
    if (/^\d/.test(t)) return Number(t);
    if (t === "(") {
      const v = sum();
      expect(")");
      return v;
    }
    if (t === "-") return -power();
    if (t === "+") return power();
    const name = t.toLowerCase();
    if (name in CONSTANTS) return CONSTANTS[name]!;
    if (name in FUNCTIONS) {
      expect("(");
      const v = sum();
      expect(")");
      return FUNCTIONS[name]!(v);
    }
    return fail(
      `unknown symbol "${t}" (numbers, + - * / % ^, parentheses, ${Object.keys(FUNCTIONS).join(", ")})`,
    );
  };
  const power = (): number => {
    const base = primary();
    if (peek() === "^") {
      pos++;
      return base ** power();
    }
    return base;
  };
  const product = (): number => {
    let v = power();
    while (peek() === "*" || peek() === "/" || peek() === "%") {
      const op = tokens[pos++];
      const r = power();
      v = op === "*" ? v * r : op === "/" ? v / r : v % r;
    }
    return v;
  };
  const sum = (): number => {
    let v = product();
    while (peek() === "+" || peek() === "-") v = tokens[pos++] === "+" ? v + product() : v - product();
    return v;
  };
  const value = sum();
  if (pos < tokens.length) fail(`unexpected "${tokens[pos]}"`);
  return value;
}

/** Numbers as people write them: at most 6 decimals, no trailing zeros. */
export function formatNumber(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  return String(Number(x.toFixed(6)));
}
