import { closeSync, openSync, readSync, writeSync } from "node:fs";
import { fromHalf, toHalf } from "../gguf/f16.ts";
import { ToolgenError } from "../../errors.ts";

/**
 * Safetensors without loading the file: the header alone, single rows read at their file offset, byte ranges
 * copied in chunks, and row conversions between float32 and the stored dtype. This is what lets an 8B model's
 * shards be rewritten in bounded memory (`src/nn/io/safetensors.ts` reads whole files into float32).
 */
export type StoredDtype = "F32" | "F16" | "BF16";
export const STORED_DTYPE_BYTES: Record<StoredDtype, number> = { F32: 4, F16: 2, BF16: 2 };

export interface TensorSpan {
  name: string;
  dtype: string;
  shape: number[];
  /** Byte offsets relative to the start of the data section. */
  begin: number;
  end: number;
}

export interface SafetensorsHeader {
  file: string;
  /** Where the data section starts in the file (8 + header length). */
  dataStart: number;
  /** Tensors in file order (ascending offsets). */
  tensors: TensorSpan[];
  metadata?: Record<string, string>;
}

function readExactly(fd: number, length: number, position: number, file: string): Buffer {
  const buf = Buffer.alloc(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, position + got);
    if (n === 0)
      throw new ToolgenError("invalid_input", `${file}: unexpected end of file at byte ${position + got}`);
    got += n;
  }
  return buf;
}

/** Reads and checks the header of a safetensors file (any dtype; offsets must tile the data section). */
export function readSafetensorsHeader(file: string): SafetensorsHeader {
  const fd = openSync(file, "r");
  try {
    const fail = (why: string): never => {
      throw new ToolgenError("invalid_input", `${file}: not a valid safetensors file (${why})`);
    };
    const lenBuf = readExactly(fd, 8, 0, file);
    const headerLen = Number(lenBuf.readBigUInt64LE(0));
    if (headerLen > 100 * 2 ** 20) fail(`header length ${headerLen} is implausible`);
    let header: unknown;
    try {
      header = JSON.parse(readExactly(fd, headerLen, 8, file).toString("utf8"));
    } catch (e) {
      fail(`header is not JSON: ${(e as Error).message}`);
    }
    if (typeof header !== "object" || header === null || Array.isArray(header))
      fail("header is not an object");
    const tensors: TensorSpan[] = [];
    let metadata: Record<string, string> | undefined;
    for (const [name, entry] of Object.entries(header as Record<string, unknown>)) {
      if (name === "__metadata__") {
        metadata = entry as Record<string, string>;
        continue;
      }
      const e = entry as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
      const offs = e.data_offsets;
      if (
        typeof e.dtype !== "string" ||
        !Array.isArray(e.shape) ||
        !e.shape.every((d) => Number.isInteger(d) && d >= 0) ||
        !Array.isArray(offs) ||
        offs.length !== 2 ||
        !offs.every((o) => Number.isInteger(o) && o >= 0) ||
        offs[1] < offs[0]
      ) {
        fail(`tensor ${name}: needs dtype, shape and data_offsets [begin, end]`);
      }
      tensors.push({
        name,
        dtype: e.dtype as string,
        shape: e.shape as number[],
        begin: (offs as number[])[0]!,
        end: (offs as number[])[1]!,
      });
    }
    tensors.sort((a, b) => a.begin - b.begin);
    let at = 0;
    for (const t of tensors) {
      if (t.begin !== at) fail(`tensor ${t.name} starts at ${t.begin}, expected ${at} (gap or overlap)`);
      at = t.end;
    }
    return { file, dataStart: 8 + headerLen, tensors, metadata };
  } finally {
    closeSync(fd);
  }
}

/** The header bytes (length prefix included) for tensors laid out back to back in the given order. */
export function encodeSafetensorsHeader(
  tensors: readonly { name: string; dtype: string; shape: number[]; bytes: number }[],
  metadata?: Record<string, string>,
): { bytes: Buffer; spans: TensorSpan[] } {
  const header: Record<string, unknown> = {};
  if (metadata && Object.keys(metadata).length > 0) header.__metadata__ = metadata;
  const spans: TensorSpan[] = [];
  let offset = 0;
  for (const t of tensors) {
    header[t.name] = { dtype: t.dtype, shape: t.shape, data_offsets: [offset, offset + t.bytes] };
    spans.push({ name: t.name, dtype: t.dtype, shape: t.shape, begin: offset, end: offset + t.bytes });
    offset += t.bytes;
  }
  let json = JSON.stringify(header);
  json += " ".repeat((8 - (Buffer.byteLength(json) % 8)) % 8); // keep the data 8-byte aligned
  const body = Buffer.from(json, "utf8");
  const bytes = Buffer.alloc(8 + body.length);
  bytes.writeBigUInt64LE(BigInt(body.length), 0);
  body.copy(bytes, 8);
  return { bytes, spans };
}

/** Random-access reads of a file by byte position (rows of a matrix, chunks to copy). */
export class PositionalReader {
  private readonly fd: number;
  constructor(readonly file: string) {
    this.fd = openSync(file, "r");
  }
  read(position: number, length: number): Buffer {
    return readExactly(this.fd, length, position, this.file);
  }
  close(): void {
    closeSync(this.fd);
  }
}

/** Appends to a file, tracking how many bytes went out. */
export class SequentialWriter {
  private readonly fd: number;
  written = 0;
  constructor(readonly file: string) {
    this.fd = openSync(file, "w");
  }
  write(bytes: Uint8Array): void {
    let done = 0;
    while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done);
    this.written += bytes.length;
  }
  close(): void {
    closeSync(this.fd);
  }
}

/** Copies `length` bytes from `position` of a reader to a writer in chunks (never the whole range in memory). */
export function copyRange(
  reader: PositionalReader,
  position: number,
  length: number,
  writer: SequentialWriter,
  chunk = 16 * 2 ** 20,
): void {
  for (let done = 0; done < length; done += chunk) {
    writer.write(reader.read(position + done, Math.min(chunk, length - done)));
  }
}

export function isStoredDtype(dtype: string): dtype is StoredDtype {
  return dtype === "F32" || dtype === "F16" || dtype === "BF16";
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** A typed view of `bytes` when its alignment allows (little-endian machines), else undefined. */
function view<T>(
  bytes: Uint8Array,
  width: number,
  make: (b: ArrayBufferLike, o: number, n: number) => T,
): T | undefined {
  return littleEndian && bytes.byteOffset % width === 0
    ? make(bytes.buffer, bytes.byteOffset, bytes.length / width)
    : undefined;
}

/** Adds the little-endian values of `bytes` (one row in `dtype`) into `acc`. */
export function addRowInto(acc: Float32Array, bytes: Buffer, dtype: StoredDtype): void {
  const n = acc.length;
  if (dtype === "F32") {
    const v = view(bytes, 4, (b, o, k) => new Float32Array(b, o, k));
    if (v) for (let i = 0; i < n; i++) acc[i] += v[i]!;
    else for (let i = 0; i < n; i++) acc[i] += bytes.readFloatLE(i * 4);
    return;
  }
  const h = view(bytes, 2, (b, o, k) => new Uint16Array(b, o, k));
  const at = (i: number) => (h ? h[i]! : bytes.readUInt16LE(i * 2));
  if (dtype === "BF16") {
    for (let i = 0; i < n; i++) {
      u32[0] = at(i) << 16;
      acc[i] += f32[0]!;
    }
  } else for (let i = 0; i < n; i++) acc[i] += fromHalf(at(i));
}

/** One float32 row as little-endian bytes of `dtype` (round to nearest even, as torch does). */
export function encodeRow(row: Float32Array, dtype: StoredDtype): Buffer {
  if (littleEndian) {
    if (dtype === "F32") return Buffer.from(Float32Array.from(row).buffer);
    const bits = new Uint16Array(row.length);
    const convert = dtype === "BF16" ? floatToBf16Bits : toHalf;
    for (let i = 0; i < row.length; i++) bits[i] = convert(row[i]!);
    return Buffer.from(bits.buffer);
  }
  const out = Buffer.alloc(row.length * STORED_DTYPE_BYTES[dtype]);
  if (dtype === "F32") row.forEach((v, i) => out.writeFloatLE(v, i * 4));
  else if (dtype === "BF16") row.forEach((v, i) => out.writeUInt16LE(floatToBf16Bits(v), i * 2));
  else row.forEach((v, i) => out.writeUInt16LE(toHalf(v), i * 2));
  return out;
}

export function floatToBf16Bits(v: number): number {
  f32[0] = v;
  const bits = u32[0]!;
  if ((bits & 0x7fffffff) > 0x7f800000) return ((bits >>> 16) | 0x40) & 0xffff; // NaN stays NaN
  return ((bits + 0x7fff + ((bits >>> 16) & 1)) >>> 16) & 0xffff;
}
