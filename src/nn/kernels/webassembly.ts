/**
 * Typed access to the WebAssembly global. The project compiles against lib ES2023 without DOM, which has no
 * WebAssembly types, so the few members the kernels use are declared here.
 */
export interface WasmMemory {
  readonly buffer: SharedArrayBuffer;
  grow(pages: number): number;
}

/** A compiled module: opaque here, and structured-cloneable to worker threads. */
export interface WasmModule {
  readonly __wasmModule?: never;
}

export interface WasmInstance {
  readonly exports: Record<string, unknown>;
}

interface WebAssemblyApi {
  Memory: new (descriptor: { initial: number; maximum: number; shared: boolean }) => WasmMemory;
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: Record<string, Record<string, unknown>>) => WasmInstance;
}

export const wasmApi = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;
