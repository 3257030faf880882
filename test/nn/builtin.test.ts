import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BuiltinTokenModel } from "../../src/models/builtin.ts";
import { saveCheckpoint } from "../../src/nn/checkpoint.ts";
import { presetConfig } from "../../src/nn/config.ts";
import { Llama } from "../../src/nn/llama.ts";
import { initParams } from "../../src/nn/params.ts";
import { Tokenizer } from "../../src/nn/tokenizer/index.ts";

const dir = mkdtempSync(join(tmpdir(), "toolgen-builtin-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("BuiltinTokenModel", () => {
  it("loads a checkpoint and serves tokenize/logits/sessions consistently", async () => {
    const tok = Tokenizer.train(["the weather in lisbon is sunny", "get the weather"], 290);
    tok.addTokens(["<<Weather&&Get current>>"]);
    const c = presetConfig("tiny", tok.vocabSize, {
      hiddenSize: 16,
      intermediateSize: 32,
      numLayers: 1,
      numHeads: 2,
      maxPositions: 32,
    });
    saveCheckpoint(dir, new Llama(c, initParams(c, 1)), { tokenizer: tok });
    const m = BuiltinTokenModel.load(dir);
    expect(m.vocabSize).toBe(tok.vocabSize);
    const toolId = m.tokenId("<<Weather&&Get current>>")!;
    expect(m.tokenize("get <<Weather&&Get current>>")).toContain(toolId);
    const ids = m.tokenize("the weather in lisbon");
    expect(m.detokenize(ids)).toBe("the weather in lisbon");
    const direct = await m.logits(ids);
    const s = await m.session();
    await s.append(ids.slice(0, 2));
    const f = await s.fork();
    const viaSession = await s.append(ids.slice(2));
    const viaFork = await f.append(ids.slice(2));
    for (let i = 0; i < direct.length; i++) {
      expect(viaSession[i]).toBeCloseTo(direct[i], 4);
      expect(viaFork[i]).toBeCloseTo(direct[i], 4);
    }
    s.dispose();
    f.dispose();
    expect(() => BuiltinTokenModel.load(join(dir, "missing"))).toThrow(/does not exist/);
  });
});
