import type { LabelledQuery } from "../../src/catalog/catalog.ts";
import { FINISH_TOKEN } from "../../src/toolgen/tokens.ts";
import type { Message } from "../../src/chat/messages.ts";
import {
  COMMITTED_DEMO_MODEL,
  DEMO_SCHEDULE,
  demoData,
  openDemoModel,
  withSandbox,
} from "../../src/demo/model.ts";
import { trajectoriesFor } from "../../src/demo/generator.ts";
import { trieActionDecoder } from "../../src/retrieval/action-decoder.ts";
import { openToolGenRetriever } from "../../src/retrieval/toolgen-open.ts";
import { agentSamples } from "../../src/train/datasets.ts";

/**
 * Hallucination (paper §5.4) measured so that it can fail. Every decoding's raw outputs are checked against the
 * index itself (`GenerativeRetriever.rawOutputs`: the tokens of the id each output claims), before any
 * filtering — a broken trie or decoder shows up as invalid outputs under the constraint (the unit tests inject
 * one). Unconstrained decoding (whole vocabulary) gives the model's own rate, per index kind.
 */
export async function retrievalHallucination(
  models: ReadonlyArray<{ name: string; out: string; maxContentTokens: number }>,
  queries: readonly LabelledQuery[],
  n: number,
): Promise<Record<string, unknown>> {
  const sample = queries.slice(0, n);
  const results: Record<string, unknown> = {};
  for (const { name, out, maxContentTokens } of models) {
    const held = openToolGenRetriever(out, undefined, { constrained: true, beams: 1, maxContentTokens });
    const free = openToolGenRetriever(out, undefined, { constrained: false, beams: 1, maxContentTokens });
    const t = performance.now();
    let heldCorrect = 0;
    let freeCorrect = 0;
    for (const q of sample) {
      const [a] = await held.search(q.query, { k: 1 });
      const [b] = await free.search(q.query, { k: 1 });
      if (a && q.relevant.includes(a.id)) heldCorrect++;
      if (b && q.relevant.includes(b.id)) freeCorrect++;
    }
    const pct = (x: number) => Math.round((10000 * x) / Math.max(1, sample.length)) / 100;
    results[name] = {
      index: held.index.kind,
      generations: sample.length,
      constrained_raw: { ...held.rawOutputs },
      constrained_invalid_pct: pct(held.rawOutputs.invalidTop1),
      unconstrained_raw: { ...free.rawOutputs },
      unconstrained_invalid_pct: pct(free.rawOutputs.invalidTop1),
      constrained_top1_correct_pct: pct(heldCorrect),
      unconstrained_top1_correct_pct: pct(freeCorrect),
      seconds: Math.round((performance.now() - t) / 100) / 10,
    };
    process.stderr.write(`hallucination ${name}: ${JSON.stringify(results[name])}\n`);
  }
  return results;
}

/**
 * Agent action turns: the committed demo model (trained with an agent stage) on the held-out demo questions'
 * trajectories, every "Generate the action." turn decoded once constrained to the catalog's tool tokens and
 * `<<Finish>>`, once over the whole vocabulary; raw outputs checked against the options' own tokens.
 */
export async function actionTurnHallucination(maxTurns: number): Promise<Record<string, unknown>> {
  const data = await demoData();
  const { tokens, index, manifest } = openDemoModel(COMMITTED_DEMO_MODEL);
  const { trajectories } = await withSandbox(() => trajectoriesFor(data.heldOut, data.tools, () => true));
  const options = [...Object.values(index.texts), FINISH_TOKEN];
  const held = { generations: 0, invalid: 0 };
  const free = { generations: 0, invalid: 0 };
  const settings = { maxContentTokens: DEMO_SCHEDULE.maxContentTokens, chatFormat: manifest?.chatFormat };
  const decodeHeld = trieActionDecoder(tokens, { ...settings, raw: held });
  const decodeFree = trieActionDecoder(tokens, { ...settings, raw: free, constrained: false, maxSteps: 4 });
  let heldCorrect = 0;
  let freeCorrect = 0;
  const t = performance.now();
  let turns = 0;
  for (const sample of agentSamples(trajectories, data.catalog, index)) {
    const messages = sample.messages as Message[];
    for (let i = 0; i < messages.length && turns < maxTurns; i++) {
      if (messages[i]!.role !== "assistant" || messages[i - 1]?.content !== "Generate the action.") continue;
      const prefix = messages.slice(0, i);
      const gold = messages[i]!.content;
      if ((await decodeHeld({ messages: prefix, options })) === gold) heldCorrect++;
      if ((await decodeFree({ messages: prefix, options })) === gold) freeCorrect++;
      turns++;
    }
  }
  const pct = (x: number) => Math.round((10000 * x) / Math.max(1, turns)) / 100;
  return {
    model: "models/demo (committed)",
    questions: "held-out demo questions (generateSamples seed + 1000), trajectories from real tool runs",
    action_turns: turns,
    constrained: { ...held, invalid_pct: pct(held.invalid), action_correct_pct: pct(heldCorrect) },
    unconstrained: { ...free, invalid_pct: pct(free.invalid), action_correct_pct: pct(freeCorrect) },
    seconds: Math.round((performance.now() - t) / 100) / 10,
  };
}
