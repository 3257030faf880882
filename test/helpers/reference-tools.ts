import { tool } from "../../src/tools/define.ts";
import type { Tool } from "../../src/tools/types.ts";

/** Reference tools from the tool-use docs this project follows: the weather example, LangChain4j's math tools and the ReAct rose-price tools. */
export const getCurrentTemperature: Tool = tool({
  name: "get_current_temperature",
  description: "Get the current temperature at a location.",
  inputSchema: {
    type: "object",
    properties: {
      location: { type: "string", description: 'The location, in the format "City, Country"' },
      unit: { type: "string", enum: ["celsius", "fahrenheit"], description: "The unit to return" },
    },
    required: ["location", "unit"],
  },
  execute: (args) => (String(args.location).startsWith("Paris") ? 22 : 15),
});

export const squareRoot: Tool = tool({
  name: "squareRoot",
  description: "Returns a square root of a given number",
  inputSchema: { type: "object", properties: { x: { type: "number" } }, required: ["x"] },
  execute: (args) => Math.sqrt(Number(args.x)),
});

export const sum: Tool = tool({
  name: "sum",
  description: "Sums 2 given numbers",
  inputSchema: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
  },
  execute: (args) => Number(args.a) + Number(args.b),
});

export const webSearch: Tool = tool({
  name: "bing-web-search",
  description: "Searches the web with Bing",
  inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
  execute: (args) =>
    /rose/i.test(String(args.query))
      ? "According to online sources, a bouquet of roses in the US costs $80.16."
      : "",
});

export const llmMath: Tool = tool({
  name: "llm-math",
  description: "Evaluates an arithmetic expression",
  inputSchema: { type: "object", properties: { expression: { type: "string" } }, required: ["expression"] },
  execute: (args) => String(Math.round(arithmetic(String(args.expression)) * 1e9) / 1e9),
});

/** + - * / and parentheses over decimal numbers; throws on anything else. */
export function arithmetic(text: string): number {
  const tokens = text.match(/\d+(?:\.\d+)?|[-+*/()]|\S/g) ?? [];
  let i = 0;
  const peek = (): string | undefined => tokens[i];
  const factor = (): number => {
    const t = tokens[i++];
    if (t === "(") {
      const v = expr();
      if (tokens[i++] !== ")") throw new Error(`expected ) in ${text}`);
      return v;
    }
    if (t === "-") return -factor();
    if (t === undefined || !/^\d/.test(t)) throw new Error(`unexpected ${t ?? "end"} in ${text}`);
    return Number(t);
  };
  const term = (): number => {
    let v = factor();
    while (peek() === "*" || peek() === "/") v = tokens[i++] === "*" ? v * factor() : v / factor();
    return v;
  };
  const expr = (): number => {
    let v = term();
    while (peek() === "+" || peek() === "-") v = tokens[i++] === "+" ? v + term() : v - term();
    return v;
  };
  const value = expr();
  if (i !== tokens.length) throw new Error(`unexpected ${tokens[i]} in ${text}`);
  return value;
}
