import { kernels } from "./kernels/index.ts";

/**
 * Buffers from `kernels().alloc` may live in a WebAssembly heap that the garbage collector does not manage;
 * kernels with such a heap implement the optional `free(array)`. An Arena groups buffers that are released
 * together (a workspace, a KV cache).
 */
export function release(...arrays: Float32Array[]): void {
  const k = kernels();
  if (!k.free) return;
  for (const a of arrays) k.free(a);
}

export class Arena {
  private readonly owned: Float32Array[] = [];

  alloc(length: number): Float32Array {
    const a = kernels().alloc(length);
    this.owned.push(a);
    return a;
  }

  /** Releases one buffer of this arena now. */
  release(array: Float32Array): void {
    const i = this.owned.indexOf(array);
    if (i >= 0) {
      this.owned.splice(i, 1);
      release(array);
    }
  }

  releaseAll(): void {
    release(...this.owned);
    this.owned.length = 0;
  }
}
