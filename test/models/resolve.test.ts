import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OpenAIChatModel } from "../../src/models/openai.ts";
import { ModelSpecError, resolveModel } from "../../src/models/resolve.ts";
import { ScriptedModel } from "../../src/models/scripted.ts";

describe("resolveModel", () => {
  it("builds OpenAI-compatible models, splitting at the @ that starts the URL", async () => {
    const plain = await resolveModel("openai:qwen2.5-7b-instruct@http://127.0.0.1:8000/v1");
    expect(plain).toBeInstanceOf(OpenAIChatModel);
    expect(plain.id).toBe("openai:qwen2.5-7b-instruct@http://127.0.0.1:8000/v1");
    const ollama = await resolveModel("openai:team@qwen2.5:7b@http://localhost:11434/v1");
    expect(ollama.id).toBe("openai:team@qwen2.5:7b@http://localhost:11434/v1");
    await expect(resolveModel("openai:@http://h/v1")).rejects.toThrow(/no model name/);
    await expect(resolveModel("openai:m@notaurl")).rejects.toThrow(ModelSpecError);
    await expect(resolveModel("openai:m@http://h/v1", { dialect: "tgi" as never })).rejects.toThrow(
      /unknown server dialect/,
    );
    await expect(resolveModel("openai:m@http://h/v1", { toolCallFormat: "xml" as never })).rejects.toThrow(
      /unknown tool-call format "xml"; accepted: hermes/,
    );
  });

  it("loads scripted replies from a file", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "resolve-")), "replies.json");
    writeFileSync(file, JSON.stringify(["hello"]));
    const model = await resolveModel(`scripted:${file}`);
    expect(model).toBeInstanceOf(ScriptedModel);
    expect((await model.generate([{ role: "user", content: "hi" }])).message.content).toBe("hello");
  });

  it("says clearly what is wrong with a spec and what is accepted", async () => {
    await expect(resolveModel("gguf:/nonexistent/model.gguf")).rejects.toThrow(/does not exist/);
    await expect(resolveModel("builtin:/nonexistent/dir")).rejects.toThrow(/nonexistent/);
    await expect(resolveModel("gpt-4o")).rejects.toThrow(
      /unrecognised model spec "gpt-4o"; accepted: openai:MODEL@BASEURL/,
    );
    await expect(resolveModel("constructor:x")).rejects.toThrow(/unrecognised model spec/);
  });
});
