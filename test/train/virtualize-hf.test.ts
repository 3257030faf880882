import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Tokenizer as HfTokenizer } from "@huggingface/tokenizers";
import { describe, expect, it } from "vitest";
import { FINISH_TOKEN, toolToken } from "../../src/toolgen/tokens.ts";
import { loadCatalog } from "../../src/catalog/load.ts";
import { loadCheckpoint, saveCheckpoint } from "../../src/nn/checkpoint.ts";
import { presetConfig } from "../../src/nn/config.ts";
import { readSafetensors } from "../../src/nn/io/safetensors.ts";
import { readSafetensorsHeader, type StoredDtype } from "../../src/nn/io/safetensors-stream.ts";
import { Llama } from "../../src/nn/llama.ts";
import { initParams } from "../../src/nn/params.ts";
import { loadToolGenModel } from "../../src/toolgen/model-folder.ts";
import { virtualizeHfModel } from "../../src/train/virtualize-hf.ts";
import { toolName, virtualizeTools } from "../../src/train/virtualize.ts";
import { sharedData } from "../helpers/shared-data.ts";
import {
  ENTRIES,
  llama3StyleTokenizerJson,
  randomTensor,
  smallTokenizer,
  writeShard,
  writeShardedFolder,
} from "../helpers/hf-folder.ts";

const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));

function engineCheckpoint(dir: string) {
  const tokenizer = smallTokenizer();
  const config = presetConfig("tiny", tokenizer.vocabSize, {
    hiddenSize: 16,
    intermediateSize: 32,
    numLayers: 1,
    numHeads: 2,
  });
  const model = new Llama(config, initParams(config, 7));
  saveCheckpoint(dir, model, { tokenizer });
  return { model, tokenizer };
}

describe("toolgen virtualize on the engine's checkpoints", () => {
  it("matches the engine's own virtualization exactly and reloads in the engine", async () => {
    const base = tmp("vbase-");
    const { model, tokenizer } = engineCheckpoint(base);
    const out = join(tmp("vout-"), "virtualized");
    const summary = await virtualizeHfModel({ base, out, entries: ENTRIES });
    expect(summary.added).toBe(ENTRIES.length + 1);
    expect(summary.vocab).toBe(model.config.vocabSize + ENTRIES.length + 1);
    expect(summary.nameTokenizer).toBe("engine");
    expect(summary.grown).toEqual(["model.embed_tokens.weight", "lm_head.weight"]);

    const expected = virtualizeTools(model, tokenizer, ENTRIES);
    const loaded = loadCheckpoint(out);
    expect(loaded.model.config.vocabSize).toBe(expected.model.config.vocabSize);
    for (const t of expected.model.params.tensors)
      expect(loaded.model.params.get(t.name), t.name).toEqual(t.data);
    // Old rows unchanged, byte for byte, against the base file.
    const old = model.params.get("model.embed_tokens.weight");
    expect(loaded.model.params.get("model.embed_tokens.weight").subarray(0, old.length)).toEqual(old);
    for (const e of ENTRIES)
      expect(loaded.tokenizer!.tokenToId(toolToken(e.id))).toBe(expected.toolTokenIds.get(e.id));
    expect(loaded.tokenizer!.tokenToId(FINISH_TOKEN)).toBe(expected.finishId);
    expect(loaded.tokenizer!.encode(`call ${toolToken(ENTRIES[0]!.id)} now`)).toContain(
      expected.toolTokenIds.get(ENTRIES[0]!.id),
    );
    const folder = loadToolGenModel(out);
    expect(folder.index.kind).toBe("atomic");
    expect(Object.keys(folder.index.texts)).toHaveLength(ENTRIES.length);
  });

  it("is idempotent and refuses to overwrite a folder", async () => {
    const base = tmp("vbase-");
    engineCheckpoint(base);
    const out = join(tmp("vout-"), "v1");
    const first = await virtualizeHfModel({ base, out, entries: ENTRIES });
    const again = await virtualizeHfModel({ base: out, out: join(tmp("vout-"), "v2"), entries: ENTRIES });
    expect(again.added).toBe(0);
    expect(again.existing).toBe(ENTRIES.length + 1);
    expect(again.vocab).toBe(first.vocab);
    await expect(virtualizeHfModel({ base, out, entries: ENTRIES })).rejects.toThrow(/already exists/);
  });

  it("explains a folder it cannot read", async () => {
    const base = tmp("vbad-");
    writeFileSync(join(base, "config.json"), JSON.stringify({ vocab_size: 10 }));
    writeFileSync(join(base, "tokenizer.json"), "{}");
    writeFileSync(join(base, "pytorch_model.bin"), "x");
    const out = join(tmp("vout-"), "x");
    await expect(virtualizeHfModel({ base, out, entries: ENTRIES })).rejects.toThrow(
      /convert the weights to safetensors/,
    );
    expect(existsSync(out)).toBe(false);
    await expect(virtualizeHfModel({ base: join(base, "nope"), out, entries: ENTRIES })).rejects.toThrow(
      /does not exist/,
    );
  });
});

const BF16_EPS = 2 ** -8;
const F16_EPS = 2 ** -11;

describe.each<StoredDtype>(["BF16", "F16", "F32"])(
  "a synthetic three-shard %s Hugging Face folder",
  (dtype) => {
    it("grows embed_tokens and lm_head with name means, copying everything else byte for byte", async () => {
      const tokenizer = smallTokenizer();
      const tokJson = llama3StyleTokenizerJson(tokenizer);
      const vocab = tokenizer.vocabSize + 3; // three padding rows, as many released models have
      const base = tmp("vshard-");
      writeShardedFolder(base, dtype, tokJson, vocab);
      const out = join(tmp("vout-"), "model");
      const summary = await virtualizeHfModel({
        base,
        out,
        entries: ENTRIES,
        chatTemplate: "{{ messages }}",
      });
      expect(summary.nameTokenizer).toBe("hf-tokenizers");
      expect(summary.shards).toBe(3);
      expect(summary.skipped).toEqual(["pytorch_model.bin"]);
      const firstNew = tokenizer.vocabSize;
      expect(summary.vocab).toBe(firstNew + ENTRIES.length + 1);

      const hf = new HfTokenizer(tokJson, {});
      const names = [...ENTRIES.map(toolName), "Finish"];
      const shardName = (i: number) => `model-0000${i}-of-00003.safetensors`;
      // Shard 3 has no vocabulary matrix: copied as a file.
      expect(readFileSync(join(out, shardName(3)))).toEqual(readFileSync(join(base, shardName(3))));
      for (const i of [1, 2]) {
        const before = readSafetensors(join(base, shardName(i))).tensors;
        const after = readSafetensors(join(out, shardName(i))).tensors;
        const rawBefore = rawTensors(join(base, shardName(i)));
        const rawAfter = rawTensors(join(out, shardName(i)));
        for (const [name, t] of before) {
          const grownTensor = name === "model.embed_tokens.weight" || name === "lm_head.weight";
          if (!grownTensor) {
            expect(rawAfter.get(name), name).toEqual(rawBefore.get(name));
            continue;
          }
          const d = t.shape[1]!;
          const rowBytes = d * (dtype === "F32" ? 4 : 2);
          const grown = after.get(name)!;
          expect(grown.shape).toEqual([summary.vocab, d]);
          // Rows of real tokens are the same bytes; padding rows now hold tool tokens.
          expect(rawAfter.get(name)!.subarray(0, firstNew * rowBytes)).toEqual(
            rawBefore.get(name)!.subarray(0, firstNew * rowBytes),
          );
          names.forEach((n, k) => {
            const ids = hf.encode(n, { add_special_tokens: false }).ids;
            expect(ids.length).toBeGreaterThan(0);
            for (let j = 0; j < d; j++) {
              let mean = 0;
              for (const id of ids) mean += t.data[id * d + j]!;
              mean /= ids.length;
              const got = grown.data[(firstNew + k) * d + j]!;
              const eps = dtype === "BF16" ? BF16_EPS : dtype === "F16" ? F16_EPS : 1e-6;
              expect(Math.abs(got - mean), `${name} row ${firstNew + k}`).toBeLessThanOrEqual(
                eps * Math.abs(mean) + 1e-6,
              );
            }
          });
        }
      }
      const index = JSON.parse(readFileSync(join(out, "model.safetensors.index.json"), "utf8"));
      let total = 0;
      for (const i of [1, 2, 3])
        total += readSafetensorsHeader(join(out, shardName(i))).tensors.reduce(
          (n, t) => n + t.end - t.begin,
          0,
        );
      expect(index.metadata.total_size).toBe(total);
      expect(JSON.parse(readFileSync(join(out, "config.json"), "utf8")).vocab_size).toBe(summary.vocab);
      const outTok = new HfTokenizer(JSON.parse(readFileSync(join(out, "tokenizer.json"), "utf8")), {});
      const ids = outTok.encode(`use ${toolToken(ENTRIES[3]!.id)} then ${FINISH_TOKEN}`, {
        add_special_tokens: false,
      }).ids;
      expect(ids).toContain(firstNew + 3);
      expect(ids).toContain(summary.finishId);
      const tc = JSON.parse(readFileSync(join(out, "tokenizer_config.json"), "utf8"));
      expect(tc.added_tokens_decoder[String(summary.finishId)].content).toBe(FINISH_TOKEN);
      expect(tc.chat_template).toBe("{{ messages }}");
      expect(existsSync(join(out, "generation_config.json"))).toBe(true);
      expect(existsSync(join(out, "pytorch_model.bin"))).toBe(false);
    });
  },
);

describe("tied embeddings", () => {
  it("grows embed_tokens alone when the model has no lm_head", async () => {
    const tokenizer = smallTokenizer();
    const base = tmp("vtied-");
    const vocab = tokenizer.vocabSize;
    writeShard(join(base, "model.safetensors"), [
      randomTensor("model.embed_tokens.weight", "BF16", [vocab, 8], 9),
    ]);
    writeFileSync(
      join(base, "config.json"),
      JSON.stringify({ vocab_size: vocab, tie_word_embeddings: true }),
    );
    writeFileSync(join(base, "tokenizer.json"), JSON.stringify(tokenizer.toJSON()));
    const out = join(tmp("vout-"), "tied");
    const summary = await virtualizeHfModel({ base, out, entries: ENTRIES });
    expect(summary.grown).toEqual(["model.embed_tokens.weight"]);
    const { tensors } = readSafetensors(join(out, "model.safetensors"));
    expect(tensors.get("model.embed_tokens.weight")!.shape).toEqual([vocab + ENTRIES.length + 1, 8]);
    writeFileSync(join(base, "config.json"), JSON.stringify({ vocab_size: vocab }));
    await expect(virtualizeHfModel({ base, out: join(tmp("vout-"), "x"), entries: ENTRIES })).rejects.toThrow(
      /no lm_head.weight and tie_word_embeddings is not true/,
    );
  });
});

function rawTensors(file: string): Map<string, Buffer> {
  const h = readSafetensorsHeader(file);
  const buf = readFileSync(file);
  return new Map(h.tensors.map((t) => [t.name, buf.subarray(h.dataStart + t.begin, h.dataStart + t.end)]));
}

const metatool = sharedData("metatool/tools.json");
const stb = sharedData("stabletoolbench/apis.json");

describe.skipIf(!metatool || !stb)("virtualize on the shared MetaTool and StableToolBench catalogs", () => {
  it.each([
    ["metatool", metatool!],
    ["stabletoolbench", stb!],
  ])("%s: one token per tool plus <<Finish>>, and the folder reloads in the engine", async (_name, file) => {
    const entries = loadCatalog(file);
    const base = tmp("vshared-");
    const { model } = engineCheckpoint(base);
    const out = join(tmp("vout-"), "model");
    const summary = await virtualizeHfModel({ base, out, entries });
    expect(summary.added).toBe(entries.length + 1);
    const loaded = loadToolGenModel(out);
    expect(loaded.model.config.vocabSize).toBe(model.config.vocabSize + entries.length + 1);
    expect(loaded.tokenizer.tokenToId(toolToken(entries.at(-1)!.id))).toBe(summary.vocab - 2);
  });
});
