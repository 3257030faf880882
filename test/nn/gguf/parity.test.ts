/**
 * The same trained model in the TS engine and in llama.cpp (through our GGUF export and node-llama-cpp):
 * identical tokenization, next-token log-probabilities within 1e-3 on ≥ 20 prompts, identical greedy text.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportCheckpointToGguf } from "../../../src/nn/gguf/export.ts";
import { generateTokens } from "../../../src/nn/infer/decode.ts";
import { InferenceSession } from "../../../src/nn/infer/session.ts";
import { logSoftmax } from "../../../src/nn/layers/cross-entropy.ts";
import { llamaCppAvailable, LlamaCppModel } from "../../../src/models/llamacpp.ts";
import { PROMPTS, TOOL_TOKENS, trainedFixture, type TrainedFixture } from "../../helpers/gguf-fixture.ts";

const available = await llamaCppAvailable();
if (!available)
  console.warn("SKIP: node-llama-cpp (optional dependency) cannot load here; GGUF parity tests are skipped.");

/** Extra tokenization probes: Unicode, whitespace runs, digits, tool tokens next to text. */
const TOKENIZE_ONLY = [
  "São Paulo, coração, ação — 北京天气很好！ 🤖🎉👩‍💻",
  "  two\t\ttabs   three spaces\n\n\nthree newlines\r\n  ",
  "1234567890 3.14159 0007 1,000,000 2026-12-01",
  "x<<Weather&&Get current>>y <<Flights&&Search>>  <<北京&&天气>>\n<<Finish>>",
  "<<Weather&&Get current> <<Finish>>> <<<Finish>>",
  "I'm sure you'll see it's what they've done, I'd say.",
  "Ελληνικά русский עברית e\u0301 \u00a0nbsp\u3000",
];

function engineLogProbs(fx: TrainedFixture, ids: number[]): Float32Array {
  const s = new InferenceSession(fx.model);
  try {
    return logSoftmax(s.append(ids));
  } finally {
    s.dispose();
  }
}

describe.skipIf(!available)("TS engine vs llama.cpp on an exported GGUF (F32 exact, F16 close)", () => {
  let fx: TrainedFixture;
  let gg: LlamaCppModel;
  beforeAll(async () => {
    fx = await trainedFixture();
    const file = join(mkdtempSync(join(tmpdir(), "parity-")), "model.gguf");
    exportCheckpointToGguf(fx.dir, file);
    gg = await LlamaCppModel.load(`gguf:${file}`);
  });
  afterAll(async () => {
    await gg?.dispose();
  });

  it("tokenizes identically (special tokens recognised or not)", () => {
    for (const text of [...PROMPTS, ...TOKENIZE_ONLY]) {
      expect(gg.tokenize(text), JSON.stringify(text)).toEqual(fx.tokenizer.encode(text));
      expect(gg.detokenize(fx.tokenizer.encode(text))).toBe(text);
    }
    for (const t of TOOL_TOKENS) expect(gg.tokenId(t)).toBe(fx.tokenizer.tokenToId(t));
    expect(gg.vocabSize).toBe(fx.model.config.vocabSize);
  });

  it("gives the same next-token log-probabilities on every prompt (max |Δ| < 1e-3)", async () => {
    expect(PROMPTS.length).toBeGreaterThanOrEqual(20);
    let worst = 0;
    let spread = 0;
    for (const text of PROMPTS) {
      const ids = fx.tokenizer.encode(text);
      const ours = engineLogProbs(fx, ids);
      const theirs = await gg.logits(ids);
      for (let i = 0; i < ours.length; i++) {
        worst = Math.max(worst, Math.abs(ours[i]! - theirs[i]!));
        spread = Math.max(spread, -ours[i]!);
      }
    }
    console.log(
      `parity: max |Δ log p| = ${worst.toExponential(2)} over ${PROMPTS.length} prompts (log p down to -${spread.toFixed(1)})`,
    );
    expect(spread).toBeGreaterThan(5); // a trained model: the comparison covers a wide range of values
    expect(worst).toBeLessThan(1e-3);
  });

  it("agrees at every position of a long prompt", async () => {
    const ids = fx.tokenizer.encode(PROMPTS.join(" ")).slice(0, fx.model.config.maxPositions);
    const positions = ids.map((_, i) => i);
    const theirs = await gg.logitsAt(ids, positions);
    let worst = 0;
    for (const p of [0, 5, Math.floor(ids.length / 2), ids.length - 1]) {
      const ours = engineLogProbs(fx, ids.slice(0, p + 1));
      for (let i = 0; i < ours.length; i++) worst = Math.max(worst, Math.abs(ours[i]! - theirs[p]![i]!));
    }
    expect(worst).toBeLessThan(1e-3);
  });

  it("loads the F16 export too, close to the F32 model", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "parity-f16-")), "model-f16.gguf");
    exportCheckpointToGguf(fx.dir, file, { type: "f16" });
    const half = await LlamaCppModel.load(`gguf:${file}`);
    try {
      let worst = 0;
      let sameTop = 0;
      for (const text of PROMPTS) {
        const ids = fx.tokenizer.encode(text);
        const ours = engineLogProbs(fx, ids);
        const theirs = await half.logits(ids);
        let a = 0;
        let b = 0;
        for (let i = 0; i < ours.length; i++) {
          worst = Math.max(worst, Math.abs(ours[i]! - theirs[i]!));
          if (ours[i]! > ours[a]!) a = i;
          if (theirs[i]! > theirs[b]!) b = i;
        }
        if (a === b) sameTop++;
      }
      console.log(
        `parity F16: max |Δ log p| = ${worst.toExponential(2)}, same top-1 on ${sameTop}/${PROMPTS.length}`,
      );
      expect(worst).toBeLessThan(0.02);
      expect(sameTop).toBeGreaterThanOrEqual(PROMPTS.length - 1);
    } finally {
      await half.dispose();
    }
  });

  it("continues greedily with the same tokens", async () => {
    let compared = 0;
    for (const text of PROMPTS) {
      const prompt = fx.tokenizer.encode(text);
      const s = new InferenceSession(fx.model);
      const ours = generateTokens(s, prompt, { maxTokens: 16 }).ids;
      s.dispose();
      // End-of-text tokens are compared like any other token.
      const theirs = await gg.generateTokens(prompt, { maxTokens: 16, ignoreEog: true });
      expect(theirs.ids, text).toEqual(ours);
      compared += ours.length;
    }
    console.log(`parity: ${compared} greedy tokens identical over ${PROMPTS.length} prompts`);
    expect(compared).toBe(16 * PROMPTS.length);
  });
});
