import type { ActionDecoder } from "../agents/toolgen.ts";
import { numbersIn, quotedSpans } from "../constrain/index.ts";
import type { CatalogEntry } from "../catalog/catalog.ts";
import { Bm25Retriever } from "../retrieval/bm25.ts";
import type { Retriever } from "../retrieval/retriever.ts";
import type { ToolIndex } from "../toolgen/ids.ts";
import type { ToolGenChatModel } from "./chat-model.ts";

/**
 * An action decoder that weighs the model's tool choice with the question's words: of the model's `beams`
 * likeliest actions, the tool with the highest log-probability + `weight` × its BM25 score over the tool
 * descriptions (divided by the best tool's score) is taken. When the model's likeliest action is <<Finish>>, it
 * stands: the words never turn a decline into a call. The small demo model sometimes takes a tool that a word
 * of the question rules out ("url-encode …" → base64_decode); BM25 alone picks the right first tool far less
 * often (docs/demo-model.md).
 */
export function lexicalActionDecoder(o: {
  chat: ToolGenChatModel;
  bm25: Retriever;
  /** The written form of each action → its catalog id (the Finish token maps to nothing). */
  idOf: (written: string) => string | undefined;
  weight: number;
  beams?: number;
  /**
   * Decline at the first action when the question shares no word with any tool description (BM25 finds
   * nothing) and carries no value a tool could take (a number, in digits or words, or quoted text), even
   * though the model chose a tool: the small model calls a tool for "what rhymes with orange?".
   */
  declineWithoutEvidence?: boolean;
}): ActionDecoder {
  const cache = new Map<string, Map<string, number>>();
  async function lexical(question: string): Promise<Map<string, number>> {
    let scores = cache.get(question);
    if (!scores) {
      const hits = await o.bm25.search(question, { k: 1000 });
      const best = hits[0]?.score ?? 0;
      scores = new Map(hits.map((h) => [h.id, best > 0 ? h.score / best : 0]));
      if (cache.size > 256) cache.clear();
      cache.set(question, scores);
    }
    return scores;
  }
  return async ({ messages, options }) => {
    const ranked = await o.chat.rankChoice(messages, options, o.beams ?? 5);
    const top = ranked[0];
    if (!top || o.idOf(top.option) === undefined) return top?.option ?? options[options.length - 1]!;
    const question = messages.find((m) => m.role === "user")?.content ?? "";
    const words = await lexical(question);
    if (o.declineWithoutEvidence && words.size === 0 && !messages.some((m) => m.role === "tool")) {
      const finish = options.find((option) => o.idOf(option) === undefined);
      if (finish !== undefined && !carriesValue(question)) return finish;
    }
    let best = top;
    let bestScore = -Infinity;
    for (const r of ranked) {
      const id = o.idOf(r.option);
      if (id === undefined) continue;
      const score = r.logProb + o.weight * (words.get(id) ?? 0);
      if (score > bestScore) [best, bestScore] = [r, score];
    }
    return best.option;
  };
}

/** A number (digits or words) or a quoted text: something a tool could take as an argument. */
function carriesValue(question: string): boolean {
  return numbersIn(question).length > 0 || quotedSpans(question).length > 0;
}

/** The weight the demo uses, chosen on the dev questions among 0, 1, 2 and 4 (docs/demo-model.md). */
export const DEMO_LEXICAL_WEIGHT = 2;

/** Whether the demo declines questions without lexical evidence (lexicalActionDecoder's declineWithoutEvidence). */
export const DEMO_DECLINE_WITHOUT_EVIDENCE = true;

/** The demo's action decoder for an opened demo model (BM25 over the demo catalog), and how it says so. */
export function demoActionDecoder(
  opened: { chat: ToolGenChatModel; index: ToolIndex },
  catalog: readonly CatalogEntry[],
  weight = DEMO_LEXICAL_WEIGHT,
  declineWithoutEvidence = DEMO_DECLINE_WITHOUT_EVIDENCE,
): { decode: ActionDecoder; how: string } {
  const idOfText = new Map(Object.entries(opened.index.texts).map(([id, text]) => [text, id]));
  const decode = lexicalActionDecoder({
    chat: opened.chat,
    bm25: new Bm25Retriever(catalog),
    idOf: (t) => idOfText.get(t),
    weight,
    declineWithoutEvidence,
  });
  const gate = declineWithoutEvidence
    ? "; declined at once when no word of the question is in a tool description and it holds no number or quoted text"
    : "";
  const how = `the model's token among the tool tokens and <<Finish>>: its 5 likeliest tools weighed by the question's words (BM25 × ${weight}); a decline stands${gate}`;
  return { decode, how };
}
