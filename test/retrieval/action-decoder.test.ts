import { describe, expect, it } from "vitest";
import type { TokenModel, TokenSession } from "../../src/models/model.ts";
import { optionTrie, trieActionDecoder } from "../../src/retrieval/action-decoder.ts";
import { TokenTrie } from "../../src/retrieval/trie.ts";

/** Words are tokens; `<|im_end|>` and the atomic tokens are single ids; logits favour `favourite` everywhere. */
function wordModel(vocab: string[], favourite: string): TokenModel {
  const id = (w: string) => vocab.indexOf(w);
  const logits = async () => Float32Array.from(vocab, (w) => (w === favourite ? 5 : 0));
  const session = async (): Promise<TokenSession> => ({ append: logits, fork: session, dispose: () => {} });
  return {
    vocabSize: vocab.length,
    tokenize: (t) =>
      t
        .split(/(<<[^>]*>>|<\|im_end\|>|<\|im_start\|>|\s+)/)
        .filter((w) => w.trim() !== "")
        .map(id),
    detokenize: (ids) => ids.map((i) => vocab[i]).join(" "),
    tokenId: (t) => (vocab.includes(t) ? id(t) : undefined),
    logits,
    session,
  };
}

const VOCAB = [
  "<|im_start|>",
  "<|im_end|>",
  "user",
  "assistant",
  "hi",
  "<<a>>",
  "<<b>>",
  "<<Finish>>",
  "0",
  "1",
  "9",
];

describe("constrained action step", () => {
  it("atomic options are one-token steps; the decoder never leaves the options", async () => {
    const model = wordModel(VOCAB, "hi"); // the model would rather say "hi"
    const decode = trieActionDecoder(model, { chatFormat: "chatml" });
    const options = ["<<a>>", "<<b>>", "<<Finish>>"];
    expect([...optionTrie(model, options, "chatml").entries()].every(([, t]) => t.length === 1)).toBe(true);
    const action = await decode({ messages: [{ role: "user", content: "hi" }], options });
    expect(options).toContain(action);
    const free = trieActionDecoder(model, { constrained: false, maxSteps: 3, chatFormat: "chatml" });
    expect(options).not.toContain(await free({ messages: [{ role: "user", content: "hi" }], options }));
  });

  it("multi-token options end with <|im_end|> and decode to one of them", async () => {
    const model = wordModel(VOCAB, "9");
    const options = ["0 1", "0 9", "1 9 9", "<<Finish>>"];
    const trie = optionTrie(model, options, "chatml");
    expect(trie.valueOf([8, 10, 1])).toBe("0 9");
    const action = await trieActionDecoder(model, { beams: 3, chatFormat: "chatml" })({
      messages: [{ role: "user", content: "hi" }],
      options,
    });
    expect(options).toContain(action);
  });

  it("counts raw action outputs: 0 invalid under a healthy trie, unconstrained and broken tries counted", async () => {
    const model = wordModel(VOCAB, "hi");
    const options = ["<<a>>", "<<b>>", "<<Finish>>"];
    const turn = { messages: [{ role: "user" as const, content: "hi" }], options };
    const held = { generations: 0, invalid: 0 };
    await trieActionDecoder(model, { chatFormat: "chatml", raw: held })(turn);
    expect(held).toEqual({ generations: 1, invalid: 0 });
    const free = { generations: 0, invalid: 0 };
    await trieActionDecoder(model, { constrained: false, maxSteps: 3, chatFormat: "chatml", raw: free })(
      turn,
    );
    expect(free).toEqual({ generations: 1, invalid: 1 });
    // A trie that maps "<<a>>" to the token "hi": the action still reads "<<a>>", the raw count says otherwise.
    const broken = TokenTrie.from([
      ["<<a>>", [VOCAB.indexOf("hi")]],
      ["<<b>>", [VOCAB.indexOf("<<b>>")]],
    ]);
    const bad = { generations: 0, invalid: 0 };
    expect(await trieActionDecoder(model, { chatFormat: "chatml", raw: bad, trie: broken })(turn)).toBe(
      "<<a>>",
    );
    expect(bad).toEqual({ generations: 1, invalid: 1 });
  });
});
