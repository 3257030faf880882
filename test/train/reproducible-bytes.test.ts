import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { CatalogEntry, LabelledQuery } from "../../src/catalog/catalog.ts";
import { useKernels, type MatmulKernels } from "../../src/nn/kernels/index.ts";
import { createWasmKernels, DEFAULT_WASM_PATH, type WasmKernels } from "../../src/nn/kernels/wasm.ts";
import { Rng } from "../../src/nn/rng.ts";
import { trainToolGen } from "../../src/train/pipeline.ts";

// A ToolGen training run (trainToolGen, what `toolgen train` runs) on 2 kernel threads gives the same
// model.safetensors bytes whether the helper thread is up from the first step or joins part-way. That timing is the
// one run-to-run difference found in the engine: until the helpers are up the caller computes every product alone,
// and a row-split product whose last chunk had 1-3 rows used other arithmetic for them (fixed in d0929f3), so the
// bits depended on how many steps ran before the helpers arrived. This schedule (140 steps) did not show a drift
// with the code of 54334f5 either (helper 1.5 s late: the same bytes), so this test guards the timing path; it does
// not reproduce the MetaTool rebuild's 1.8e-4 drift.

const WORDS =
  "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu apple banana cherry grape lemon mango olive peach pear plum".split(
    " ",
  );

function data(): { catalog: CatalogEntry[]; queries: LabelledQuery[] } {
  const rng = new Rng(7);
  const pick = () => WORDS[rng.int(WORDS.length)]!;
  const catalog: CatalogEntry[] = [];
  const queries: LabelledQuery[] = [];
  for (let t = 0; t < 40; t++) {
    const w = [pick(), pick(), pick()];
    const id = `tool${t}`;
    catalog.push({
      id,
      tool: id,
      api: id,
      category: "Synthetic",
      description: `Tool ${t} handles ${w.join(" and ")} requests for ${WORDS[t % WORDS.length]}`,
      parameters: { type: "object", properties: {} },
      doc: {},
    });
    for (let q = 0; q < 6; q++)
      queries.push({ query: `please ${w[q % 3]} ${pick()} ${w[(q + 1) % 3]} now`, relevant: [id] });
  }
  return { catalog, queries };
}

const made: WasmKernels[] = [];
let previous: MatmulKernels | undefined;

/** Trains with fresh 2-thread kernels; `late`: the helper takes jobs only after `late` ms. */
async function run(late: number): Promise<{ bytes: Buffer; lateJoin: boolean }> {
  const k = createWasmKernels({ threads: 2, helperStartDelayMs: late });
  made.push(k);
  if (late === 0) {
    const until = Date.now() + 20_000;
    while (!k.parallel && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(k.parallel, "the helper thread did not start").toBe(true);
  }
  const before = useKernels(k);
  previous ??= before;
  const aloneAtStart = !k.parallel;
  const out = mkdtempSync(join(tmpdir(), "toolgen-bytes-"));
  const { catalog, queries } = data();
  await trainToolGen({
    catalog,
    queries,
    out,
    seed: 3,
    progress: false,
    log: () => {},
    // the tiny preset's shapes (128 wide) on 2 layers, with its token dropout, user loss and weight averaging
    config: { numLayers: 2 },
    schedule: { tokenizerVocab: 400, stages: { memorization: { epochs: 40 }, retrieval: { epochs: 12 } } },
  });
  return { bytes: readFileSync(join(out, "model.safetensors")), lateJoin: aloneAtStart && k.parallel };
}

describe.skipIf(!existsSync(DEFAULT_WASM_PATH))("toolgen training gives the same bytes twice", () => {
  afterAll(async () => {
    if (previous) useKernels(previous);
    await Promise.all(made.map((k) => k.close()));
  });

  it("with the helper thread up from the start and with it joining part-way (2 threads)", async () => {
    const early = await run(0);
    const late = await run(1500);
    // the second run began on the calling thread alone and had the helper by its end
    expect(late.lateJoin).toBe(true);
    expect(late.bytes.equals(early.bytes)).toBe(true);
  }, 240_000);
});
