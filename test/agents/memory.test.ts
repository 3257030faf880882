import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { Message } from "../../src/chat/messages.ts";
import { createAgent } from "../../src/agents/functions.ts";
import { ChatMemory, InMemoryChatMemoryStore, INTERRUPTED_TOOL_RESULT } from "../../src/agents/memory.ts";
import { SqliteChatMemoryStore } from "../../src/agents/memory-sqlite.ts";
import { ScriptedModel } from "../../src/models/scripted.ts";
import { getCurrentTemperature, sum } from "../helpers/reference-tools.ts";

const user = (content: string): Message => ({ role: "user", content });
const assistant = (content: string): Message => ({ role: "assistant", content });
const callMsg = (id: string): Message => ({
  role: "assistant",
  content: "",
  tool_calls: [{ id, type: "function", function: { name: "sum", arguments: { a: 1, b: 2 } } }],
});
const result = (id: string): Message => ({ role: "tool", tool_call_id: id, name: "sum", content: "3" });

const dirs: string[] = [];
const tempDb = (): string => {
  const dir = mkdtempSync(join(tmpdir(), "toolgen-memory-"));
  dirs.push(dir);
  return join(dir, "memory.sqlite");
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("chat memory windows", () => {
  it("keeps the last N messages and never starts with orphaned tool results", async () => {
    const memory = new ChatMemory("m", { maxMessages: 3 });
    await memory.add(user("q1"), callMsg("c1"), result("c1"), assistant("a1"));
    // The window [callMsg, result, a1] fits but then [user q2] pushes out the call, taking its result along.
    await memory.add(user("q2"));
    expect(await memory.messages()).toEqual([assistant("a1"), user("q2")]);
  });

  it("keeps as many recent messages as fit in the token budget", async () => {
    const memory = new ChatMemory("m", { maxTokens: 10, countTokens: (m) => m.content.length });
    await memory.add(user("aaaa"), assistant("bbbb"), user("cccc"));
    expect((await memory.messages()).map((m) => m.content)).toEqual(["bbbb", "cccc"]);
    await memory.add(user("x".repeat(50)));
    expect((await memory.messages()).map((m) => m.content)).toEqual(["x".repeat(50)]);
  });

  it("rejects bad window sizes with a clear error", () => {
    expect(() => new ChatMemory("m", { maxMessages: 0 })).toThrow(/maxMessages must be a positive integer/);
    expect(() => new ChatMemory("m", { maxTokens: 1.5 })).toThrow(/maxTokens must be a positive integer/);
  });

  it("answers tool calls left without results (a crash mid-call) on read", async () => {
    const store = new InMemoryChatMemoryStore();
    store.updateMessages("m", [user("q"), callMsg("c9")]);
    const messages = await new ChatMemory("m", { store }).messages();
    expect(messages.at(-1)).toEqual({
      role: "tool",
      tool_call_id: "c9",
      name: "sum",
      content: INTERRUPTED_TOOL_RESULT,
    });
  });

  it("never mixes two memory ids chatting in parallel", async () => {
    const store = new InMemoryChatMemoryStore();
    // Each reply echoes every user message the model was shown, so any leak shows up in the answers.
    const echo = (messages: Message[]) => {
      const users = messages.filter((m) => m.role === "user").map((m) => m.content);
      return users.join(" | ");
    };
    const model = new ScriptedModel(Array.from({ length: 40 }, () => echo));
    const agent = createAgent({ model, tools: [sum], memory: { store } });
    const turns = (id: string) =>
      (async () => {
        const answers: string[] = [];
        for (let i = 0; i < 10; i++) answers.push((await agent.chat(id, `${id}-${i}`)).answer);
        return answers;
      })();
    const [alice, bob] = await Promise.all([turns("alice"), turns("bob")]);
    expect(alice.at(-1)).toBe(Array.from({ length: 10 }, (_, i) => `alice-${i}`).join(" | "));
    expect(bob.at(-1)).toBe(Array.from({ length: 10 }, (_, i) => `bob-${i}`).join(" | "));
    expect(alice.join(" ")).not.toContain("bob");
    expect(bob.join(" ")).not.toContain("alice");
    expect(store.ids().sort()).toEqual(["alice", "bob"]);
  });
});

describe("SQLite chat memory", () => {
  it("loses nothing when closed and reopened mid-conversation", async () => {
    const path = tempDb();
    const first = new SqliteChatMemoryStore(path);
    const model1 = new ScriptedModel([
      {
        tool_calls: [
          {
            id: "t1",
            name: "get_current_temperature",
            arguments: { location: "Paris, France", unit: "celsius" },
          },
        ],
      },
      "22 °C in Paris.",
    ]);
    const run1 = await createAgent({
      model: model1,
      tools: [getCurrentTemperature],
      memory: { store: first },
    }).chat("alice", "Temperature in Paris?");
    expect(run1.answer).toBe("22 °C in Paris.");
    const before = first.getMessages("alice");
    first.close();

    const second = new SqliteChatMemoryStore(path);
    expect(second.getMessages("alice")).toEqual(before);
    const model2 = new ScriptedModel(["You asked about Paris."]);
    const run2 = await createAgent({
      model: model2,
      tools: [getCurrentTemperature],
      memory: { store: second },
    }).chat("alice", "What did I ask?");
    expect(run2.answer).toBe("You asked about Paris.");
    // The reopened conversation reached the model whole: user, call, result (tool_call_id kept), answer, new question.
    expect(model2.calls[0]!.messages).toEqual([...before, user("What did I ask?")]);
    expect(before.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(before[2]).toMatchObject({ tool_call_id: "t1", content: "22" });
    second.close();
  });

  it("keeps what was written before a crash inside a run", async () => {
    const path = tempDb();
    const store = new SqliteChatMemoryStore(path);
    // The model fails after the tool round, as if the process died there.
    const model = new ScriptedModel([{ tool_calls: [{ id: "k", name: "sum", arguments: { a: 2, b: 3 } }] }]);
    const run = await createAgent({ model, tools: [sum], memory: { store } }).chat("bob", "2+3?");
    expect(run.stoppedBecause).toBe("model_error");
    store.close();
    const reopened = new SqliteChatMemoryStore(path);
    expect(reopened.getMessages("bob").map((m) => m.content)).toEqual(["2+3?", "", "5"]);
    reopened.close();
  });

  it("keeps memory ids apart and deletes one without touching the other", () => {
    const store = new SqliteChatMemoryStore(tempDb());
    store.updateMessages("a", [user("for a")]);
    store.updateMessages("b", [user("for b")]);
    store.deleteMessages("a");
    expect(store.getMessages("a")).toEqual([]);
    expect(store.getMessages("b")).toEqual([user("for b")]);
    expect(store.ids()).toEqual(["b"]);
    store.close();
  });

  it("reports a corrupted row clearly instead of crashing later", () => {
    const path = tempDb();
    new SqliteChatMemoryStore(path).close();
    const db = new Database(path);
    db.prepare("INSERT INTO chat_memory VALUES (?, ?, ?)").run("x", "{not json", 0);
    db.prepare("INSERT INTO chat_memory VALUES (?, ?, ?)").run("y", '[{"role":"robot","content":""}]', 0);
    db.close();
    const store = new SqliteChatMemoryStore(path);
    expect(() => store.getMessages("x")).toThrow(/chat memory "x" .* is not valid JSON/);
    expect(() => store.getMessages("y")).toThrow(/not a list of messages/);
    store.close();
  });

  it("says which file it could not open", () => {
    expect(() => new SqliteChatMemoryStore("/nonexistent-dir/x/memory.sqlite")).toThrow(
      /cannot open the SQLite chat memory at \/nonexistent-dir/,
    );
  });
});
