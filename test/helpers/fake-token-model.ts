import type { TokenModel, TokenSession } from "../../src/models/model.ts";

/** A deterministic pseudo-random hash of a token prefix, in [0, 1). */
function hash(prefix: readonly number[], salt: number): number {
  let h = 2166136261 ^ salt;
  for (const t of prefix) {
    h = Math.imul(h ^ (t + 1), 16777619);
    h ^= h >>> 13;
  }
  h = Math.imul(h ^ (h >>> 16), 2246822507);
  return ((h ^ (h >>> 13)) >>> 0) / 4294967296;
}

/**
 * A TokenModel for tests: logits are a fixed pseudo-random function of the whole prefix, plus an optional bias
 * added to every position. Counts forward calls so tests can check sessions are reused.
 */
export class FakeTokenModel implements TokenModel {
  forwards = 0;
  openSessions = 0;
  constructor(
    readonly vocabSize: number,
    private readonly seed = 1,
    private readonly bias: ReadonlyMap<number, number> = new Map(),
  ) {}

  tokenize(text: string): number[] {
    return [...text].map((c) => c.charCodeAt(0) % this.vocabSize);
  }
  detokenize(ids: number[]): string {
    return ids.map((i) => String.fromCharCode(i)).join("");
  }
  tokenId(): number | undefined {
    return undefined;
  }
  async logits(prefixIds: number[]): Promise<Float32Array> {
    this.forwards++;
    const out = new Float32Array(this.vocabSize);
    for (let v = 0; v < this.vocabSize; v++) {
      out[v] = 4 * hash([...prefixIds, v], this.seed) + (this.bias.get(v) ?? 0);
    }
    return out;
  }
  async session(): Promise<TokenSession> {
    this.openSessions++;
    const open = (prefix: number[]): TokenSession => {
      let disposed = false;
      return {
        append: async (ids) => {
          if (disposed) throw new Error("append on a disposed session");
          prefix = [...prefix, ...ids];
          return this.logits(prefix);
        },
        fork: async () => {
          if (disposed) throw new Error("fork of a disposed session");
          this.openSessions++;
          return open([...prefix]);
        },
        dispose: () => {
          if (!disposed) this.openSessions--;
          disposed = true;
        },
      };
    };
    return open([]);
  }
}
