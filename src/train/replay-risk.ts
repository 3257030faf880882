import type { Llama } from "../nn/llama.ts";
import { Rng } from "../nn/rng.ts";
import type { ChatFormat, ChatTokenizer } from "../toolgen/chat-encoding.ts";
import { answerStates } from "./answer-states.ts";

/**
 * How much each prompt's answer already goes to the new tools: the softmax mass on `newIds` over the old and new
 * tool tokens where the model answers (forward passes only). An addition computes it after the new rows are set
 * (imprinted or fitted), so an old query with a high mass is one a new tool is about to take from its old tool.
 */
export function newToolMass(
  model: Llama,
  tokenizer: ChatTokenizer,
  prompts: readonly string[],
  oldIds: readonly number[],
  newIds: readonly number[],
  o: { format: ChatFormat; maxContentTokens: number },
): Float64Array {
  const d = model.config.hiddenSize;
  const head = model.lmHead;
  const H = answerStates(model, tokenizer, prompts, o);
  const ids = [...oldIds, ...newIds];
  const z = new Float64Array(ids.length);
  const out = new Float64Array(prompts.length);
  for (let n = 0; n < prompts.length; n++) {
    let max = -Infinity;
    for (let j = 0; j < ids.length; j++) {
      const r = ids[j]! * d;
      let s = 0;
      for (let i = 0; i < d; i++) s += H[n * d + i]! * head[r + i]!;
      z[j] = s;
      if (s > max) max = s;
    }
    let all = 0;
    let fresh = 0;
    for (let j = 0; j < ids.length; j++) {
      const e = Math.exp(z[j]! - max);
      all += e;
      if (j >= oldIds.length) fresh += e;
    }
    out[n] = fresh / all;
  }
  return out;
}

/**
 * `n` of `items` (all of them when n ≥ their number): the ⌈share·n⌉ with the highest `risk` (ties: the earlier
 * item), the rest drawn without repetition from the others with a seeded shuffle. Hard-example replay: the old
 * samples a new tool threatens are the ones whose replay teaches the new rows and the shared weights where the
 * new tools must not score, while a random draw spends most of its replay on queries no new tool is near.
 */
export function pickReplay<T>(
  items: readonly T[],
  risk: ArrayLike<number>,
  n: number,
  share: number,
  seed: number,
): T[] {
  const count = Math.min(items.length, Math.max(0, Math.round(n)));
  const order = [...items.keys()].sort((a, b) => risk[b]! - risk[a]! || a - b);
  const hard = order.slice(0, Math.min(count, Math.ceil(share * count)));
  const rest = order.slice(hard.length);
  const rng = new Rng(seed);
  for (let i = rest.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [rest[i], rest[j]] = [rest[j]!, rest[i]!];
  }
  return [...hard, ...rest.slice(0, count - hard.length)].map((i) => items[i]!);
}
