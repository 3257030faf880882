/**
 * The GGUF v3 container (ggml's model file): magic, version, counts, typed key/value metadata, tensor infos,
 * then tensor data aligned to `general.alignment`. Everything little-endian. This file writes the header.
 */
export const GGUF_MAGIC = 0x46554747; // "GGUF" read as a little-endian u32
export const GGUF_VERSION = 3;
export const GGUF_ALIGNMENT = 32;

export enum ValueType {
  UINT8 = 0,
  INT8 = 1,
  UINT16 = 2,
  INT16 = 3,
  UINT32 = 4,
  INT32 = 5,
  FLOAT32 = 6,
  BOOL = 7,
  STRING = 8,
  ARRAY = 9,
  UINT64 = 10,
  INT64 = 11,
  FLOAT64 = 12,
}

/** ggml tensor types this writer produces. */
export enum GgmlType {
  F32 = 0,
  F16 = 1,
}

/** llama.cpp's token types (tokenizer.ggml.token_type). */
export enum TokenType {
  NORMAL = 1,
  UNKNOWN = 2,
  CONTROL = 3,
  USER_DEFINED = 4,
  UNUSED = 5,
  BYTE = 6,
}

/** A metadata value with its GGUF type spelled out (JS numbers do not say u32 or f32). */
export type MetaValue =
  | { type: ValueType.UINT32 | ValueType.INT32 | ValueType.FLOAT32; value: number }
  | { type: ValueType.BOOL; value: boolean }
  | { type: ValueType.STRING; value: string }
  | { type: ValueType.ARRAY; itemType: ValueType.STRING; value: readonly string[] }
  | { type: ValueType.ARRAY; itemType: ValueType.INT32 | ValueType.FLOAT32; value: ArrayLike<number> };

export const u32 = (value: number): MetaValue => ({ type: ValueType.UINT32, value });
export const f32 = (value: number): MetaValue => ({ type: ValueType.FLOAT32, value });
export const str = (value: string): MetaValue => ({ type: ValueType.STRING, value });
export const bool = (value: boolean): MetaValue => ({ type: ValueType.BOOL, value });
export const strings = (value: readonly string[]): MetaValue => ({
  type: ValueType.ARRAY,
  itemType: ValueType.STRING,
  value,
});
export const int32s = (value: ArrayLike<number>): MetaValue => ({
  type: ValueType.ARRAY,
  itemType: ValueType.INT32,
  value,
});

/** A tensor as GGUF describes it: dims fastest-varying first (the reverse of a PyTorch shape). */
export interface TensorInfo {
  name: string;
  dims: number[];
  type: GgmlType;
  /** Offset of the data from the start of the data section (aligned). */
  offset: number;
}

/** Appends little-endian values into growing chunks. */
export class ByteWriter {
  private chunks: Buffer[] = [];
  private length = 0;

  get size(): number {
    return this.length;
  }

  private push(b: Buffer): void {
    this.chunks.push(b);
    this.length += b.length;
  }

  u32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.push(b);
  }

  i32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v);
    this.push(b);
  }

  f32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    this.push(b);
  }

  u64(v: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    this.push(b);
  }

  u8(v: number): void {
    this.push(Buffer.from([v]));
  }

  string(s: string): void {
    const bytes = Buffer.from(s, "utf8");
    this.u64(bytes.length);
    this.push(bytes);
  }

  zeros(n: number): void {
    if (n > 0) this.push(Buffer.alloc(n));
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.chunks, this.length);
  }
}

function writeValue(w: ByteWriter, v: MetaValue): void {
  switch (v.type) {
    case ValueType.UINT32:
      return w.u32(v.value);
    case ValueType.INT32:
      return w.i32(v.value);
    case ValueType.FLOAT32:
      return w.f32(v.value);
    case ValueType.BOOL:
      return w.u8(v.value ? 1 : 0);
    case ValueType.STRING:
      return w.string(v.value);
    case ValueType.ARRAY: {
      w.u32(v.itemType);
      w.u64(v.value.length);
      if (v.itemType === ValueType.STRING) for (const s of v.value as readonly string[]) w.string(s);
      else if (v.itemType === ValueType.INT32) for (let i = 0; i < v.value.length; i++) w.i32(v.value[i]!);
      else for (let i = 0; i < v.value.length; i++) w.f32(v.value[i]!);
      return;
    }
  }
}

export const alignUp = (n: number, a: number = GGUF_ALIGNMENT): number => Math.ceil(n / a) * a;

/** The header: everything before the tensor data, padded to the alignment. */
export function encodeHeader(metadata: [string, MetaValue][], tensors: TensorInfo[]): Buffer {
  const w = new ByteWriter();
  w.u32(GGUF_MAGIC);
  w.u32(GGUF_VERSION);
  w.u64(tensors.length);
  w.u64(metadata.length);
  for (const [key, value] of metadata) {
    w.string(key);
    w.u32(value.type);
    writeValue(w, value);
  }
  for (const t of tensors) {
    w.string(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(t.type);
    w.u64(t.offset);
  }
  w.zeros(alignUp(w.size) - w.size);
  return w.toBuffer();
}
