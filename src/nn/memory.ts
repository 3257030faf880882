import { kernels } from "./kernels/index.ts";

/**
 * Buffers from `kernels().alloc` may live in a WebAssembly heap that the garbage collector does not manage.
 * The fast kernels expose `free(array)`, which is not (yet) part of the MatmulKernels contract, so it is
 * called when present. An Arena groups buffers that are released together (a workspace, a KV cache).
 */
type Freeing = { free?: (array: Float32Array) => void };

export function release(...arrays: Float32Array[]): void {
  const k = kernels() as Freeing;
  if (typeof k.free !== "function") return;
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
