import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ChatTemplateError, renderChat } from "../../src/chat/templates/render.ts";
import { TEMPLATE_NAMES } from "../../src/chat/templates/registry.ts";
import { toToolJson, tool } from "../../src/tools/define.ts";
import type { ToolJson } from "../../src/tools/types.ts";

const weather = tool({
  name: "get_weather",
  description: "The weather in a city",
  inputSchema: z.object({ city: z.string().describe("City name") }),
  execute: ({ city }) => `sunny in ${city}`,
});
const messages = [{ role: "user" as const, content: "Weather in Oslo?" }];

describe("renderChat with tool() objects", () => {
  it.each(TEMPLATE_NAMES)("%s renders a tool() exactly as its JSON form (no DataCloneError)", (name) => {
    const fromObject = renderChat(name, messages, { tools: [weather], addGenerationPrompt: true });
    const fromJson = renderChat(name, messages, { tools: [toToolJson(weather)], addGenerationPrompt: true });
    expect(fromObject).toBe(fromJson);
    if (name !== "llama3") expect(fromObject).toContain("get_weather"); // plain llama3 has no tool section
  });

  it("names a tool that is neither form", () => {
    expect(() => renderChat("hermes", messages, { tools: [{ nope: 1 } as unknown as ToolJson] })).toThrow(
      new ChatTemplateError(
        'tools[0] is neither a tool() object nor HF/OpenAI tool JSON ({type: "function", function: {name, …}})',
      ),
    );
  });
});
