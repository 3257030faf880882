import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { tool } from "../../src/tools/define.ts";
import { executeToolCall } from "../../src/tools/execute.ts";
import { resultToContent } from "../../src/tools/result.ts";
import type { JsonSchema, Tool, ToolCall } from "../../src/tools/types.ts";

type Scalar = "string" | "number" | "integer" | "boolean";
const SCALARS: Scalar[] = ["string", "number", "integer", "boolean"];
const valueOf: Record<Scalar, fc.Arbitrary<unknown>> = {
  string: fc.string(),
  number: fc.double({ noNaN: true, noDefaultInfinity: true }),
  integer: fc.integer(),
  boolean: fc.boolean(),
};
// A value that is wrong for the type and that no safe coercion can repair.
const wrongFor: Record<Scalar, fc.Arbitrary<unknown>> = {
  string: fc.constantFrom(null, [], { x: 1 }),
  number: fc.constantFrom("five", null, [1], true),
  integer: fc.constantFrom(1.5, "2.5", null, false),
  boolean: fc.constantFrom("yes", 0, 1, null, "TRUE"),
};

const key = fc
  .stringMatching(/^[a-z][a-z0-9_]{0,7}$/)
  .filter((k) => !["constructor", "prototype"].includes(k));
const shape = fc.dictionary(key, fc.constantFrom(...SCALARS), { minKeys: 1, maxKeys: 6 });

function echoTool(types: Record<string, Scalar>): Tool {
  const properties: Record<string, JsonSchema> = {};
  for (const [k, t] of Object.entries(types)) properties[k] = { type: t };
  return tool({
    name: "echo",
    description: "returns its arguments",
    inputSchema: { type: "object", properties, required: Object.keys(types) },
    execute: (args) => args,
  });
}
const call = (args: unknown, name = "echo"): ToolCall =>
  ({ id: "p", type: "function", function: { name, arguments: args } }) as ToolCall;
const argsFor = (types: Record<string, Scalar>) =>
  fc.record(Object.fromEntries(Object.entries(types).map(([k, t]) => [k, valueOf[t]])));

describe("validation properties", () => {
  it("valid arguments always pass, unchanged and uncoerced", async () => {
    await fc.assert(
      fc.asyncProperty(
        shape.chain((types) => fc.tuple(fc.constant(types), argsFor(types))),
        async ([types, args]) => {
          const res = await executeToolCall(call(args), [echoTool(types)]);
          expect(res).toEqual({ ok: true, content: JSON.stringify(args) });
        },
      ),
      { numRuns: 150 },
    );
  });

  it("one wrong value is reported at its JSON pointer", async () => {
    await fc.assert(
      fc.asyncProperty(
        shape.chain((types) =>
          fc
            .tuple(fc.constant(types), argsFor(types), fc.constantFrom(...Object.keys(types)))
            .chain(([t, a, k]) => fc.tuple(fc.constant(t), fc.constant(a), fc.constant(k), wrongFor[t[k]!])),
        ),
        async ([types, args, bad, wrong]) => {
          const res = await executeToolCall(call({ ...args, [bad]: wrong }), [echoTool(types)]);
          expect(res.ok).toBe(false);
          if (res.ok) return;
          expect(res.error.code).toBe("invalid_arguments");
          expect(res.error.message).toContain(`- /${bad}: must be`);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("a missing required key is named", async () => {
    await fc.assert(
      fc.asyncProperty(
        shape.chain((types) =>
          fc.tuple(fc.constant(types), argsFor(types), fc.constantFrom(...Object.keys(types))),
        ),
        async ([types, args, gone]) => {
          const rest = { ...args };
          delete rest[gone];
          const res = await executeToolCall(call(rest), [echoTool(types)]);
          expect(res).toMatchObject({ ok: false, error: { code: "invalid_arguments" } });
          if (!res.ok) expect(res.error.message).toContain(`missing required property "${gone}"`);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("numbers written as strings are coerced back exactly and reported", async () => {
    await fc.assert(
      fc.asyncProperty(fc.double({ noNaN: true, noDefaultInfinity: true }), async (n) => {
        const res = await executeToolCall(call({ x: String(n) }), [echoTool({ x: "number" })]);
        expect(res).toEqual({
          ok: true,
          content: JSON.stringify({ x: n }),
          coercions: [{ pointer: "/x", from: String(n), to: Number(String(n)) }],
        });
      }),
      { numRuns: 200 },
    );
  });

  it("a reserved key at any depth is refused", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(key, { minLength: 0, maxLength: 4 }),
        fc.constantFrom("__proto__", "constructor", "prototype"),
        async (path, reserved) => {
          let json = `{"${reserved}": 1}`;
          for (const k of [...path].reverse()) json = `{"${k}": ${json}}`;
          const res = await executeToolCall(call(JSON.parse(json)), [echoTool({ a: "string" })]);
          expect(res).toMatchObject({ ok: false, error: { code: "forbidden_key" } });
          if (!res.ok) expect(res.error.message).toContain(`/${[...path, reserved].join("/")}`);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("never throws, whatever the call looks like", async () => {
    const tools = [echoTool({ a: "string", n: "number" })];
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constant("echo"), fc.string()), fc.anything(), async (name, args) => {
        const res = await executeToolCall(call(args, name), tools);
        expect(typeof res.ok).toBe("boolean");
        if (!res.ok) expect(res.error.message.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });
});

describe("return conversion properties", () => {
  it("a JSON value comes back as its JSON text (strings as is)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const expected = typeof value === "string" ? value : JSON.stringify(value);
        expect(resultToContent(value)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});
