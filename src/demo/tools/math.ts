import { z } from "zod";
import { tool } from "../../tools/define.ts";
import { evaluateExpression, formatNumber } from "./expression.ts";

/** Arithmetic tools, defined with zod schemas (AI SDK style). */
const n = (what: string) => z.number().describe(what);
const int = (what: string) => z.number().int().describe(what);

export const mathTools = [
  tool({
    name: "add_numbers",
    description: "Add two numbers and return their sum",
    inputSchema: z.object({ a: n("The first number"), b: n("The second number") }),
    execute: ({ a, b }) => `${formatNumber(a)} + ${formatNumber(b)} = ${formatNumber(a + b)}`,
  }),
  tool({
    name: "subtract_numbers",
    description: "Subtract the second number from the first",
    inputSchema: z.object({ a: n("The number to subtract from"), b: n("The number to subtract") }),
    execute: ({ a, b }) => `${formatNumber(a)} - ${formatNumber(b)} = ${formatNumber(a - b)}`,
  }),
  tool({
    name: "multiply_numbers",
    description: "Multiply two numbers and return the product",
    inputSchema: z.object({ a: n("The first factor"), b: n("The second factor") }),
    execute: ({ a, b }) => `${formatNumber(a)} × ${formatNumber(b)} = ${formatNumber(a * b)}`,
  }),
  tool({
    name: "divide_numbers",
    description: "Divide the first number by the second",
    inputSchema: z.object({ a: n("The dividend"), b: n("The divisor, not zero") }),
    execute: ({ a, b }) => {
      if (b === 0) throw new Error("division by zero");
      return `${formatNumber(a)} ÷ ${formatNumber(b)} = ${formatNumber(a / b)}`;
    },
  }),
  tool({
    name: "power",
    description: "Raise a base to an exponent",
    inputSchema: z.object({ base: n("The base"), exponent: n("The exponent") }),
    execute: ({ base, exponent }) =>
      `${formatNumber(base)}^${formatNumber(exponent)} = ${formatNumber(base ** exponent)}`,
  }),
  tool({
    name: "square_root",
    description: "The square root of a non-negative number",
    inputSchema: z.object({ x: z.number().min(0).describe("The number") }),
    execute: ({ x }) => `√${formatNumber(x)} = ${formatNumber(Math.sqrt(x))}`,
  }),
  tool({
    name: "evaluate_expression",
    description: "Evaluate an arithmetic expression with + - * / % ^, parentheses and functions like sqrt",
    inputSchema: z.object({ expression: z.string().describe("The expression, e.g. (3 + 4) * 2") }),
    execute: ({ expression }) => `${expression} = ${formatNumber(evaluateExpression(expression))}`,
  }),
  tool({
    name: "percentage_of",
    description: "Compute a percentage of a value, e.g. 15 percent of 80",
    inputSchema: z.object({ percent: n("The percentage"), value: n("The value") }),
    execute: ({ percent, value }) =>
      `${formatNumber(percent)}% of ${formatNumber(value)} = ${formatNumber((percent * value) / 100)}`,
  }),
  tool({
    name: "round_number",
    description: "Round a number to a given count of decimal places",
    inputSchema: z.object({
      x: n("The number to round"),
      digits: int("Decimal places to keep").min(0).max(10),
    }),
    execute: ({ x, digits }) => `${formatNumber(x)} rounded to ${digits} decimals = ${x.toFixed(digits)}`,
  }),
  tool({
    name: "factorial",
    description: "The factorial n! of a whole number up to 170",
    inputSchema: z.object({ n: int("The whole number").min(0).max(170) }),
    execute: ({ n: k }) => {
      let f = 1n;
      for (let i = 2n; i <= BigInt(k); i++) f *= i;
      return `${k}! = ${f}`;
    },
  }),
  tool({
    name: "greatest_common_divisor",
    description: "The greatest common divisor of two whole numbers",
    inputSchema: z.object({ a: int("The first whole number"), b: int("The second whole number") }),
    execute: ({ a, b }) => {
      let [x, y] = [Math.abs(a), Math.abs(b)];
      while (y) [x, y] = [y, x % y];
      return `gcd(${a}, ${b}) = ${x}`;
    },
  }),
  tool({
    name: "is_prime",
    description: "Check whether a whole number is a prime number",
    inputSchema: z.object({ n: int("The whole number to test") }),
    execute: ({ n: k }) => {
      let prime = k >= 2;
      for (let d = 2; prime && d * d <= k; d++) if (k % d === 0) prime = false;
      return `${k} is ${prime ? "" : "not "}a prime number`;
    },
  }),
  tool({
    name: "fibonacci",
    description: "The n-th Fibonacci number (F0 = 0, F1 = 1)",
    inputSchema: z.object({ n: int("Which Fibonacci number, 0 to 1000").min(0).max(1000) }),
    execute: ({ n: k }) => {
      let [a, b] = [0n, 1n];
      for (let i = 0; i < k; i++) [a, b] = [b, a + b];
      return `F(${k}) = ${a}`;
    },
  }),
];
