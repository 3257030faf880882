import type { Llama } from "../nn/llama.ts";

export interface AnchorOptions {
  /**
   * L2-SP strength λ: after each update every matrix is pulled toward the weights the addition started from,
   * w ← w − min(1, lr·λ)·(w − w₀) (AdamW's decoupled decay, aimed at w₀ instead of zero; the caller turns
   * AdamW's own decay off). 0: no pull.
   */
  lambda: number;
  /**
   * The last `trainLayers` transformer layers, the final norm and lm_head train; the embedding and the layers
   * below are held at their start (undefined: every weight trains).
   */
  trainLayers?: number;
  /** Tokens whose embedding and lm_head rows are new: they are neither pulled nor held (they have no past). */
  newTokenIds: readonly number[];
}

/**
 * Keeps a model near the weights it starts from while a short stage trains it, so that an addition of tools
 * costs the old tools less: per element, a factor of the distance to the start removed after each update (1 for
 * a held weight, lr·λ for a pulled one, 0 for a free one). Applied after the optimizer's update (the trainer's
 * onStep), so a stage's tail average (averageLast) mixes weights taken before each pull; `hold()` after the
 * stage puts the held weights back where the average moved them.
 */
export function anchorWeights(model: Llama, o: AnchorOptions) {
  const flat = model.params.flat;
  const start = flat.slice();
  const pulled = new Uint8Array(flat.length);
  const held = new Uint8Array(flat.length);
  const layers = model.config.numLayers;
  const firstTrained = o.trainLayers === undefined ? 0 : layers - o.trainLayers;
  const d = model.config.hiddenSize;
  let offset = 0;
  for (const t of model.params.tensors) {
    const n = t.data.length;
    const layer = /^model\.layers\.(\d+)\./.exec(t.name);
    // A tied embedding is the lm_head too: it trains.
    const embedding = t.name === "model.embed_tokens.weight" && !model.config.tieWordEmbeddings;
    const isHeld =
      o.trainLayers !== undefined && (embedding || (layer !== null && Number(layer[1]) < firstTrained));
    if (isHeld) held.fill(1, offset, offset + n);
    else if (t.shape.length >= 2 && o.lambda > 0) pulled.fill(1, offset, offset + n);
    if (t.name === "model.embed_tokens.weight" || t.name === "lm_head.weight")
      for (const id of o.newTokenIds) {
        held.fill(0, offset + id * d, offset + (id + 1) * d);
        pulled.fill(0, offset + id * d, offset + (id + 1) * d);
      }
    offset += n;
  }
  const hold = () => {
    for (let i = 0; i < flat.length; i++) if (held[i]) flat[i] = start[i]!;
  };
  return {
    /** After an update made at learning rate `lr`. */
    afterUpdate(lr: number): void {
      const k = Math.min(1, lr * o.lambda);
      for (let i = 0; i < flat.length; i++) {
        if (held[i]) flat[i] = start[i]!;
        else if (pulled[i]) flat[i] = flat[i]! - k * (flat[i]! - start[i]!);
      }
    },
    hold,
  };
}
