// One (sequence, head) item of the attention backward, shared by its own pool job (tasks.ts runTask) and by a
// GEMM_BATCH job that runs it beside a layer's weight gradients (train-tasks.ts): the same function, the same bits.
import { attentionBackward } from "./attention";
import { gemmScratchBytes } from "./matmul";
import { ropeHeadRows } from "./heads";
import { arg, argf } from "./args";

/**
 * Item i of an attention backward job: one (sequence, head) from a table of (at, pAt, L) triples in floats. args:
 * dQ, dK, dV, dO, P, Q, K, V (byte addresses), the table, hd, scale, the row stride ld, the query rows of a
 * product's sub-blocks, then RoPE's backward on the item's dQ and dK rows (cos, sin, positions; cos 0: none).
 */
export function attentionBackwardItem(i: i32, args: usize, scratch: usize): void {
  const t = <usize>arg(args, 8) + <usize>(i * 12);
  const at = <usize>load<i32>(t) * 4;
  const pAt = <usize>load<i32>(t, 4) * 4;
  const L = load<i32>(t, 8);
  const ds = scratch + <usize>gemmScratchBytes();
  attentionBackward(
    <usize>arg(args, 0) + at,
    <usize>arg(args, 1) + at,
    <usize>arg(args, 2) + at,
    <usize>arg(args, 3) + at,
    <usize>arg(args, 4) + pAt,
    <usize>arg(args, 5) + at,
    <usize>arg(args, 6) + at,
    <usize>arg(args, 7) + at,
    ds,
    L,
    arg(args, 9),
    argf(args, 10),
    scratch,
    arg(args, 11),
    arg(args, 12),
  );
  // args 13–15: RoPE's backward on this item's dQ and dK rows (its head's columns), the cos and sin tables and
  // the rows' positions (13 = 0: none)
  const cos = <usize>arg(args, 13);
  if (cos != 0) {
    const ld = arg(args, 11);
    const hd = arg(args, 9);
    const r0 = load<i32>(t) / ld;
    const h = (load<i32>(t) - r0 * ld) / hd;
    const sin = <usize>arg(args, 14);
    const pos = <usize>arg(args, 15);
    ropeHeadRows(<usize>arg(args, 0), r0, r0 + L, h, ld, hd, cos, sin, pos, 1);
    ropeHeadRows(<usize>arg(args, 1), r0, r0 + L, h, ld, hd, cos, sin, pos, 1);
  }
}
