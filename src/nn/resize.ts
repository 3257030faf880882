import { Llama } from "./llama.ts";
import { ParamSet, paramSpecs } from "./params.ts";
import { Rng } from "./rng.ts";
import { ToolgenError } from "../errors.ts";

/**
 * How the rows of new tokens are initialised when the vocabulary grows (tool virtualization):
 * - `mean`: the mean of the existing rows of the ids `of(newId)` returns (ToolGen: the tokens of the tool's
 *   name); an empty list falls back to the mean of all existing rows;
 * - `normal`: N(0, std²) with a seed (default std: the config's initStd);
 * - a function that fills `row` itself, given the matrix (`table`, the old rows) it belongs to.
 */
export type NewRowInit =
  | { kind: "mean"; of: (newId: number) => number[] }
  | { kind: "normal"; std?: number; seed?: number }
  | ((newId: number, row: Float32Array, table: Float32Array, tensorName: string) => void);

const VOCAB_TENSORS = ["model.embed_tokens.weight", "lm_head.weight"];

/**
 * A new model whose vocabulary has `newSize` rows: existing rows are kept exactly, new rows are set by `init`
 * in both the input embedding and the (untied) lm_head. The old model is left unchanged. Optimizer state does
 * not carry over: start a fresh optimizer after a resize.
 */
export function resizeVocab(model: Llama, newSize: number, init: NewRowInit): Llama {
  const c = model.config;
  if (!Number.isInteger(newSize) || newSize < c.vocabSize) {
    throw new ToolgenError(
      "invalid_option",
      `resizeVocab: new size ${newSize} must be an integer ≥ the current vocabulary (${c.vocabSize})`,
    );
  }
  const config = { ...c, vocabSize: newSize };
  const params = new ParamSet(paramSpecs(config));
  const d = c.hiddenSize;
  const rng = init instanceof Function || init.kind !== "normal" ? undefined : new Rng(init.seed ?? 0);
  for (const t of params.tensors) {
    const old = model.params.get(t.name);
    t.data.set(old);
    if (!VOCAB_TENSORS.includes(t.name)) continue;
    for (let id = c.vocabSize; id < newSize; id++) {
      const row = t.data.subarray(id * d, (id + 1) * d);
      if (init instanceof Function) init(id, row, old, t.name);
      else if (init.kind === "normal")
        for (let i = 0; i < d; i++) row[i] = rng!.normal() * (init.std ?? c.initStd);
      else meanOfRows(row, old, init.of(id), c.vocabSize, d);
    }
  }
  return new Llama(config, params);
}

function meanOfRows(row: Float32Array, table: Float32Array, ids: number[], oldSize: number, d: number): void {
  const source = ids.length > 0 ? ids : [...Array(oldSize).keys()];
  for (const id of source) {
    if (!(Number.isInteger(id) && id >= 0 && id < oldSize)) {
      throw new ToolgenError(
        "invalid_option",
        `resizeVocab: mean source id ${id} is not an existing token (0..${oldSize - 1})`,
      );
    }
    for (let i = 0; i < d; i++) row[i] += table[id * d + i];
  }
  for (let i = 0; i < d; i++) row[i] /= source.length;
}
