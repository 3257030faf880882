import { describe, expect, it } from "vitest";
import { enumEvidence, lexicalActionDecoder } from "../../src/demo/action-prior.ts";
import type { CatalogEntry } from "../../src/catalog/catalog.ts";
import { CopySource } from "../../src/constrain/copy.ts";
import type { ToolGenChatModel } from "../../src/demo/chat-model.ts";
import { openDemoModel } from "../../src/demo/model.ts";
import type { Retriever } from "../../src/retrieval/retriever.ts";

/** A model whose ranking is given, and a BM25 stand-in with given scores: the weighing logic alone. */
function decoderWith(
  ranked: [string, number][],
  words: Record<string, number>,
  weight: number,
  declineWithoutEvidence = false,
) {
  const chat = { rankChoice: async () => ranked.map(([option, logProb]) => ({ option, logProb })) };
  const bm25: Retriever = {
    name: "bm25",
    search: async () =>
      Object.entries(words)
        .map(([id, score]) => ({ id, score }))
        .sort((a, b) => b.score - a.score),
  };
  const idOf = (t: string) => (t === "<<Finish>>" ? undefined : t.slice(2, -2));
  return lexicalActionDecoder({
    chat: chat as unknown as ToolGenChatModel,
    bm25,
    idOf,
    weight,
    declineWithoutEvidence,
  });
}
const ask = { messages: [{ role: "user" as const, content: "url-encode a b" }], temperature: 0 };
const options = ["<<url_encode>>", "<<base64_decode>>", "<<Finish>>"];

describe("the demo's action decoding weighed by the question's words", () => {
  it("takes the model's likeliest action at weight 0, and the words' tool among its likeliest at a large one", async () => {
    const ranked: [string, number][] = [
      ["<<base64_decode>>", -0.5],
      ["<<url_encode>>", -1.5],
      ["<<Finish>>", -3],
    ];
    const words = { url_encode: 9.7, base64_decode: 2, url_decode: 8 };
    expect(await decoderWith(ranked, words, 0)({ ...ask, options })).toBe("<<base64_decode>>");
    expect(await decoderWith(ranked, words, 0.5)({ ...ask, options })).toBe("<<base64_decode>>");
    expect(await decoderWith(ranked, words, 2)({ ...ask, options })).toBe("<<url_encode>>");
    // url_decode scores high on the words but is not among the model's likeliest: never taken
    expect(await decoderWith(ranked, words, 100)({ ...ask, options })).toBe("<<url_encode>>");
  });

  it("never turns the model's decline into a call", async () => {
    const ranked: [string, number][] = [
      ["<<Finish>>", -0.2],
      ["<<url_encode>>", -2],
    ];
    expect(await decoderWith(ranked, { url_encode: 10 }, 100)({ ...ask, options })).toBe("<<Finish>>");
  });

  it("with the gate, declines a first action without lexical evidence unless the question holds a value", async () => {
    const ranked: [string, number][] = [
      ["<<url_encode>>", -0.1],
      ["<<Finish>>", -4],
    ];
    const turn = (content: string, tool = false) => ({
      messages: [
        { role: "user" as const, content },
        ...(tool ? [{ role: "tool" as const, content: "x", toolCallId: "1" }] : []),
      ],
      temperature: 0,
      options,
    });
    const gated = decoderWith(ranked, {}, 2, true);
    expect(await gated(turn("what rhymes with orange?"))).toBe("<<Finish>>");
    // a number, in digits or in words, or quoted text is something a tool could take
    expect(await gated(turn("902 minus 458"))).toBe("<<url_encode>>");
    expect(await gated(turn("ten times seven"))).toBe("<<url_encode>>");
    expect(await gated(turn('flip "abc"'))).toBe("<<url_encode>>");
    // only at the first action: after a tool result the model's choice stands
    expect(await gated(turn("what rhymes with orange?", true))).toBe("<<url_encode>>");
    // with any word in a tool description, or without the gate, the model's choice stands
    expect(await decoderWith(ranked, { url_encode: 1 }, 2, true)(turn("rhymes"))).toBe("<<url_encode>>");
    expect(await decoderWith(ranked, {}, 2, false)(turn("rhymes"))).toBe("<<url_encode>>");
  });

  it("lets a first decline give way to a tool a probability prior is sure of, when the question holds a value", async () => {
    const ranked: [string, number][] = [
      ["<<Finish>>", -0.05],
      ["<<url_encode>>", -3],
    ];
    const chat = { rankChoice: async () => ranked.map(([option, logProb]) => ({ option, logProb })) };
    const bm25: Retriever = { name: "bm25", search: async () => [{ id: "url_encode", score: 1 }] };
    const decoder = (p: number, overrideDeclineAt?: number) =>
      lexicalActionDecoder({
        chat: chat as unknown as ToolGenChatModel,
        bm25,
        prior: async () => new Map([["url_encode", Math.log(p)]]),
        idOf: (t) => (t === "<<Finish>>" ? undefined : t.slice(2, -2)),
        weight: 1,
        ...(overrideDeclineAt !== undefined ? { overrideDeclineAt } : {}),
      });
    const turn = (content: string) => ({
      messages: [{ role: "user" as const, content }],
      temperature: 0,
      options,
    });
    expect(await decoder(0.8, 0.75)(turn('url-encode "a b"'))).toBe("<<url_encode>>");
    expect(await decoder(0.7, 0.75)(turn('url-encode "a b"'))).toBe("<<Finish>>");
    expect(await decoder(0.8, 0.75)(turn("url-encode it"))).toBe("<<Finish>>"); // no value in the question
    expect(await decoder(0.99)(turn('url-encode "a b"'))).toBe("<<Finish>>"); // no override asked
  });

  it("after a call that worked, calls another tool only when the prior wants it, else answers", async () => {
    const ranked: [string, number][] = [
      ["<<url_encode>>", -0.1],
      ["<<Finish>>", -3],
    ];
    const chat = { rankChoice: async () => ranked.map(([option, logProb]) => ({ option, logProb })) };
    const bm25: Retriever = { name: "bm25", search: async () => [{ id: "url_encode", score: 1 }] };
    const decoder = (p: number, nextCallNeeds?: number) =>
      lexicalActionDecoder({
        chat: chat as unknown as ToolGenChatModel,
        bm25,
        prior: async () => new Map([["url_encode", Math.log(p)]]),
        idOf: (t) => (t === "<<Finish>>" ? undefined : t.slice(2, -2)),
        weight: 1,
        ...(nextCallNeeds !== undefined ? { nextCallNeeds } : {}),
      });
    const after = (error: string) => ({
      messages: [
        { role: "user" as const, content: "sha256 of abc" },
        { role: "tool" as const, content: JSON.stringify({ error, response: "ba78…" }), toolCallId: "1" },
      ],
      temperature: 0,
      options,
    });
    expect(await decoder(0.001, 0.01)(after(""))).toBe("<<Finish>>");
    expect(await decoder(0.5, 0.01)(after(""))).toBe("<<url_encode>>");
    // after an error the model may try again; without the option its choice stands
    expect(await decoder(0.001, 0.01)(after("bad input"))).toBe("<<url_encode>>");
    expect(await decoder(0.001)(after(""))).toBe("<<url_encode>>");
    // never at the first action
    const first = {
      messages: [{ role: "user" as const, content: "sha256 of abc" }],
      temperature: 0,
      options,
    };
    expect(await decoder(0.001, 0.01)(first)).toBe("<<url_encode>>");
  });

  it("weighs a tool by whether the question states a value for each of its required enums", () => {
    const units = { type: "string", enum: ["l", "liters", "gallons", "kg", "days", "hours"] };
    const entry = (parameters: Record<string, unknown>) =>
      ({ id: "t", tool: "t", api: "t", description: "", doc: null, parameters }) as unknown as CatalogEntry;
    const convert = entry({
      type: "object",
      properties: { value: { type: "number" }, from: units, to: units },
      required: ["value", "from", "to"],
    });
    expect(enumEvidence(convert, new CopySource(["3 gallons -> liters"]))).toBe(1);
    expect(enumEvidence(convert, new CopySource(["3 pints -> liters"]))).toBe(-1);
    // one unit stated is no conversion between two
    expect(enumEvidence(convert, new CopySource(["days in april 2026?"]))).toBe(-1);
    const plain = entry({ type: "object", properties: { text: { type: "string" } }, required: ["text"] });
    expect(enumEvidence(plain, new CopySource(["3 gallons -> liters"]))).toBe(0);
  });

  it("lets a tool past the model's likeliest join only when the question states its enums' values", async () => {
    const ranked: [string, number][] = [
      ["<<convert_mass>>", -0.5],
      ["<<evaluate_expression>>", -1],
      ["<<convert_volume>>", -4],
      ["<<convert_data>>", -5],
    ];
    const chat = {
      rankChoice: async (_m: unknown, _o: unknown, n: number) =>
        ranked.slice(0, n).map(([option, logProb]) => ({ option, logProb })),
    };
    const units = (values: string[]) => ({ type: "string", enum: values });
    const entries = new Map(
      [
        ["convert_mass", ["kg", "g"]],
        ["convert_volume", ["gallons", "liters"]],
        ["convert_data", ["MB", "GB"]],
      ].map(([id, values]) => [
        id as string,
        {
          id,
          tool: id,
          api: id,
          description: "",
          doc: null,
          parameters: {
            type: "object",
            properties: { from: units(values as string[]), to: units(values as string[]) },
            required: ["from", "to"],
          },
        } as unknown as CatalogEntry,
      ]),
    );
    const decoder = (evidenceBeams?: number) =>
      lexicalActionDecoder({
        chat: chat as unknown as ToolGenChatModel,
        bm25: { name: "bm25", search: async () => [{ id: "convert_volume", score: 1 }] },
        prior: async () => new Map(),
        idOf: (t) => (t === "<<Finish>>" ? undefined : t.slice(2, -2)),
        weight: 1,
        beams: 2,
        enumWeight: 4,
        entryOf: (id) => entries.get(id),
        ...(evidenceBeams !== undefined ? { evidenceBeams } : {}),
      });
    const turn = {
      messages: [{ role: "user" as const, content: "3 gallons -> liters" }],
      temperature: 0,
      options: [...ranked.map(([o]) => o), "<<Finish>>"],
    };
    // within the likeliest 2, convert_mass loses its 4 and evaluate_expression wins
    expect(await decoder()(turn)).toBe("<<evaluate_expression>>");
    // reaching 4, convert_volume joins (its units are stated), convert_data does not
    expect(await decoder(4)(turn)).toBe("<<convert_volume>>");
  });

  it("ranks the real model's options best first, each at most once", async () => {
    const { chat } = openDemoModel("models/demo");
    const messages = [{ role: "user" as const, content: "What is 12 factorial?" }];
    const all = ["<<factorial>>", "<<fibonacci>>", "<<add_numbers>>", "<<Finish>>"];
    const ranked = await chat.rankChoice(messages, all, 4);
    expect(ranked.length).toBe(4);
    expect(new Set(ranked.map((r) => r.option)).size).toBe(4);
    for (let i = 1; i < ranked.length; i++)
      expect(ranked[i]!.logProb).toBeLessThanOrEqual(ranked[i - 1]!.logProb);
    expect(ranked.reduce((s, r) => s + Math.exp(r.logProb), 0)).toBeLessThanOrEqual(1 + 1e-9);
  });
});
