import { readFileSync } from "node:fs";
import { writeFileAtomic } from "../../io/atomic.ts";
import { ToolgenError } from "../../errors.ts";

/**
 * The safetensors format (Hugging Face): an 8-byte little-endian header length, a JSON header
 * `{name: {dtype, shape, data_offsets: [begin, end]}, "__metadata__"?: {string: string}}`, then the raw
 * little-endian tensor bytes. We write F32; we read F32, F16 and BF16 (converted to float32).
 */
export interface NamedTensor {
  name: string;
  shape: number[];
  data: Float32Array;
}

const DTYPE_BYTES: Record<string, number> = { F32: 4, F16: 2, BF16: 2 };

/** Serialises tensors (in the given order) and string metadata. */
export function encodeSafetensors(tensors: NamedTensor[], metadata: Record<string, string> = {}): Buffer {
  const header: Record<string, unknown> = {};
  if (Object.keys(metadata).length > 0) header.__metadata__ = metadata;
  let offset = 0;
  for (const t of tensors) {
    const n = t.shape.reduce((a, b) => a * b, 1);
    if (n !== t.data.length)
      throw new ToolgenError(
        "invalid_input",
        `tensor ${t.name}: shape [${t.shape}] does not hold ${t.data.length} values`,
      );
    if (t.name in header) throw new ToolgenError("invalid_input", `tensor ${t.name} appears twice`);
    header[t.name] = { dtype: "F32", shape: t.shape, data_offsets: [offset, offset + n * 4] };
    offset += n * 4;
  }
  let json = JSON.stringify(header);
  json += " ".repeat((8 - (Buffer.byteLength(json) % 8)) % 8); // keep the data 8-byte aligned
  const headerBytes = Buffer.from(json, "utf8");
  const out = Buffer.alloc(8 + headerBytes.length + offset);
  out.writeBigUInt64LE(BigInt(headerBytes.length), 0);
  headerBytes.copy(out, 8);
  let at = 8 + headerBytes.length;
  for (const t of tensors) {
    const bytes = Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);
    if (isLittleEndian) bytes.copy(out, at);
    else for (let i = 0; i < t.data.length; i++) out.writeFloatLE(t.data[i], at + i * 4);
    at += t.data.byteLength;
  }
  return out;
}

const isLittleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Parses a safetensors buffer, validating the header against the file; `source` names the file in errors. */
export function decodeSafetensors(
  buf: Uint8Array,
  source = "safetensors",
): { tensors: Map<string, NamedTensor>; metadata: Record<string, string> } {
  const fail = (why: string): never => {
    throw new ToolgenError("invalid_input", `${source}: not a valid safetensors file (${why})`);
  };
  if (buf.length < 8) fail(`${buf.length} bytes, shorter than the 8-byte header length`);
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const headerLen = Number(view.getBigUint64(0, true));
  if (headerLen > buf.length - 8) fail(`header length ${headerLen} exceeds the file size ${buf.length}`);
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(buf.subarray(8, 8 + headerLen)));
  } catch (e) {
    fail(`header is not JSON: ${(e as Error).message}`);
  }
  if (typeof header !== "object" || header === null || Array.isArray(header))
    fail("header is not a JSON object");
  const dataStart = 8 + headerLen;
  const dataLen = buf.length - dataStart;
  const tensors = new Map<string, NamedTensor>();
  let metadata: Record<string, string> = {};
  const spans: [number, number, string][] = [];
  for (const [name, entry] of Object.entries(header as Record<string, unknown>)) {
    if (name === "__metadata__") {
      metadata = (entry ?? {}) as Record<string, string>;
      continue;
    }
    const e = entry as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    const bytesPer = typeof e.dtype === "string" ? DTYPE_BYTES[e.dtype] : undefined;
    if (bytesPer === undefined)
      fail(`tensor ${name}: dtype ${JSON.stringify(e.dtype)} not supported (F32, F16, BF16)`);
    const shape = e.shape;
    if (!Array.isArray(shape) || !shape.every((d) => Number.isInteger(d) && d >= 0))
      fail(`tensor ${name}: bad shape`);
    const offs = e.data_offsets;
    if (!Array.isArray(offs) || offs.length !== 2 || !offs.every((o) => Number.isInteger(o) && o >= 0)) {
      fail(`tensor ${name}: bad data_offsets`);
    }
    const [begin, end] = offs as [number, number];
    const n = (shape as number[]).reduce((a, b) => a * b, 1);
    if (end < begin || end - begin !== n * bytesPer!)
      fail(`tensor ${name}: ${end - begin} bytes for shape [${shape}]`);
    if (end > dataLen)
      fail(`tensor ${name}: data ends at ${end}, past the end of the file (${dataLen} data bytes)`);
    spans.push([begin, end, name]);
    tensors.set(name, {
      name,
      shape: shape as number[],
      data: readValues(buf, dataStart + begin, n, e.dtype as string),
    });
  }
  spans.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) {
    if (spans[i][0] < spans[i - 1][1]) fail(`tensors ${spans[i - 1][2]} and ${spans[i][2]} overlap`);
  }
  const covered = spans.length > 0 ? spans[spans.length - 1][1] : 0;
  if (covered !== dataLen)
    fail(`${dataLen - covered} bytes after the last tensor (truncated or padded file)`);
  return { tensors, metadata };
}

function readValues(buf: Uint8Array, at: number, n: number, dtype: string): Float32Array {
  const out = new Float32Array(n);
  const view = new DataView(buf.buffer, buf.byteOffset + at, n * DTYPE_BYTES[dtype]);
  if (dtype === "F32") for (let i = 0; i < n; i++) out[i] = view.getFloat32(i * 4, true);
  else if (dtype === "BF16") {
    const u = new Uint32Array(1);
    const f = new Float32Array(u.buffer);
    for (let i = 0; i < n; i++) {
      u[0] = view.getUint16(i * 2, true) << 16;
      out[i] = f[0];
    }
  } else for (let i = 0; i < n; i++) out[i] = halfToFloat(view.getUint16(i * 2, true));
  return out;
}

function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * Math.pow(2, -14) * (frac / 1024);
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * Math.pow(2, exp - 15) * (1 + frac / 1024);
}

export function readSafetensors(file: string): ReturnType<typeof decodeSafetensors> {
  return decodeSafetensors(readFileSync(file), file);
}

export function writeSafetensors(
  file: string,
  tensors: NamedTensor[],
  metadata: Record<string, string> = {},
): void {
  writeFileAtomic(file, encodeSafetensors(tensors, metadata));
}
