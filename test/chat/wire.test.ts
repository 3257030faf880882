import { describe, expect, it } from "vitest";
import type { Message } from "../../src/chat/messages.ts";
import { WireFormatError, argumentsFromWire, fromWireMessage, toWireMessage } from "../../src/chat/wire.ts";

const assistant: Message = {
  role: "assistant",
  content: "",
  tool_calls: [
    {
      id: "call_1",
      type: "function",
      function: {
        name: "get_current_temperature",
        arguments: { location: "Paris, France", unit: "celsius" },
      },
    },
  ],
};

describe("wire conversion", () => {
  it("writes arguments as a JSON string and reads them back as an object (round trip)", () => {
    const wire = toWireMessage(assistant);
    expect(wire.tool_calls![0]!.function.arguments).toBe('{"location":"Paris, France","unit":"celsius"}');
    expect(fromWireMessage(wire)).toEqual({ message: assistant, repaired: false });
    const tool: Message = {
      role: "tool",
      content: "22",
      tool_call_id: "call_1",
      name: "get_current_temperature",
    };
    expect(fromWireMessage(toWireMessage(tool)).message).toEqual(tool);
  });

  it("accepts what servers send: null content, text parts, object arguments, broken JSON (flagged)", () => {
    expect(fromWireMessage({ role: "assistant", content: null }).message).toEqual({
      role: "assistant",
      content: "",
    });
    expect(
      fromWireMessage({
        role: "assistant",
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      }).message.content,
    ).toBe("ab");
    const ollama = fromWireMessage({
      role: "assistant",
      content: "",
      tool_calls: [{ function: { name: "f", arguments: { x: 1 } } }],
    });
    expect(ollama.message.tool_calls).toEqual([
      { id: "call_0", type: "function", function: { name: "f", arguments: { x: 1 } } },
    ]);
    const broken = fromWireMessage({
      role: "assistant",
      tool_calls: [{ id: "a", function: { name: "f", arguments: '{"x": 1,' } }],
    });
    expect(broken.repaired).toBe(true);
    expect(broken.message.tool_calls![0]!.function.arguments).toEqual({ x: 1 });
  });

  it("rejects what cannot be a message, naming the field", () => {
    expect(() => fromWireMessage({ role: "robot", content: "" })).toThrow(/message\.role must be one of/);
    expect(() => fromWireMessage({ role: "assistant", tool_calls: [{ function: {} }] })).toThrow(
      /tool_calls\[0\]\.function\.name is missing/,
    );
    expect(() => argumentsFromWire("[1, 2]", "args")).toThrow(WireFormatError);
    expect(() => argumentsFromWire(42, "args")).toThrow(/args must be a JSON string or an object/);
    expect(argumentsFromWire("")).toEqual({ arguments: {}, repaired: false });
  });
});
