/**
 * What schema-constrained decoding costs per generated token on the demo model (src/constrain): the arguments
 * turns of held-out demo questions decoded twice in one run, unconstrained (greedy over the whole vocabulary)
 * and under the tool's JSON Schema (greedy over the allowed ids), timing the model's forward pass and the
 * constraint's mask separately. Then the mask alone, on the demo vocabulary and on an 8,192-token one trained
 * here: inside a long string (the worst case, almost every token allowed) and through the Finish schema, with
 * random logits.
 */
import { execSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { jsonSchemaConstraint, type TokenConstraint } from "../src/constrain/index.ts";
import { demoCatalog, demoTools } from "../src/demo/catalog.ts";
import { generateSamples } from "../src/demo/generator.ts";
import { DEMO_SCHEDULE } from "../src/demo/model.ts";
import { quantile } from "../src/eval/metrics.ts";
import { loadCheckpoint } from "../src/nn/checkpoint.ts";
import { pickToken } from "../src/nn/infer/decode.ts";
import { InferenceSession } from "../src/nn/infer/session.ts";
import { Rng } from "../src/nn/rng.ts";
import { Tokenizer } from "../src/nn/tokenizer/index.ts";
import {
  actionDocumentation,
  agentTask,
  FINISH_ARGUMENTS_SCHEMA,
  GENERATE_ACTION,
  inputRequest,
  TOOLGEN_AGENT_SYSTEM,
} from "../src/toolgen/agent-format.ts";
import { encodeChat, IM_END } from "../src/toolgen/chat-encoding.ts";
import { toolToken } from "../src/toolgen/tokens.ts";
import type { JsonSchema } from "../src/tools/types.ts";
import { writeBenchResult } from "./lib/result.ts";

const MODEL_DIR = "models/demo";
const MAX_TOKENS = 96;
const { model, tokenizer } = loadCheckpoint(MODEL_DIR);
if (!tokenizer) throw new Error(`${MODEL_DIR} has no tokenizer.json`);
// the chat format the folder was trained in, told apart by its turn-end token (as src/demo/chat-model.ts does)
const format = tokenizer.tokenToId("<|eot_id|>") !== undefined ? "llama3" : "chatml";
const endId = tokenizer.tokenToId(format === "llama3" ? "<|eot_id|>" : IM_END);
if (endId === undefined) throw new Error(`${MODEL_DIR}: no turn-end token`);
const catalog = await demoCatalog();
const byId = new Map(catalog.map((e) => [e.id, e]));
// Off-topic samples (no tool) have no arguments turn to constrain.
const questions = generateSamples(await demoTools(), { perTool: 2, seed: 1001 }).flatMap((q) =>
  q.tool === null ? [] : [{ ...q, tool: q.tool }],
);

function prompt(query: string, tool: string): number[] {
  const entry = byId.get(tool)!;
  const messages = [
    { role: "system" as const, content: TOOLGEN_AGENT_SYSTEM },
    { role: "user" as const, content: agentTask(query) },
    { role: "assistant" as const, content: "I will call the tool that answers this." },
    { role: "user" as const, content: GENERATE_ACTION },
    { role: "assistant" as const, content: toolToken(tool) },
    { role: "user" as const, content: inputRequest(actionDocumentation(toolToken(tool), entry)) },
  ];
  const tok = {
    encode: (t: string) => tokenizer!.encode(t),
    tokenToId: (t: string) => tokenizer!.tokenToId(t),
  };
  return encodeChat(tok, messages, {
    format,
    generationPrompt: true,
    maxContentTokens: DEMO_SCHEDULE.maxContentTokens!,
    maxLength: model.config.maxPositions - MAX_TOKENS,
  }).ids;
}

interface Timing {
  tokens: number;
  forwardMs: number;
  maskMs: number;
}

/** Greedy decoding of one reply; with a constraint, the mask is timed apart from the forward pass. */
function decode(ids: number[], constraint?: TokenConstraint): Timing & { text: string } {
  const session = new InferenceSession(model);
  const out: number[] = [];
  let forwardMs = 0;
  let maskMs = 0;
  const rng = new Rng(0);
  try {
    let t = performance.now();
    let logits = session.append(ids);
    forwardMs += performance.now() - t;
    while (out.length < MAX_TOKENS) {
      t = performance.now();
      const allowed = constraint?.allowed(MAX_TOKENS - out.length);
      const id = pickToken(logits, {}, rng, allowed);
      maskMs += performance.now() - t;
      if (id === endId) break;
      constraint?.accept(id);
      out.push(id);
      t = performance.now();
      logits = session.append([id]);
      forwardMs += performance.now() - t;
    }
  } finally {
    session.dispose();
  }
  return { tokens: out.length, forwardMs, maskMs, text: tokenizer!.decode(out) };
}

const free: Timing[] = [];
const constrained: Timing[] = [];
let valid = 0;
let freeValid = 0;
for (const [i, q] of questions.entries()) {
  const ids = prompt(q.query, q.tool);
  const f = decode(ids);
  free.push(f);
  try {
    JSON.parse(f.text);
    freeValid++;
  } catch {
    // the unconstrained reply is not JSON
  }
  const c = decode(ids, jsonSchemaConstraint(byId.get(q.tool)!.parameters, tokenizer, [endId]));
  constrained.push(c);
  JSON.parse(c.text);
  valid++;
  process.stderr.write(`\r${i + 1}/${questions.length}`);
}
process.stderr.write("\n");

const sum = (xs: Timing[], k: keyof Timing) => xs.reduce((s, x) => s + x[k], 0);
const per = (ms: number, tokens: number) => Math.round((1000 * ms) / Math.max(1, tokens)) / 1000;
const freeTokens = sum(free, "tokens");
const cTokens = sum(constrained, "tokens");
// forward ms/token excludes the prompt only approximately (the prompt pass is shared by both runs equally)
const forwardPerToken = per(sum(constrained, "forwardMs"), cTokens);
const maskPerToken = per(sum(constrained, "maskMs"), cTokens);

// The mask alone on a larger vocabulary: an 8,192-token BPE trained here on this repository's own sources.
const sources = readdirSync("src", { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".ts"))
  .map((f) => readFileSync(join("src", f), "utf8"));
const big = Tokenizer.train(sources, 8192, { specialTokens: ["<|end|>"] });
const bigEnd = big.tokenToId("<|end|>")!;
/** Steps `schema` with random logits (temperature 1), timing each mask; restarts when a value completes. */
function maskOnly(tok: Tokenizer, end: number, schema: JsonSchema, steps: number) {
  const rng = new Rng(3);
  const times: number[] = [];
  const counts: number[] = [];
  const logits = new Float32Array(tok.vocabSize);
  const fresh = () => jsonSchemaConstraint(schema, tok, [end], { maxStringLength: 1000 });
  let c = fresh();
  for (let s = 0; s < steps; s++) {
    for (let i = 0; i < logits.length; i++) logits[i] = rng.next();
    const t = performance.now();
    const allowed = c.allowed(2000);
    times.push(performance.now() - t);
    counts.push(allowed.length);
    const id = pickToken(logits, { temperature: 1 }, rng, allowed);
    if (!c.accept(id) || c.complete) c = fresh();
  }
  return {
    p50_ms: r3(quantile(times, 0.5)),
    p95_ms: r3(quantile(times, 0.95)),
    allowed_median: quantile(counts, 0.5),
  };
}
const r3 = (x: number) => Math.round(x * 1000) / 1000;
const text: JsonSchema = { type: "string", minLength: 600, maxLength: 1000 };
const maskOnlyFigures = {
  what: "the mask alone, random logits at temperature 1, 600 steps each: inside a long string (the worst case: nearly every token allowed) and the Finish schema",
  [`string_vocab_${tokenizer.vocabSize}`]: maskOnly(tokenizer, endId, text, 600),
  [`string_vocab_${big.vocabSize}`]: maskOnly(big, bigEnd, text, 600),
  [`finish_vocab_${tokenizer.vocabSize}`]: maskOnly(tokenizer, endId, FINISH_ARGUMENTS_SCHEMA, 600),
  [`finish_vocab_${big.vocabSize}`]: maskOnly(big, bigEnd, FINISH_ARGUMENTS_SCHEMA, 600),
};

writeBenchResult("constraint", "npx tsx bench/constraint.ts", {
  load: execSync("uptime").toString().trim(),
  model: `${MODEL_DIR} (vocab ${tokenizer.vocabSize}, ${model.config.numLayers} layers × ${model.config.hiddenSize})`,
  replies: questions.length,
  what: "arguments turns of held-out demo questions (seed 1001, 2 per tool), greedy, maxTokens 96, same run",
  unconstrained: {
    tokens: freeTokens,
    forward_ms_per_token: per(sum(free, "forwardMs"), freeTokens),
    replies_parsing_as_json: freeValid,
  },
  constrained: {
    tokens: cTokens,
    forward_ms_per_token: forwardPerToken,
    mask_ms_per_token: maskPerToken,
    mask_over_forward: r3(maskPerToken / forwardPerToken),
    replies_parsing_as_json: valid,
  },
  mask_only: maskOnlyFigures,
});
