// Work the thread pool splits besides the gemm: a job of one kind is `count` independent items, and item i
// of it is computed by runTask(kind, i, args, scratch) on whichever thread claims it. Every item writes its
// own part of the outputs and reads only inputs, so the result does not depend on which thread ran it nor
// on the number of threads. `args` points at the job's arguments (i32 slots; f32 values stored as their
// bits); `scratch` at the calling thread's scratchBytes() bytes.
import { attentionForward } from "./attention";
import { attentionBackwardItem } from "./attention-items";
import {
  rmsnormForward,
  swigluBackward,
  swigluBackwardKept,
  swigluForward,
  swigluForwardKeep,
} from "./elementwise";
import { moveHeads, ropeRows } from "./heads";
import { arg, argf } from "./args";
import { runTrainTask } from "./train-tasks";
import { addInto } from "./train";

/** Task kinds (kernels/control.mjs mirrors them). */
const ATTENTION_FORWARD: i32 = 1;
const ATTENTION_BACKWARD: i32 = 2;
const SWIGLU_FORWARD: i32 = 3;
const SWIGLU_BACKWARD: i32 = 4;
const ADD: i32 = 5;
const RMSNORM_FORWARD: i32 = 6;
const MOVE_HEADS: i32 = 7;
const ROPE_ROWS: i32 = 20;
/** Kinds from here on are the training step's (train-tasks.ts). */
export const FIRST_TRAIN_TASK: i32 = 8;

/** Longest sequence the pooled attention backward takes: its dS block (64 × L floats) sits in the scratch. */
export const ATTENTION_MAX_L: i32 = 2048;

/**
 * Item i of a job. Attention: one (sequence, head) from a table of (at, pAt, L) triples in floats (args:
 * the arrays' byte addresses, the table, hd, scale, the row stride ld: hd or H·hd, attention.ts). Elementwise kinds: floats [i·chunk, min(n, (i+1)·chunk))
 * (rows for RMSNorm), so a chunk boundary never changes what an element gets.
 */
export function runTask(kind: i32, i: i32, args: usize, scratch: usize): void {
  if (kind == ROPE_ROWS) {
    // args: x, y (0: none), rows, H, hd, cos, sin, positions, inverse, rows per item
    const r0 = i * arg(args, 9);
    const r1 = min(arg(args, 2), r0 + arg(args, 9));
    const H = arg(args, 3);
    const hd = arg(args, 4);
    const cos = <usize>arg(args, 5);
    const sin = <usize>arg(args, 6);
    const pos = <usize>arg(args, 7);
    const inverse = arg(args, 8);
    ropeRows(<usize>arg(args, 0), r0, r1, H, hd, cos, sin, pos, inverse);
    if (arg(args, 1) != 0) ropeRows(<usize>arg(args, 1), r0, r1, H, hd, cos, sin, pos, inverse);
  } else if (kind >= FIRST_TRAIN_TASK) {
    runTrainTask(kind, i, args, scratch);
  } else if (kind == ATTENTION_FORWARD) {
    const t = <usize>arg(args, 5) + <usize>(i * 12);
    const at = <usize>load<i32>(t) * 4;
    const pAt = <usize>load<i32>(t, 4) * 4;
    const L = load<i32>(t, 8);
    const o = <usize>arg(args, 0) + at;
    const p = <usize>arg(args, 1) + pAt;
    const q = <usize>arg(args, 2) + at;
    const k = <usize>arg(args, 3) + at;
    const v = <usize>arg(args, 4) + at;
    attentionForward(o, p, q, k, v, L, arg(args, 6), argf(args, 7), scratch, arg(args, 8), arg(args, 9));
  } else if (kind == ATTENTION_BACKWARD) {
    attentionBackwardItem(i, args, scratch);
  } else if (kind == SWIGLU_FORWARD) {
    const n = arg(args, 3);
    const chunk = arg(args, 4);
    const s = i * chunk;
    const o = <usize>s * 4;
    // args: a, g, u, n, chunk, σ(g) kept at (0: not kept)
    const sg = <usize>arg(args, 5);
    if (sg != 0)
      swigluForwardKeep(
        <usize>arg(args, 0) + o,
        sg + o,
        <usize>arg(args, 1) + o,
        <usize>arg(args, 2) + o,
        min(chunk, n - s),
      );
    else
      swigluForward(
        <usize>arg(args, 0) + o,
        <usize>arg(args, 1) + o,
        <usize>arg(args, 2) + o,
        min(chunk, n - s),
      );
  } else if (kind == SWIGLU_BACKWARD) {
    const n = arg(args, 5);
    const chunk = arg(args, 6);
    const s = i * chunk;
    const o = <usize>s * 4;
    // args: dg, du, da, g, u, n, chunk, σ(g) kept by the forward at (0: computed again)
    const sg = <usize>arg(args, 7);
    if (sg != 0)
      swigluBackwardKept(
        <usize>arg(args, 0) + o,
        <usize>arg(args, 1) + o,
        <usize>arg(args, 2) + o,
        <usize>arg(args, 3) + o,
        <usize>arg(args, 4) + o,
        sg + o,
        min(chunk, n - s),
      );
    else
      swigluBackward(
        <usize>arg(args, 0) + o,
        <usize>arg(args, 1) + o,
        <usize>arg(args, 2) + o,
        <usize>arg(args, 3) + o,
        <usize>arg(args, 4) + o,
        min(chunk, n - s),
      );
  } else if (kind == ADD) {
    const n = arg(args, 3);
    const chunk = arg(args, 4);
    const s = i * chunk;
    const o = <usize>s * 4;
    addInto(<usize>arg(args, 0) + o, <usize>arg(args, 1) + o, <usize>arg(args, 2) + o, min(chunk, n - s));
  } else if (kind == MOVE_HEADS) {
    const rows = arg(args, 9);
    const chunk = arg(args, 10);
    const r = i * chunk;
    moveHeads(
      <usize>arg(args, 0),
      <usize>arg(args, 1),
      r,
      min(rows, r + chunk),
      arg(args, 2),
      arg(args, 3),
      arg(args, 4),
      <usize>arg(args, 5),
      <usize>arg(args, 6),
      <usize>arg(args, 7),
      arg(args, 8) & 1,
      arg(args, 8) >> 1,
    );
  } else if (kind == RMSNORM_FORWARD) {
    const rows = arg(args, 4);
    const d = arg(args, 5);
    const chunk = arg(args, 7);
    const r = i * chunk;
    const o = <usize>(r * d) * 4;
    rmsnormForward(
      <usize>arg(args, 0) + o,
      <usize>arg(args, 1) + <usize>r * 4,
      <usize>arg(args, 2) + o,
      <usize>arg(args, 3),
      min(chunk, rows - r),
      d,
      argf(args, 6),
    );
  }
}
