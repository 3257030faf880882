/**
 * Learns the argument scorer's residual (src/models/factored/residual.ts) on the linear scorer's softmax groups,
 * the linear weights frozen: the same loss (-log of the gold items' chance in their group), AdaGrad by hand, L2 on
 * U and v. `residualGrid` chooses the hidden size, L2 and epochs on a held-out tenth of the synth groups.
 */
import { dot, softmax, type SoftmaxGroup } from "../models/factored/linear.ts";
import { residualScore, type Residual } from "../models/factored/residual.ts";
import { Rng } from "../nn/rng.ts";

export interface ResidualOptions {
  hidden: number;
  epochs: number;
  l2: number;
  lr?: number;
  seed: number;
  /** Called after each epoch with the residual so far (the grid scores held-out groups there). */
  afterEpoch?: (epoch: number, r: Residual) => void;
}

const round = (v: number) => Math.round(v * 1e5) / 1e5;

/** Items of block `nullBlock` ("leave it out") keep their linear score; every other item gets the residual. */
export function trainResidual(
  groups: readonly SoftmaxGroup[],
  linear: readonly (readonly number[])[],
  nullBlock: number,
  o: ResidualOptions,
): { residual: Residual; loss: number } {
  const dim =
    groups
      .find((g) => g.items.some((it) => it.block !== nullBlock))
      ?.items.find((it) => it.block !== nullBlock)?.x.length ?? 0;
  const H = o.hidden;
  const lr = o.lr ?? 0.05;
  const rng = new Rng(o.seed * 7919 + 17);
  // U drawn wide enough that the hidden units start apart (a start near 0 lets the shared push on every candidate
  // against "leave it out" drive all biases down together and the units die); v small, so the residual starts
  // as a small nudge on the frozen linear scores
  const u = Float64Array.from({ length: H * dim }, () => (rng.next() * 2 - 1) * Math.sqrt(3 / dim));
  const b = new Float64Array(H);
  const v = Float64Array.from({ length: H }, () => (rng.next() * 2 - 1) * 0.05);
  const gu2 = new Float64Array(H * dim).fill(1e-8);
  const gb2 = new Float64Array(H).fill(1e-8);
  const gv2 = new Float64Array(H).fill(1e-8);
  const base = groups.map((g) => g.items.map((it) => dot(linear[it.block]!, it.x)));
  const order = groups.map((_, i) => i);
  const gu = new Float64Array(H * dim);
  const gb = new Float64Array(H);
  const gv = new Float64Array(H);
  const snapshot = (): Residual => ({
    hidden: H,
    dim,
    u: Array.from(u, round),
    b: Array.from(b, round),
    v: Array.from(v, round),
  });
  let loss = 0;
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rng.next() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    loss = 0;
    for (const gi of order) {
      const g = groups[gi]!;
      const n = g.items.length;
      const act = new Float64Array(n * H);
      const scores = base[gi]!.slice();
      for (let k = 0; k < n; k++) {
        const it = g.items[k]!;
        if (it.block === nullBlock) continue;
        let s = 0;
        for (let j = 0; j < H; j++) {
          let a = b[j]!;
          const row = j * dim;
          for (let d = 0; d < dim; d++) {
            const xd = it.x[d]!;
            if (xd !== 0) a += u[row + d]! * xd;
          }
          act[k * H + j] = a;
          if (a > 0) s += v[j]! * a;
        }
        scores[k] = scores[k]! + s;
      }
      const p = softmax(scores);
      const goldMass = g.gold.reduce((a, k) => a + p[k]!, 0);
      loss -= Math.log(Math.max(1e-12, goldMass));
      const gold = new Set(g.gold);
      gu.fill(0);
      gb.fill(0);
      gv.fill(0);
      for (let k = 0; k < n; k++) {
        const it = g.items[k]!;
        if (it.block === nullBlock) continue;
        const grad = p[k]! - (gold.has(k) ? p[k]! / Math.max(1e-12, goldMass) : 0);
        if (grad === 0) continue;
        for (let j = 0; j < H; j++) {
          const a = act[k * H + j]!;
          if (a <= 0) continue;
          gv[j] += grad * a;
          const dh = grad * v[j]!;
          gb[j] += dh;
          const row = j * dim;
          for (let d = 0; d < dim; d++) {
            const xd = it.x[d]!;
            if (xd !== 0) gu[row + d] += dh * xd;
          }
        }
      }
      for (let j = 0; j < H; j++) {
        const dv = gv[j]! + o.l2 * v[j]!;
        gv2[j] += dv * dv;
        v[j] -= (lr * dv) / Math.sqrt(gv2[j]!);
        const db = gb[j]!;
        if (db !== 0) {
          gb2[j] += db * db;
          b[j] -= (lr * db) / Math.sqrt(gb2[j]!);
        }
        const row = j * dim;
        for (let d = 0; d < dim; d++) {
          const du = gu[row + d]! + o.l2 * u[row + d]!;
          if (du === 0) continue;
          gu2[row + d] += du * du;
          u[row + d] -= (lr * du) / Math.sqrt(gu2[row + d]!);
        }
      }
    }
    loss /= Math.max(1, groups.length);
    o.afterEpoch?.(epoch + 1, snapshot());
  }
  return { residual: snapshot(), loss };
}

/** Mean loss and share of groups whose likeliest item is gold, the residual added (none: the linear scorer alone). */
export function groupLoss(
  groups: readonly SoftmaxGroup[],
  linear: readonly (readonly number[])[],
  nullBlock: number,
  r?: Residual,
): { loss: number; top: number } {
  let loss = 0;
  let top = 0;
  for (const g of groups) {
    const scores = g.items.map(
      (it) => dot(linear[it.block]!, it.x) + (r && it.block !== nullBlock ? residualScore(r, it.x) : 0),
    );
    const p = softmax(scores);
    loss -= Math.log(
      Math.max(
        1e-12,
        g.gold.reduce((a, k) => a + p[k]!, 0),
      ),
    );
    const best = scores.indexOf(Math.max(...scores));
    if (g.gold.includes(best)) top++;
  }
  const n = Math.max(1, groups.length);
  return { loss: Math.round((loss / n) * 1e4) / 1e4, top: Math.round((top / n) * 1e4) / 100 };
}

export interface ResidualChoice {
  hidden: number;
  l2: number;
  epochs: number;
  heldLoss: number;
  heldTop: number;
  linearHeldLoss: number;
  linearHeldTop: number;
  tried: { hidden: number; l2: number; epochs: number; loss: number; top: number }[];
}

/** Every tenth group held out; each (hidden, l2) trained on the rest for up to `maxEpochs`, scored after each epoch. */
export function residualGrid(
  groups: readonly SoftmaxGroup[],
  linear: readonly (readonly number[])[],
  nullBlock: number,
  seed: number,
  hiddens: readonly number[],
  l2s: readonly number[],
  maxEpochs: number,
): ResidualChoice {
  const held = groups.filter((_, i) => i % 10 === 0);
  const rest = groups.filter((_, i) => i % 10 !== 0);
  const lin = groupLoss(held, linear, nullBlock);
  const tried: ResidualChoice["tried"] = [];
  for (const hidden of hiddens)
    for (const l2 of l2s)
      trainResidual(rest, linear, nullBlock, {
        hidden,
        l2,
        epochs: maxEpochs,
        seed,
        afterEpoch: (epochs, r) =>
          tried.push({ hidden, l2, epochs, ...groupLoss(held, linear, nullBlock, r) }),
      });
  const best = tried.reduce((a, t) => (t.loss < a.loss ? t : a));
  return {
    hidden: best.hidden,
    l2: best.l2,
    epochs: best.epochs,
    heldLoss: best.loss,
    heldTop: best.top,
    linearHeldLoss: lin.loss,
    linearHeldTop: lin.top,
    tried,
  };
}
