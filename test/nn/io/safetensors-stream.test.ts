import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fromHalf as halfBitsToFloat, toHalf as floatToHalfBits } from "../../../src/nn/gguf/f16.ts";
import {
  encodeSafetensorsHeader,
  floatToBf16Bits,
  readSafetensorsHeader,
} from "../../../src/nn/io/safetensors-stream.ts";

const bf16ToFloat = (bits: number) => new Float32Array(new Uint32Array([bits << 16]).buffer)[0]!;

describe("row conversions", () => {
  it("round-trips every f16 and bf16 bit pattern (NaNs stay NaN)", () => {
    const bad: number[] = [];
    for (let h = 0; h < 65536; h++) {
      const f = halfBitsToFloat(h);
      const g = bf16ToFloat(h);
      const halfOk = Number.isNaN(f)
        ? Number.isNaN(halfBitsToFloat(floatToHalfBits(f)))
        : floatToHalfBits(f) === h;
      const bfOk = Number.isNaN(g) ? Number.isNaN(bf16ToFloat(floatToBf16Bits(g))) : floatToBf16Bits(g) === h;
      if (!halfOk || !bfOk) bad.push(h);
    }
    expect(bad).toEqual([]);
  });

  it("rounds to nearest, ties to even, and overflows to infinity", () => {
    expect(bf16ToFloat(floatToBf16Bits(1 + 2 ** -8))).toBe(1); // tie → even (1.0)
    expect(bf16ToFloat(floatToBf16Bits(1 + 3 * 2 ** -8))).toBe(1 + 2 ** -6); // tie → even
    expect(bf16ToFloat(floatToBf16Bits(1 + 2 ** -8 + 2 ** -12))).toBe(1 + 2 ** -7);
    expect(halfBitsToFloat(floatToHalfBits(1 + 2 ** -11))).toBe(1);
    expect(halfBitsToFloat(floatToHalfBits(1 + 3 * 2 ** -11))).toBe(1 + 2 ** -9);
    expect(halfBitsToFloat(floatToHalfBits(70000))).toBe(Infinity);
    expect(halfBitsToFloat(floatToHalfBits(2 ** -25 + 2 ** -30))).toBe(2 ** -24); // subnormal
  });
});

describe("safetensors headers", () => {
  it("reads what it writes and rejects gaps", () => {
    const dir = mkdtempSync(join(tmpdir(), "st-"));
    const { bytes, spans } = encodeSafetensorsHeader([
      { name: "a", dtype: "BF16", shape: [2, 2], bytes: 8 },
      { name: "b", dtype: "I64", shape: [1], bytes: 8 },
    ]);
    expect(bytes.length % 8).toBe(0);
    writeFileSync(join(dir, "ok.safetensors"), Buffer.concat([bytes, Buffer.alloc(16)]));
    const h = readSafetensorsHeader(join(dir, "ok.safetensors"));
    expect(h.tensors).toEqual(spans);
    expect(h.dataStart).toBe(bytes.length);
    const json = JSON.stringify({ a: { dtype: "F32", shape: [1], data_offsets: [4, 8] } });
    const len = Buffer.alloc(8);
    len.writeBigUInt64LE(BigInt(json.length));
    writeFileSync(join(dir, "gap.safetensors"), Buffer.concat([len, Buffer.from(json), Buffer.alloc(8)]));
    expect(() => readSafetensorsHeader(join(dir, "gap.safetensors"))).toThrow(/starts at 4, expected 0/);
  });
});
