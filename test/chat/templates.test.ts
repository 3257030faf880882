import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Message } from "../../src/chat/messages.ts";
import { parseToolCalls } from "../../src/chat/parse/index.ts";
import { TEMPLATE_INFO, TEMPLATE_NAMES } from "../../src/chat/templates/registry.ts";
import {
  ChatTemplate,
  ChatTemplateError,
  loadChatTemplate,
  renderChat,
} from "../../src/chat/templates/render.ts";
import type { ToolJson } from "../../src/tools/types.ts";

const fixture = (name: string) => new URL(`../fixtures/chat/${name}`, import.meta.url);
const weather = JSON.parse(readFileSync(fixture("weather.json"), "utf8")) as {
  messages: Message[];
  tools: ToolJson[];
};

describe("chat templates: golden renders of the Hugging Face weather conversation", () => {
  // The fixtures come from Python Jinja2 set up like transformers' apply_chat_template
  // (test/fixtures/chat/render_reference.py), so this compares two independent engines.
  for (const name of TEMPLATE_NAMES) {
    for (const generation of [false, true]) {
      it(`${name}${generation ? " with generation prompt" : ""}`, () => {
        const expected = readFileSync(fixture(`weather.${name}${generation ? ".gen" : ""}.txt`), "utf8");
        const actual = renderChat(name, weather.messages, {
          tools: weather.tools,
          addGenerationPrompt: generation,
        });
        expect(actual).toBe(expected);
      });
    }
  }
});

describe("rendered calls round-trip through the matching parser", () => {
  for (const name of ["hermes", "qwen2.5", "llama3.1", "mistral"] as const) {
    it(name, () => {
      const text = renderChat(name, weather.messages.slice(0, 3), { tools: weather.tools });
      const info = TEMPLATE_INFO[name];
      // The assistant turn is the part after the last user turn's end.
      const call = weather.messages[2]!.tool_calls![0]!;
      const parsed = parseToolCalls(
        info.toolCallFormat,
        text.slice(text.lastIndexOf(call.function.name) - 40),
      );
      expect(parsed.calls.map((c) => [c.name, c.arguments])).toContainEqual([
        call.function.name,
        call.function.arguments,
      ]);
    });
  }
});

describe("ChatTemplate", () => {
  it("maps call ids to Mistral's 9 alphanumerics, keeping calls and results paired", () => {
    const messages: Message[] = [
      { role: "user", content: "hi" },
      {
        role: "assistant",
        content: "",
        tool_calls: [{ id: "call_abc-1", type: "function", function: { name: "f", arguments: { a: 1 } } }],
      },
      { role: "tool", content: "ok", tool_call_id: "call_abc-1" },
    ];
    const text = renderChat("mistral", messages);
    const ids = [...text.matchAll(/"(?:id|call_id)": "([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(ids[1]).toBe(ids[0]);
  });

  it("leaves tools undefined when there are none, so templates take their no-tools branch", () => {
    const text = renderChat("qwen2.5", [{ role: "user", content: "hi" }], {
      tools: [],
      addGenerationPrompt: true,
    });
    expect(text).toBe(
      "<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n" +
        "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n",
    );
  });

  it("passes extra context and reports a template's raise_exception as ChatTemplateError", () => {
    const withDate = renderChat("llama3.1", [{ role: "user", content: "hi" }], {
      context: { date_string: "1 Jan 2026" },
    });
    expect(withDate).toContain("Today Date: 1 Jan 2026");
    expect(() => renderChat("mistral", [{ role: "assistant", content: "first" }])).toThrow(ChatTemplateError);
    expect(() => renderChat("mistral", [{ role: "assistant", content: "first" }])).toThrow(/must alternate/);
  });

  it("compiles any HF template string and names unparsable ones", () => {
    const custom = new ChatTemplate(
      "{% for m in messages %}[{{ m.role }}]{{ m.content }}{% endfor %}{{ eos_token }}",
      {
        eosToken: "</s>",
      },
    );
    expect(custom.render([{ role: "user", content: "x" }])).toBe("[user]x</s>");
    expect(() => new ChatTemplate("{% for %}", { name: "broken" })).toThrow(
      /chat template broken does not parse/,
    );
    expect(() => loadChatTemplate("nope" as never)).toThrow(
      /shipped: hermes, qwen2.5, llama3.1, mistral, llama3/,
    );
  });
});
