import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { StreamEvent } from "../../src/models/model.ts";
import { ScriptedModel, ScriptedModelError, ScriptedModelExhaustedError } from "../../src/models/scripted.ts";

const user = [{ role: "user" as const, content: "Hey, what's the temperature in Paris right now?" }];

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe("ScriptedModel", () => {
  it("replays text and tool-call replies in order, then errors clearly", async () => {
    const model = new ScriptedModel([
      {
        tool_calls: [
          { name: "get_current_temperature", arguments: { location: "Paris, France", unit: "celsius" } },
        ],
      },
      "The temperature in Paris, France right now is 22°C.",
    ]);
    const first = await model.generate(user);
    expect(first.finishReason).toBe("tool_calls");
    expect(first.message).toEqual({
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
    });
    const second = await model.generate(user);
    expect(second.message.content).toBe("The temperature in Paris, France right now is 22°C.");
    expect(second.finishReason).toBe("stop");
    expect(model.remaining).toBe(0);
    expect(model.calls).toHaveLength(2);
    await expect(model.generate(user)).rejects.toThrow(ScriptedModelExhaustedError);
    await expect(model.generate(user)).rejects.toThrow(/ran out of replies: call 4 but only 2 replies/);
  });

  it("accepts the full contract form and wire-form string arguments", async () => {
    const model = new ScriptedModel([
      {
        content: "calling",
        tool_calls: [
          { id: "a", type: "function", function: { name: "f", arguments: '{"x": 1}' } },
          { id: "b", type: "function", function: { name: "g", arguments: { y: [2] } } },
        ],
      },
    ]);
    const { message } = await model.generate(user);
    expect(message.tool_calls?.map((c) => [c.id, c.function.name, c.function.arguments])).toEqual([
      ["a", "f", { x: 1 }],
      ["b", "g", { y: [2] }],
    ]);
  });

  it("streams text in chunks and tool-call deltas whose fragments join to the arguments", async () => {
    const model = new ScriptedModel(
      ["Hello there, world", { tool_calls: [{ name: "f", arguments: { city: "Paris" } }] }],
      { chunkSize: 5 },
    );
    const textEvents = await collect(model.stream(user));
    const deltas = textEvents.filter((e) => e.type === "text").map((e) => (e.type === "text" ? e.delta : ""));
    expect(deltas).toEqual(["Hello", " ther", "e, wo", "rld"]);
    expect(textEvents.at(-1)).toMatchObject({
      type: "done",
      result: { message: { content: "Hello there, world" } },
    });

    const callEvents = await collect(model.stream(user));
    const fragments = callEvents.flatMap((e) => (e.type === "tool_call_delta" ? [e] : []));
    expect(fragments.length).toBe(2);
    expect(fragments[0]).toMatchObject({ index: 0, id: "call_1", name: "f" });
    expect(JSON.parse(fragments.map((f) => f.argumentsDelta).join(""))).toEqual({ city: "Paris" });
    await expect(collect(model.stream(user))).rejects.toThrow(ScriptedModelExhaustedError);
  });

  it("builds replies from functions and records what it was asked", async () => {
    const model = new ScriptedModel([(messages) => `echo: ${messages.at(-1)?.content}`]);
    const result = await model.generate(user, { temperature: 0.2 });
    expect(result.message.content).toBe(`echo: ${user[0]!.content}`);
    expect(model.calls[0]!.options.temperature).toBe(0.2);
  });

  it("honours an aborted signal", async () => {
    const model = new ScriptedModel(["x"]);
    const controller = new AbortController();
    controller.abort(new Error("stop now"));
    await expect(model.generate(user, { signal: controller.signal })).rejects.toThrow("stop now");
  });

  it("rejects bad scripts when loaded, naming the entry", () => {
    expect(() => new ScriptedModel([42 as unknown as string])).toThrow(
      /reply 0: expected a string or an assistant/,
    );
    expect(() => new ScriptedModel([{ tool_calls: [{ arguments: {} } as never] }])).toThrow(
      /reply 0, tool call 0: needs a function name/,
    );
    expect(() => new ScriptedModel([{ role: "user" } as never])).toThrow(/role must be "assistant"/);
  });

  describe("fromFile", () => {
    const dir = mkdtempSync(join(tmpdir(), "scripted-"));
    const write = (name: string, text: string) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    };

    it("reads a JSON array, a {replies} object and JSONL", async () => {
      const array = ScriptedModel.fromFile(write("a.json", JSON.stringify(["one", { content: "two" }])));
      expect((await array.generate(user)).message.content).toBe("one");
      expect((await array.generate(user)).message.content).toBe("two");
      expect(array.id).toMatch(/^scripted:/);

      const wrapped = ScriptedModel.fromFile(write("b.json", JSON.stringify({ replies: ["only"] }, null, 2)));
      expect(wrapped.remaining).toBe(1);

      const jsonl = ScriptedModel.fromFile(
        write("c.jsonl", '{"tool_calls":[{"name":"f","arguments":{"a":1}}]}\n\n"done"\n'),
      );
      expect((await jsonl.generate(user)).message.tool_calls?.[0]?.function.arguments).toEqual({ a: 1 });
      expect((await jsonl.generate(user)).message.content).toBe("done");
      await expect(jsonl.generate(user)).rejects.toThrow(/c\.jsonl/);
    });

    it("gives clear errors for missing, empty and malformed files", () => {
      expect(() => ScriptedModel.fromFile(join(dir, "missing.json"))).toThrow(ScriptedModelError);
      expect(() => ScriptedModel.fromFile(write("empty.json", "  \n"))).toThrow(/empty/);
      expect(() => ScriptedModel.fromFile(write("bad.jsonl", '"ok"\n{oops\n'))).toThrow(
        /bad\.jsonl:2: not valid JSON/,
      );
    });
  });
});
