import { describe, expect, it } from "vitest";
import { WireFormatError, fromWireMessage } from "../../src/chat/wire.ts";
import { ModelResponseError } from "../../src/models/http-errors.ts";
import { StreamAccumulator, readCompletion } from "../../src/models/openai-response.ts";
import { mulberry32 as rng } from "../../src/eval/split.ts";

const VALID = [
  '{"choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"}}]}',
  '{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"f","arguments":"{\\"a\\""}}]}}]}',
  '{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":": 1}"}}]}}]}',
  '{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}',
  '{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":4}}',
  "[DONE]",
];
const PIECES = [
  '"',
  "{",
  "}",
  "[",
  "]",
  ":",
  ",",
  "null",
  "0",
  '"tool_calls"',
  '"function"',
  '"arguments"',
  '"index"',
  "-1",
  "1e400",
  "\\",
];

function mutate(text: string, next: () => number): string {
  let out = text;
  for (let edits = 1 + Math.floor(next() * 3); edits > 0; edits--) {
    const at = Math.floor(next() * (out.length + 1));
    const kind = next();
    if (kind < 0.3) out = out.slice(0, at);
    else if (kind < 0.6) out = out.slice(0, at) + out.slice(at + 1 + Math.floor(next() * 4));
    else out = out.slice(0, at) + PIECES[Math.floor(next() * PIECES.length)]! + out.slice(at);
  }
  return out;
}

/** Runs fn; only the listed error classes may come out. */
function onlyTyped(fn: () => void, allowed: (new (...args: never[]) => Error)[], input: string): void {
  try {
    fn();
  } catch (error) {
    if (!allowed.some((kind) => error instanceof kind)) {
      throw new Error(`untyped ${String(error)} for ${JSON.stringify(input)}`, { cause: error });
    }
  }
}

describe("reading server output under fuzzing", () => {
  it("5,000 mutated streams: StreamAccumulator throws only ModelResponseError", () => {
    const next = rng(7);
    let completed = 0;
    for (let n = 0; n < 5000; n++) {
      const accumulator = new StreamAccumulator(n % 2 === 0 ? "hermes" : undefined, "fuzz");
      const chunks = VALID.map((chunk) => (next() < 0.3 ? mutate(chunk, next) : chunk));
      for (const chunk of chunks) {
        onlyTyped(() => void accumulator.push(chunk), [ModelResponseError], chunk);
      }
      try {
        accumulator.finish();
        completed++;
      } catch (error) {
        expect(error).toBeInstanceOf(ModelResponseError);
      }
    }
    // Enough streams survive mutation that the success path is exercised too.
    expect(completed).toBeGreaterThan(500);
  });

  it("5,000 mutated bodies and messages: readCompletion and fromWireMessage throw only their typed errors", () => {
    const next = rng(11);
    const body = JSON.stringify({
      choices: [
        {
          message: {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "a", type: "function", function: { name: "f", arguments: '{"x": [1, 2]}' } }],
          },
          finish_reason: "tool_calls",
        },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 2 },
    });
    for (let n = 0; n < 5000; n++) {
      const input = mutate(body, next);
      onlyTyped(
        () => void readCompletion(input, n % 2 === 0 ? "hermes" : undefined, "fuzz"),
        [ModelResponseError],
        input,
      );
      let value: unknown;
      try {
        value = JSON.parse(input);
      } catch {
        continue;
      }
      const message = (value as { choices?: { message?: unknown }[] })?.choices?.[0]?.message ?? value;
      onlyTyped(() => void fromWireMessage(message), [WireFormatError], input);
    }
  });
});
