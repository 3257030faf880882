import { describe, expect, it } from "vitest";
import {
  TOOL_CALL_FORMATS,
  createToolCallStreamParser,
  parseReactStep,
  parseToolCalls,
  parseToolGenAction,
  parseToolGenArguments,
  type ParseResult,
  type ToolCallFormat,
} from "../../src/chat/parse/index.ts";
import { mulberry32 as rng } from "../../src/eval/split.ts";

const VALID: Record<ToolCallFormat, string[]> = {
  hermes: [
    '<tool_call>\n{"arguments": {"location": "Paris, France", "unit": "celsius"}, "name": "get_current_temperature"}\n</tool_call><|im_end|>',
    'Sure.\n<tool_call>\n{"name": "a", "arguments": {"x": [1, {"y": "}"}]}}\n</tool_call>\n<tool_call>{"name": "b", "arguments": "{\\"q\\": 2}"}</tool_call>',
  ],
  "llama3-json": [
    '<|python_tag|>{"name": "get_current_temperature", "parameters": {"location": "Paris, France"}}<|eom_id|>',
    'Calling: {"name": "a", "parameters": {"s": "{[\\"]"}}; {"name": "b", "arguments": {}} and [{"name": "c", "parameters": {}}]',
  ],
  mistral: [
    'Checking. [TOOL_CALLS] [{"name": "get_current_temperature", "arguments": {"location": "Paris"}, "id": "abcDEF123"}]</s>',
    '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}[TOOL_CALLS]f[CALL_ID]x1[ARGS]{"a": [1, 2]}',
  ],
  react: [
    "Thought: I should search.\nAction: bing-web-search\nAction Input: average price of roses\nObservation: 80",
    'I need the weather.\nAction: get_weather\nAction Input: ```json\n{"city": "Paris"}\n```\nObservation: 22\nThought: done\nFinal Answer: 22C',
  ],
  toolgen: [
    "<<Weather&&Get current>>",
    'Thought: weather. <<Weather&&Get current>> {"city": "Paris"} then <<Finish>>{"return_type": "give_answer", "final_answer": "22"}',
  ],
};

const PIECES = [
  "<tool_call>",
  "</tool_call>",
  "[TOOL_CALLS]",
  "[ARGS]",
  "[CALL_ID]",
  "<|python_tag|>",
  "<|eot_id|>",
  "</s>",
  "<<",
  ">>",
  "Action:",
  "Action Input:",
  "Observation:",
  "Final Answer:",
  "Thought:",
  "\n",
  "```",
  "{",
  "}",
  "[",
  "]",
  '"',
  "\\",
  ":",
  ",",
  ";",
  '"name"',
  '"arguments"',
  '"parameters"',
  "null",
  "1e999",
  "\u0000",
  "😀",
];

function randomText(next: () => number): string {
  const parts: string[] = [];
  const count = Math.floor(next() * 12);
  for (let i = 0; i < count; i++) {
    if (next() < 0.6) parts.push(PIECES[Math.floor(next() * PIECES.length)]!);
    else {
      const length = Math.floor(next() * 8);
      let word = "";
      for (let j = 0; j < length; j++) word += String.fromCharCode(32 + Math.floor(next() * 95));
      parts.push(word);
    }
  }
  return parts.join("");
}

function mutate(text: string, next: () => number): string {
  let out = text;
  const edits = 1 + Math.floor(next() * 4);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(next() * (out.length + 1));
    const kind = next();
    if (kind < 0.25) out = out.slice(0, at);
    else if (kind < 0.5) out = out.slice(0, at) + out.slice(at + 1 + Math.floor(next() * 5));
    else if (kind < 0.75)
      out = out.slice(0, at) + PIECES[Math.floor(next() * PIECES.length)]! + out.slice(at);
    else out = out.slice(0, at) + out.slice(Math.floor(next() * out.length));
  }
  return out;
}

function streamed(
  format: ToolCallFormat,
  text: string,
  next: () => number,
): { result: ParseResult; text: string } {
  const parser = createToolCallStreamParser(format);
  let joined = "";
  const take = (events: ReturnType<typeof parser.push>) => {
    for (const event of events) if (event.type === "text") joined += event.delta;
  };
  for (let i = 0; i < text.length;) {
    // Mostly token-sized pieces, sometimes long ones that carry a whole line or call.
    const size = 1 + Math.floor(next() * (next() < 0.2 ? 60 : 6));
    take(parser.push(text.slice(i, i + size)));
    i += size;
  }
  const { events, result } = parser.end();
  take(events);
  return { result, text: joined };
}

const INPUTS_PER_FORMAT = 10_000;
/** Fixed so CI is reproducible; set TOOLGEN_FUZZ_SEED to explore other inputs. */
const SEED = Number(process.env.TOOLGEN_FUZZ_SEED ?? 0x5eed);

describe("tool-call parsers under fuzzing", () => {
  for (const format of TOOL_CALL_FORMATS) {
    it(`${format}: ${INPUTS_PER_FORMAT} random and mutated inputs, no exception, streaming agrees`, () => {
      const next = rng(SEED + format.length * 7919);
      let withCalls = 0;
      for (let n = 0; n < INPUTS_PER_FORMAT; n++) {
        const source = VALID[format][n % VALID[format].length]!;
        const input = n % 3 === 0 ? randomText(next) : mutate(source, next);
        const whole = parseToolCalls(format, input);
        expect(
          whole.errors.filter((e) => e.code === "internal"),
          input,
        ).toEqual([]);
        if (whole.calls.length > 0) withCalls++;
        if (n % 4 === 0) {
          const stream = streamed(format, input, next);
          expect(stream.result, JSON.stringify(input)).toEqual(whole);
          expect(stream.text.trim(), JSON.stringify(input)).toBe(whole.text);
        }
        if (format === "react") parseReactStep(input);
        if (format === "toolgen") {
          parseToolGenAction(input);
          parseToolGenArguments(input);
        }
      }
      // The mutations must leave many inputs still parseable, or the fuzzer only tests the error path.
      expect(withCalls).toBeGreaterThan(INPUTS_PER_FORMAT / 5);
    });
  }
});
