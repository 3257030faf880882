import { wasmApi, type WasmMemory } from "./webassembly.ts";

/**
 * A heap inside one shared WebAssembly.Memory: the engine's weights and activations live here so the WASM
 * kernels (on every thread) read and write them in place, without copying. First-fit free list with
 * coalescing on top of a bump pointer; the memory grows on demand, and views handed out earlier stay valid
 * (shared memory is never detached on grow).
 */
const PAGE = 65536;
const ALIGN = 64; // one cache line; also keeps every view 16-byte aligned for v128 loads

interface Block {
  addr: number;
  size: number;
}

export class SharedHeap {
  readonly memory: WasmMemory;
  private top: number;
  private readonly freeBlocks: Block[] = [];
  private readonly sizes = new Map<number, number>();
  private readonly buffers = new Set<ArrayBufferLike>();
  // the buffer object last recorded (addressOf's fast path; every recorded one stays in buffers)
  private current: ArrayBufferLike | undefined;
  private peak = 0;

  /** `reserved` bytes at the bottom stay untouched (the module's own static data). */
  constructor(initialPages: number, maximumPages: number, reserved = PAGE) {
    this.memory = new wasmApi.Memory({ initial: initialPages, maximum: maximumPages, shared: true });
    this.record(this.memory.buffer);
    this.top = reserved;
  }

  /** Bytes handed out now (allocated and not freed). */
  get usedBytes(): number {
    let used = 0;
    for (const size of this.sizes.values()) used += size;
    return used;
  }

  /** Highest address ever reached, in bytes: the memory the heap really needed. */
  get peakBytes(): number {
    return this.peak;
  }

  /** Returns the byte address of a zeroed block of at least `bytes` bytes. Throws RangeError when full. */
  allocBytes(bytes: number): number {
    const size = Math.max(ALIGN, Math.ceil(bytes / ALIGN) * ALIGN);
    for (let i = 0; i < this.freeBlocks.length; i++) {
      const block = this.freeBlocks[i];
      if (block.size < size) continue;
      const addr = block.addr;
      if (block.size === size) this.freeBlocks.splice(i, 1);
      else {
        block.addr += size;
        block.size -= size;
      }
      new Uint8Array(this.memory.buffer, addr, size).fill(0);
      this.sizes.set(addr, size);
      return addr;
    }
    const addr = this.top;
    this.ensure(addr + size);
    // Memory below the high-water mark was used before (freed blocks fold back into the bump region); memory
    // above it is fresh from grow() and already zero.
    if (addr < this.peak) new Uint8Array(this.memory.buffer, addr, Math.min(size, this.peak - addr)).fill(0);
    this.top = addr + size;
    this.peak = Math.max(this.peak, this.top);
    this.sizes.set(addr, size);
    return addr;
  }

  /** Returns a block from allocBytes to the heap. Unknown addresses are ignored (returns false). */
  freeBytes(addr: number): boolean {
    const size = this.sizes.get(addr);
    if (size === undefined) return false;
    this.sizes.delete(addr);
    if (addr + size === this.top) {
      this.top = addr;
      // The block below the new top may be free too: fold it back into the bump region.
      const last = this.freeBlocks[this.freeBlocks.length - 1];
      if (last && last.addr + last.size === this.top) {
        this.top = last.addr;
        this.freeBlocks.pop();
      }
      return true;
    }
    let i = 0;
    while (i < this.freeBlocks.length && this.freeBlocks[i].addr < addr) i++;
    const prev = this.freeBlocks[i - 1];
    const next = this.freeBlocks[i];
    if (prev && prev.addr + prev.size === addr) {
      prev.size += size;
      if (next && prev.addr + prev.size === next.addr) {
        prev.size += next.size;
        this.freeBlocks.splice(i, 1);
      }
    } else if (next && addr + size === next.addr) {
      next.addr = addr;
      next.size += size;
    } else {
      this.freeBlocks.splice(i, 0, { addr, size });
    }
    return true;
  }

  /** A Float32Array view of `length` floats at byte address `addr`. */
  view(addr: number, length: number): Float32Array {
    // With helper threads sharing the memory, V8 may hand out a fresh buffer object some time after a grow
    // (when this thread handles the grow notice), not only right after grow(): record every one a view uses,
    // or arrays allocated later would look foreign and be copied on every kernel call.
    const buffer = this.memory.buffer;
    this.record(buffer);
    return new Float32Array(buffer, addr, length);
  }

  /** The byte address of `array` if it lives in this heap's memory, else -1 (a foreign array). */
  addressOf(array: Float32Array): number {
    const buffer = array.buffer;
    // (the current buffer first: nearly every array is a view of it)
    return buffer === this.current || this.buffers.has(buffer) ? array.byteOffset : -1;
  }

  private ensure(end: number): void {
    const have = this.memory.buffer.byteLength;
    if (end <= have) return;
    // Grow by at least a quarter of the current size so repeated small allocations stay cheap.
    const pages = Math.max(Math.ceil((end - have) / PAGE), Math.ceil(have / PAGE / 4));
    try {
      this.memory.grow(pages);
    } catch {
      this.memory.grow(Math.ceil((end - have) / PAGE)); // throws RangeError when the maximum is reached
    }
    this.record(this.memory.buffer);
  }

  private record(buffer: ArrayBufferLike): void {
    this.buffers.add(buffer);
    this.current = buffer;
  }
}
