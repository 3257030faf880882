import { describe, expect, it } from "vitest";
import { renderChat } from "../../src/chat/templates/render.ts";
import { Tokenizer } from "../../src/nn/tokenizer/index.ts";
import { CHAT_FORMATS, encodeChat } from "../../src/toolgen/chat-encoding.ts";

describe("chat encoding", () => {
  const tokenizer = Tokenizer.train(
    ["what is the weather in Lisbon today", "Tool Name: weather API Name: forecast", "0 0 1 2 8"],
    330,
    { specialTokens: [...CHAT_FORMATS.llama3.specials] },
  );
  tokenizer.addTokens(["<<weather&&forecast>>"]);
  const messages = [
    { role: "system" as const, content: "You are an AutoGPT." },
    { role: "user" as const, content: " what is the weather in Lisbon? " },
    { role: "assistant" as const, content: "<<weather&&forecast>>" },
    { role: "user" as const, content: "Generate the action." },
    { role: "assistant" as const, content: "0 0 1 2 8" },
  ];

  it("Llama-3 ids equal the tokens of the shipped llama3 template's text (what the built-in ChatModel renders)", () => {
    const enc = encodeChat(tokenizer, messages);
    expect(enc.ids).toEqual(tokenizer.encode(renderChat("llama3", messages)));
    const prompt = encodeChat(tokenizer, messages.slice(0, 2), { generationPrompt: true });
    expect(prompt.ids).toEqual(
      tokenizer.encode(renderChat("llama3", messages.slice(0, 2), { addGenerationPrompt: true })),
    );
  });

  it("only the user contents are droppable (token dropout never touches headers, system or assistant turns)", () => {
    const enc = encodeChat(tokenizer, messages);
    const droppable = enc.ids.filter((_, i) => enc.droppable[i] === 1);
    expect(droppable).toEqual([
      ...tokenizer.encode("what is the weather in Lisbon?"),
      ...tokenizer.encode("Generate the action."),
    ]);
  });

  it("the loss mask covers exactly the assistant contents and their <|eot_id|>", () => {
    const enc = encodeChat(tokenizer, messages);
    const trained = enc.ids.filter((_, i) => enc.lossMask[i] === 1);
    const eot = tokenizer.tokenToId("<|eot_id|>")!;
    expect(trained).toEqual([
      ...tokenizer.encode("<<weather&&forecast>>"),
      eot,
      ...tokenizer.encode("0 0 1 2 8"),
      eot,
    ]);
  });

  it("long non-assistant contents are cut to fit, assistant turns never", () => {
    const long = [{ role: "user" as const, content: "weather ".repeat(200) }, messages[2]!];
    const enc = encodeChat(tokenizer, long, { maxLength: 40 });
    expect(enc.ids.length).toBe(40);
    expect(enc.ids.slice(-2)).toEqual([
      tokenizer.tokenToId("<<weather&&forecast>>"),
      tokenizer.tokenToId("<|eot_id|>"),
    ]);
  });
});
