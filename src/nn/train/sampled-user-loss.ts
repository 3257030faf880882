import type { Batch } from "../llama.ts";
import type { Rng } from "../rng.ts";
import { ToolgenError } from "../../errors.ts";

/**
 * The sampled user loss: the rows that predict the user's words (`Batch.userRows`) take a softmax over a shared
 * set of candidates instead of the whole vocabulary: every target of the batch (they are in it surely) and
 * `negatives` more ids drawn uniformly, without replacement, from the rest of the vocabulary. Each candidate's
 * logit is lowered by the log of its chance to be drawn (the usual log-correction of a sampled softmax:
 * Σ exp(z − log q) over the sample estimates the full softmax's normaliser without bias), 0 for the targets.
 * With `negatives` at least the rest of the vocabulary, the candidates are the whole vocabulary and the loss is
 * the full one. The rows of the tool tokens (the retrieval loss proper) keep the full softmax.
 */
export function sampleUserCandidates(batch: Batch, negatives: number, rng: Rng, vocabSize: number): Batch {
  if (!(Number.isInteger(negatives) && negatives > 0))
    throw new ToolgenError("invalid_option", `userLossSamples must be a positive integer, got ${negatives}`);
  const user = batch.userRows;
  if (!user) throw new Error("sampleUserCandidates: the batch was built without userRows");
  if (!user.some(Boolean)) return batch;
  const inBatch = new Uint8Array(vocabSize);
  let sure = 0;
  for (let i = 0; i < batch.targets.length; i++) {
    const t = batch.targets[i]!;
    if (t >= 0 && !inBatch[t]) {
      inBatch[t] = 1;
      sure++;
    }
  }
  // the rest of the vocabulary, then a partial Fisher–Yates shuffle of its first `drawn` places
  const rest = new Int32Array(vocabSize - sure);
  for (let id = 0, j = 0; id < vocabSize; id++) if (!inBatch[id]) rest[j++] = id;
  const drawn = Math.min(negatives, rest.length);
  for (let i = 0; i < drawn; i++) {
    const j = i + rng.int(rest.length - i);
    const x = rest[i]!;
    rest[i] = rest[j]!;
    rest[j] = x;
  }
  for (let i = 0; i < drawn; i++) inBatch[rest[i]!] = 2;
  const ids = new Int32Array(sure + drawn);
  const logQ = new Float32Array(sure + drawn);
  const drawnLogQ = drawn < rest.length ? Math.log(drawn / rest.length) : 0;
  for (let id = 0, j = 0; id < vocabSize; id++)
    if (inBatch[id]) {
      ids[j] = id;
      logQ[j++] = inBatch[id] === 2 ? drawnLogQ : 0;
    }
  return { ...batch, sampled: { rows: user, ids, logQ } };
}
