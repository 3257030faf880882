import { describe, expect, it } from "vitest";
import {
  createToolCallStreamParser,
  isFinishCall,
  parseReactStep,
  parseToolCalls,
  parseToolGenAction,
  parseToolGenArguments,
  toAssistantMessage,
  type ParseEvent,
  type ToolCallFormat,
} from "../../src/chat/parse/index.ts";

const names = (format: ToolCallFormat, text: string) => parseToolCalls(format, text).calls.map((c) => c.name);

describe("hermes / qwen2.5", () => {
  it("reads the Hugging Face example's tool call", () => {
    const result = parseToolCalls(
      "hermes",
      '<tool_call>\n{"arguments": {"location": "Paris, France", "unit": "celsius"}, "name": "get_current_temperature"}\n</tool_call><|im_end|>',
    );
    expect(result.errors).toEqual([]);
    expect(result.text).toBe("");
    expect(result.calls).toEqual([
      expect.objectContaining({
        name: "get_current_temperature",
        arguments: { location: "Paris, France", unit: "celsius" },
        repaired: false,
      }),
    ]);
  });

  it("keeps surrounding text, reads several calls, repairs and flags broken JSON", () => {
    const result = parseToolCalls(
      "hermes",
      'Sure.\n<tool_call>\n{"name": "a", "arguments": {"x": 1}}\n</tool_call>\n<tool_call>\n{"name": "b", "arguments": {x: 2,}\n</tool_call> done',
    );
    expect(result.calls.map((c) => [c.name, c.arguments, c.repaired])).toEqual([
      ["a", { x: 1 }, false],
      ["b", { x: 2 }, true],
    ]);
    expect(result.text).toBe("Sure.\n\n done");
  });

  it("reads a block left open and string arguments, and reports garbage as typed errors", () => {
    expect(
      parseToolCalls("hermes", '<tool_call>\n{"name": "a", "arguments": {"x": 1').calls[0],
    ).toMatchObject({
      name: "a",
      arguments: { x: 1 },
      repaired: true,
    });
    expect(
      parseToolCalls("hermes", '<tool_call>{"name": "s", "arguments": "{\\"q\\": 2}"}</tool_call>').calls[0]!
        .arguments,
    ).toEqual({ q: 2 });
    const garbage = parseToolCalls("hermes", "hi <tool_call>garbage here</tool_call>");
    expect(garbage.calls).toEqual([]);
    expect(garbage.text).toBe("hi");
    expect(garbage.errors[0]).toMatchObject({ code: "malformed_call", format: "hermes", offset: 14 });
    expect(parseToolCalls("hermes", '<tool_call>{"arguments": {}}</tool_call>').errors[0]!.code).toBe(
      "missing_name",
    );
    expect(
      parseToolCalls("hermes", '<tool_call>{"name": "f", "arguments": 3}</tool_call>').errors[0]!.code,
    ).toBe("invalid_arguments");
  });

  it("reads two objects written in one block", () => {
    expect(
      names(
        "hermes",
        '<tool_call>\n{"name": "a", "arguments": {}}\n{"name": "b", "arguments": {}}\n</tool_call>',
      ),
    ).toEqual(["a", "b"]);
  });
});

describe("llama3-json", () => {
  it("reads python_tag calls, `;`-separated calls and arrays; plain JSON stays text", () => {
    const tagged = parseToolCalls(
      "llama3-json",
      '<|python_tag|>{"name": "get_current_temperature", "parameters": {"location": "Paris"}}<|eom_id|>',
    );
    expect(tagged).toMatchObject({ text: "", errors: [], calls: [{ arguments: { location: "Paris" } }] });
    expect(
      names("llama3-json", '{"name": "a", "parameters": {}}; {"name": "b", "parameters": {"q": 1}}'),
    ).toEqual(["a", "b"]);
    expect(names("llama3-json", '[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {}}]')).toEqual([
      "a",
      "b",
    ]);
    const prose = parseToolCalls("llama3-json", 'Use {x} like {"a": 1} or {"name": "Bob"}. [1, 2]');
    expect(prose).toEqual({
      calls: [],
      text: 'Use {x} like {"a": 1} or {"name": "Bob"}. [1, 2]',
      errors: [],
    });
  });

  it("repairs a truncated call and keeps the text before it", () => {
    const result = parseToolCalls("llama3-json", 'Let me look.\n{"name": "a", "parameters": {"q": 1');
    expect(result.text).toBe("Let me look.");
    expect(result.calls[0]).toMatchObject({ name: "a", arguments: { q: 1 }, repaired: true });
  });
});

describe("mistral", () => {
  it("reads the v3 list form with ids and keeps text before the marker", () => {
    const result = parseToolCalls(
      "mistral",
      'Let me check. [TOOL_CALLS] [{"name": "get_current_temperature", "arguments": {"location": "Paris"}, "id": "abcDEF123"}]</s>',
    );
    expect(result.text).toBe("Let me check.");
    expect(result.calls).toEqual([
      expect.objectContaining({
        name: "get_current_temperature",
        id: "abcDEF123",
        arguments: { location: "Paris" },
      }),
    ]);
  });

  it("reads the v11 name[ARGS] form, with and without [CALL_ID]", () => {
    const result = parseToolCalls(
      "mistral",
      '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}[TOOL_CALLS]f[CALL_ID]x1[ARGS]{"a": 1}',
    );
    expect(result.calls.map((c) => [c.name, c.id, c.arguments, c.rawArguments])).toEqual([
      ["get_weather", undefined, { city: "Paris" }, '{"city": "Paris"}'],
      ["f", "x1", { a: 1 }, '{"a": 1}'],
    ]);
  });

  it("reports prose after the marker as malformed", () => {
    const result = parseToolCalls("mistral", "[TOOL_CALLS] hello world");
    expect(result.calls).toEqual([]);
    expect(result.errors[0]).toMatchObject({ code: "malformed_call", format: "mistral" });
  });
});

describe("react", () => {
  it("reads JSON and plain-text Action Inputs, fenced or not", () => {
    const plain = parseToolCalls(
      "react",
      "Thought: I should search.\nAction: bing-web-search\nAction Input: average price of roses\nObservation: lies",
    );
    expect(plain.calls).toEqual([
      expect.objectContaining({
        name: "bing-web-search",
        arguments: { input: "average price of roses" },
        wrappedInput: true,
      }),
    ]);
    expect(plain.text).toBe("Thought: I should search.\nObservation: lies");
    const fenced = parseToolCalls(
      "react",
      'Thought: x\nAction: get_weather\nAction Input: ```json\n{"city": "Paris",}\n```\nObservation:',
    );
    expect(fenced.calls[0]).toMatchObject({
      name: "get_weather",
      arguments: { city: "Paris" },
      repaired: true,
    });
  });

  it("reports an Action without input", () => {
    const result = parseToolCalls("react", "Action: f\nThought: oops");
    expect(result.errors[0]).toMatchObject({ code: "missing_arguments" });
    expect(result.text).toBe("Thought: oops");
  });

  it("parses steps: action (flagging invented observations), final answer, neither", () => {
    expect(
      parseReactStep('I need weather\nAction: get_weather\nAction Input: {"city": "Paris"}\nObservation: 22'),
    ).toEqual({
      kind: "action",
      thought: "I need weather",
      action: {
        name: "get_weather",
        arguments: { city: "Paris" },
        repaired: false,
        rawArguments: '{"city": "Paris"}',
      },
      hallucinatedObservation: true,
    });
    expect(parseReactStep("Thought: I know it now.\nFinal Answer: 22°C in Paris.<|eot_id|>")).toEqual({
      kind: "final",
      thought: "I know it now.",
      finalAnswer: "22°C in Paris.",
    });
    expect(parseReactStep("Final Answer: done\nAction: f\nAction Input: {}")).toMatchObject({
      kind: "final",
    });
    expect(parseReactStep("just rambling")).toMatchObject({ kind: "invalid", error: { code: "no_action" } });
    expect(parseReactStep("Action: f\nAction Input: [1]")).toMatchObject({
      kind: "invalid",
      error: { code: "invalid_arguments" },
    });
  });
});

describe("toolgen", () => {
  it("reads tokens with and without arguments; `<<` in prose stays text", () => {
    expect(parseToolCalls("toolgen", "<<Weather&&Get current>>").calls).toEqual([
      { name: "Weather&&Get current", arguments: {}, repaired: false },
    ]);
    const mixed = parseToolCalls("toolgen", 'Thought <<Weather&&Get current>> {"city": "Paris"} cout << x;');
    expect(mixed.calls[0]).toMatchObject({ name: "Weather&&Get current", arguments: { city: "Paris" } });
    expect(mixed.text).toBe("Thought  cout << x;");
    const finish = parseToolCalls("toolgen", '<<Finish>>{"return_type":"give_answer","final_answer":"22');
    expect(finish.calls[0]).toMatchObject({
      name: "Finish",
      repaired: true,
      arguments: { final_answer: "22" },
    });
    expect(isFinishCall(finish.calls[0]!)).toBe(true);
  });

  it("parses the separate action and arguments turns", () => {
    expect(parseToolGenAction("<<Weather&&Get current>>")).toEqual({
      kind: "tool",
      id: "Weather&&Get current",
      token: "<<Weather&&Get current>>",
    });
    expect(parseToolGenAction("<<Finish>><|eot_id|>")).toEqual({ kind: "finish", token: "<<Finish>>" });
    expect(parseToolGenAction("no token")).toMatchObject({
      kind: "invalid",
      error: { code: "malformed_call" },
    });
    expect(parseToolGenArguments('```json\n{"city": "Paris"}\n```')).toEqual({
      ok: true,
      arguments: { city: "Paris" },
      repaired: false,
    });
    expect(parseToolGenArguments("{city: 'Paris'")).toEqual({
      ok: true,
      arguments: { city: "Paris" },
      repaired: true,
    });
    expect(parseToolGenArguments("Paris please")).toMatchObject({
      ok: false,
      error: { code: "invalid_arguments" },
    });
  });
});

describe("streaming", () => {
  function feed(format: ToolCallFormat, chunks: string[]) {
    const parser = createToolCallStreamParser(format);
    const events: ParseEvent[] = chunks.flatMap((chunk) => parser.push(chunk));
    const end = parser.end();
    return { events: [...events, ...end.events], result: end.result, parser };
  }

  it("reports a call as soon as its closing tag arrives, with markers split across chunks", () => {
    const parser = createToolCallStreamParser("hermes");
    expect(parser.push("Hi <tool")).toEqual([{ type: "text", delta: "Hi " }]);
    expect(parser.push('_call>{"name": "f", "argu')).toEqual([]);
    const events = parser.push('ments": {}}</tool_c');
    expect(events).toEqual([]);
    expect(parser.push("all> bye")).toEqual([
      { type: "tool_call", index: 0, call: expect.objectContaining({ name: "f" }) },
      { type: "text", delta: " bye" },
    ]);
    expect(parser.end().result.calls).toHaveLength(1);
  });

  it("agrees with the whole-text parser for every split of every format", () => {
    const samples: [ToolCallFormat, string][] = [
      ["hermes", 'A<tool_call>{"name": "a", "arguments": {"x": "</tool_call>"}}</tool_call>B<|im_end|>'],
      ["llama3-json", 'x {"name": "a", "parameters": {}} ; {"name": "b", "parameters": {"s": ";"}}'],
      [
        "mistral",
        'pre [TOOL_CALLS]f[ARGS]{"a": "[TOOL_CALLS]"}[TOOL_CALLS] [{"name": "g", "arguments": {}}]',
      ],
      [
        "react",
        'Thought: t\nAction: f\nAction Input: {"a": 1}\nObservation: o\nAction: g\nAction Input: text\n',
      ],
      ["toolgen", 'x <<A&&b>>\n{"k": ">>"} y <<Finish>>'],
    ];
    for (const [format, text] of samples) {
      const whole = parseToolCalls(format, text);
      for (let cut = 1; cut < text.length; cut++) {
        for (const size of [1, 3]) {
          const chunks = [text.slice(0, cut)];
          for (let i = cut; i < text.length; i += size) chunks.push(text.slice(i, i + size));
          const { events, result } = feed(format, chunks);
          expect(result, `${format} cut ${cut}`).toEqual(whole);
          const joined = events.map((e) => (e.type === "text" ? e.delta : "")).join("");
          expect(joined.trim()).toBe(whole.text);
        }
      }
    }
  });

  it("ignores pushes after end", () => {
    const { parser } = feed("toolgen", ["<<a>>"]);
    expect(parser.push("more")).toEqual([]);
  });
});

describe("toAssistantMessage", () => {
  it("builds the contract message, keeping format ids and numbering the rest", () => {
    const result = parseToolCalls(
      "mistral",
      '[TOOL_CALLS] [{"name": "a", "arguments": {}, "id": "abc"}, {"name": "b", "arguments": {"x": 1}}]',
    );
    expect(toAssistantMessage(result)).toEqual({
      role: "assistant",
      content: "",
      tool_calls: [
        { id: "abc", type: "function", function: { name: "a", arguments: {} } },
        { id: "call_1", type: "function", function: { name: "b", arguments: { x: 1 } } },
      ],
    });
    expect(toAssistantMessage(parseToolCalls("hermes", "just text"))).toEqual({
      role: "assistant",
      content: "just text",
    });
  });

  it("throws on an unknown format name (a programming error), listing the accepted ones", () => {
    expect(() => parseToolCalls("xml" as ToolCallFormat, "")).toThrow(
      /accepted: hermes, llama3-json, mistral, react, toolgen/,
    );
  });
});
