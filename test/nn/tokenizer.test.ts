import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Tokenizer as HfTokenizer } from "@huggingface/tokenizers";
import { describe, expect, it } from "vitest";
import { Tokenizer, pretokenize } from "../../src/nn/tokenizer/index.ts";

const SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"];
const TOOL_TOKENS = ["<<Weather&&Get current>>", "<<Finish>>", "<<北京&&天气>>"];

/** Unicode (accents, CJK, emoji, combining marks), whitespace runs, digits, contractions. */
const CORPUS = [
  "Hello world! The quick brown fox jumps over the lazy dog.",
  "São Paulo é a maior cidade do Brasil; coração, ação, pão.",
  "北京是中国的首都。我爱自然语言处理，天气很好！",
  "Emoji 🤖🎉👩‍💻 and   multiple    spaces\t\ttabs\n\nnewlines   ",
  "Numbers 12345 and 3.14159, also 2026-11-29, ٣٤٥ and 1,000,000.",
  "I'm sure you'll see it's what they've done, I'd say. DON'T SHOUT",
  "e\u0301 combining, ﬁ ligature, Ελληνικά, русский текст, עברית",
  "  leading spaces\u00a0nbsp\u3000ideographic space   \r\n trailing  ",
  'get_current_weather(location=\'Paris\', unit="celsius") -> {"temp": 21.5}',
];

function corpusTexts(): string[] {
  const texts: string[] = [];
  for (let i = 0; i < 40; i++) for (const c of CORPUS) texts.push(`${c} ${i} ${i * 37}`);
  return texts;
}

function trained(): Tokenizer {
  const t = Tokenizer.train(corpusTexts(), 700, { specialTokens: SPECIALS });
  t.addTokens(TOOL_TOKENS);
  return t;
}

const PROBES = [
  ...CORPUS,
  "<|im_start|>user\nWhat's the weather in 北京?<|im_end|>\n<|im_start|>assistant\n<<Weather&&Get current>><|im_end|>",
  "call <<Weather&&Get current>>then<<Finish>> and <<北京&&天气>>  ",
  "<<Weather&&Get current> almost a token, <<Finish>>> and <<<Finish>>",
  "unseen words: zxqv jjjj ŋŋŋ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 0000000000 99999",
  "",
  " ",
  "\n\n\n",
  "a  b   c    d",
];

describe("byte-level BPE tokenizer", () => {
  it("pre-tokenizes like GPT-2 and keeps every character", () => {
    expect(pretokenize("Hello  world's 123abc!!\n\n x")).toEqual([
      "Hello",
      " ",
      " world",
      "'s",
      " 123",
      "abc",
      "!!",
      "\n\n",
      " x",
    ]);
    for (const p of PROBES) expect(pretokenize(p).join("")).toBe(p);
  });

  it("round-trips every probe through encode and decode", () => {
    const t = trained();
    for (const p of PROBES) expect(t.decode(t.encode(p))).toBe(p);
  });

  it("learns merges: common words become single tokens", () => {
    const t = trained();
    expect(t.encode(" quick").length).toBe(1);
    expect(t.encode("Hello world!").length).toBeLessThan("Hello world!".length);
    expect(t.vocabSize).toBeGreaterThan(SPECIALS.length + 256 + 100);
    expect(t.vocabSize).toBeLessThanOrEqual(700 + TOOL_TOKENS.length);
  });

  it("places special tokens first and never splits special or added tokens", () => {
    const t = trained();
    SPECIALS.forEach((s, i) => expect(t.tokenToId(s)).toBe(i));
    const ids = t.encode("x<|im_start|>y<<Weather&&Get current>>z<<Finish>>");
    expect(ids).toContain(t.tokenToId("<|im_start|>"));
    expect(ids).toContain(t.tokenToId("<<Weather&&Get current>>"));
    expect(ids).toContain(t.tokenToId("<<Finish>>"));
    for (const tok of TOOL_TOKENS) expect(t.encode(tok)).toEqual([t.tokenToId(tok)]);
    expect(t.idToToken(t.tokenToId("<<Finish>>")!)).toBe("<<Finish>>");
  });

  it("can encode special tokens as plain text and skip them when decoding", () => {
    const t = trained();
    const asText = t.encode("<|im_end|>", { special: false });
    expect(asText).not.toContain(t.tokenToId("<|im_end|>"));
    expect(t.decode(asText)).toBe("<|im_end|>");
    // added (non-special) tool tokens are still recognised
    expect(t.encode("<<Finish>>", { special: false })).toEqual([t.tokenToId("<<Finish>>")]);
    const ids = t.encode("<|im_start|>hi<|im_end|>");
    expect(t.decode(ids, { skipSpecial: true })).toBe("hi");
  });

  it("gives new added tokens the next ids and keeps existing ones", () => {
    const t = trained();
    const before = t.vocabSize;
    const [a, b] = t.addTokens(["<<New&&Tool>>", "<<Finish>>"]);
    expect(a).toBe(before);
    expect(b).toBe(t.tokenToId("<<Finish>>"));
    expect(t.vocabSize).toBe(before + 1);
    const [s] = t.addTokens(["<|tool|>"], { special: true });
    expect(t.isSpecial(s!)).toBe(true);
    expect(t.isSpecial(a!)).toBe(false);
  });

  it("is deterministic: the same corpus gives the same tokenizer.json", () => {
    expect(JSON.stringify(trained().toJSON())).toBe(JSON.stringify(trained().toJSON()));
  });

  it("saves tokenizer.json and loads it back to the same ids", () => {
    const t = trained();
    const dir = mkdtempSync(join(tmpdir(), "tok-"));
    const file = t.save(dir);
    for (const src of [dir, file]) {
      const u = Tokenizer.load(src);
      expect(u.vocabSize).toBe(t.vocabSize);
      for (const p of PROBES) expect(u.encode(p)).toEqual(t.encode(p));
      expect(u.addedTokens()).toEqual(t.addedTokens());
    }
  });

  it("is read by @huggingface/tokenizers to the same ids and the same text", () => {
    const t = trained();
    const dir = mkdtempSync(join(tmpdir(), "tok-"));
    const json = JSON.parse(readFileSync(t.save(dir), "utf8")) as object;
    const hf = new HfTokenizer(json, {});
    for (const p of [...PROBES, ...corpusTexts().slice(0, 50)]) {
      const ids = t.encode(p);
      expect(hf.encode(p, { add_special_tokens: false }).ids, JSON.stringify(p)).toEqual(ids);
      if (ids.length > 0) expect(hf.decode(ids)).toBe(p);
    }
    for (const tok of [...SPECIALS, ...TOOL_TOKENS]) expect(hf.token_to_id(tok)).toBe(t.tokenToId(tok));
  });

  it("with splitDigits keeps every digit a token of its own, and @huggingface/tokenizers agrees", () => {
    const plain = Tokenizer.train(corpusTexts(), 700, { specialTokens: SPECIALS });
    const split = Tokenizer.train(corpusTexts(), 700, { specialTokens: SPECIALS, splitDigits: true });
    const digitTokens = (t: Tokenizer) =>
      Array.from({ length: t.vocabSize }, (_, id) => t.idToToken(id) ?? "").filter(
        (s) => /\d/.test(s) && s.length > 1,
      );
    // the check can fail: without the option the corpus's numbers do merge
    expect(digitTokens(plain).length).toBeGreaterThan(0);
    expect(digitTokens(split)).toEqual([]);
    const ids = split.encode("add 1234 and 40.5");
    expect(ids.map((id) => split.idToToken(id))).toEqual(
      expect.arrayContaining(["1", "2", "3", "4", "0", ".", "5"]),
    );
    const dir = mkdtempSync(join(tmpdir(), "tok-"));
    const hf = new HfTokenizer(JSON.parse(readFileSync(split.save(dir), "utf8")) as object, {});
    for (const p of [...PROBES, ...corpusTexts().slice(0, 50)]) {
      const expected = split.encode(p);
      expect(hf.encode(p, { add_special_tokens: false }).ids, JSON.stringify(p)).toEqual(expected);
      expect(split.decode(expected)).toBe(p);
    }
  });
  it('accepts the older merges form "a b"', () => {
    const t = trained();
    const json = t.toJSON() as { model: { merges: [string, string][] } };
    const old = { ...json, model: { ...json.model, merges: json.model.merges.map(([a, b]) => `${a} ${b}`) } };
    const u = Tokenizer.fromJSON(old);
    for (const p of PROBES) expect(u.encode(p)).toEqual(t.encode(p));
  });

  it("rejects bad input with a clear error", () => {
    const dir = mkdtempSync(join(tmpdir(), "tok-"));
    expect(() => Tokenizer.load(join(dir, "missing"))).toThrow(/does not exist/);
    writeFileSync(join(dir, "tokenizer.json"), "{not json");
    expect(() => Tokenizer.load(dir)).toThrow(/cannot read .* as JSON/);
    expect(() => Tokenizer.fromJSON({ model: { type: "WordPiece" } })).toThrow(/model.type must be "BPE"/);
    const json = trained().toJSON() as { model: Record<string, unknown> };
    const broken = { ...json, model: { ...json.model, merges: [["zz", "qq"]] } };
    expect(() => Tokenizer.fromJSON(broken)).toThrow(/uses a token not in the vocab/);
    expect(() => Tokenizer.train(["a"], 10)).toThrow(/vocabSize must be an integer ≥ 256/);
    expect(() => trained().decode([1e9])).toThrow(/outside the vocabulary/);
  });
});
