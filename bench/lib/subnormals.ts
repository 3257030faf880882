/** How many floats of `x` are subnormal (exponent bits all zero, mantissa not zero). */
export function countSubnormals(x: Float32Array): number {
  const bits = new Uint32Array(x.buffer, x.byteOffset, x.length);
  let n = 0;
  for (let i = 0; i < bits.length; i++) {
    const b = bits[i]! & 0x7fffffff;
    if (b !== 0 && b < 0x00800000) n++;
  }
  return n;
}
