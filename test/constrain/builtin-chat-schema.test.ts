import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import type { Message } from "../../src/chat/messages.ts";
import { BuiltinTokenModel } from "../../src/models/builtin.ts";
import { BuiltinChatModel } from "../../src/models/builtin-chat.ts";
import { presetConfig } from "../../src/nn/config.ts";
import { Llama } from "../../src/nn/llama.ts";
import { initParams } from "../../src/nn/params.ts";
import { Tokenizer } from "../../src/nn/tokenizer/index.ts";
import { LLAMA3_SPECIAL_TOKENS } from "../../src/nn/train/text.ts";
import type { ObjectSchema, ToolJson } from "../../src/tools/types.ts";

const tok = Tokenizer.train(
  ['{"city": "Lisbon", "days": 3, "units": "metric"} {"name": "weather", "parameters": {}} the weather in'],
  400,
  { specialTokens: LLAMA3_SPECIAL_TOKENS },
);
const cfg = presetConfig("tiny", tok.vocabSize, {
  hiddenSize: 32,
  intermediateSize: 64,
  numLayers: 1,
  numHeads: 2,
  maxPositions: 4096,
});
const chat = new BuiltinChatModel(new BuiltinTokenModel(new Llama(cfg, initParams(cfg, 7)), tok));
const user: Message[] = [{ role: "user", content: "weather in Lisbon?" }];
const weather: ObjectSchema = {
  type: "object",
  properties: {
    city: { type: "string", maxLength: 12 },
    days: { type: "integer", minimum: 1, maximum: 7 },
    units: { type: "string", enum: ["metric", "imperial"] },
  },
  required: ["city"],
};
const tools: ToolJson[] = [
  { type: "function", function: { name: "weather", description: "Forecast", parameters: weather } },
  {
    type: "function",
    function: {
      name: "time",
      description: "Time",
      parameters: { type: "object", properties: { zone: { type: "string" } }, required: ["zone"] },
    },
  },
];

describe("BuiltinChatModel under a json-schema constraint (an untrained model)", () => {
  it("writes JSON the schema accepts, sampled or greedy", async () => {
    const validate = new Ajv().compile(weather);
    for (const seed of [1, 2, 3]) {
      const r = await chat.generate(user, {
        constraint: { kind: "json-schema", schema: weather },
        temperature: 1.5,
        seed,
        maxTokens: 48,
      });
      const value: unknown = JSON.parse(r.message.content);
      expect(validate(value), r.message.content).toBe(true);
    }
  });

  it("fits the value into maxTokens and refuses a budget below its shortest form", async () => {
    const r = await chat.generate(user, {
      constraint: { kind: "json-schema", schema: weather },
      temperature: 2,
      seed: 4,
      maxTokens: 14,
    });
    expect(r.usage.completionTokens).toBeLessThanOrEqual(14);
    expect(new Ajv().validate(weather, JSON.parse(r.message.content))).toBe(true);
    await expect(
      chat.generate(user, { constraint: { kind: "json-schema", schema: weather }, maxTokens: 5 }),
    ).rejects.toThrow(/cannot finish the JSON value/);
  });

  it("decodes a required tool call under the named tool's schema", async () => {
    for (const seed of [1, 2]) {
      const r = await chat.generate(user, {
        tools,
        toolChoice: "required",
        temperature: 1,
        seed,
        maxTokens: 64,
      });
      expect(r.finishReason).toBe("tool_calls");
      const call = r.message.tool_calls![0]!;
      const schema = tools.find((t) => t.function.name === call.function.name)!.function.parameters;
      expect(new Ajv().validate(schema, call.function.arguments)).toBe(true);
    }
    const named = await chat.generate(user, { tools, toolChoice: { name: "time" }, maxTokens: 64 });
    expect(named.message.tool_calls![0]!.function.name).toBe("time");
  });
});
