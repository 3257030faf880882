import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CatalogEntry } from "../../src/catalog/catalog.ts";
import { buildToolIndex } from "../../src/toolgen/ids.ts";
import {
  agentSamples,
  memorizationSamples,
  parseSamples,
  readSamples,
  retrievalSamples,
  writeSamples,
} from "../../src/train/datasets.ts";
import { GENERATE_ACTION } from "../../src/toolgen/agent-format.ts";
import { toolDocument } from "../../src/toolgen/tool-document.ts";

const entries: CatalogEntry[] = [
  {
    id: "Postcodes&&Find By PostCode",
    tool: "Postcodes",
    api: "Find By PostCode",
    category: "Data",
    description: "Gets addresses for a UK postcode.",
    parameters: {
      type: "object",
      properties: { postcode: { type: "string", default: "PL11DN" }, limit: { type: "integer" } },
      required: ["postcode"],
    },
    doc: { tool_description: "UK postcode lookup" },
  },
  {
    id: "calculator",
    tool: "calculator",
    api: "",
    description: "Evaluates a formula.",
    parameters: { type: "object", properties: {}, required: [] },
    doc: {},
  },
];
const index = buildToolIndex(entries, "atomic");

describe("stage datasets", () => {
  it("memorisation maps each tool document to its token", () => {
    const samples = memorizationSamples(entries, index);
    expect(samples).toHaveLength(2);
    expect(samples[0]!.messages[1]).toEqual({
      role: "assistant",
      content: "<<Postcodes&&Find By PostCode>>",
    });
    const doc = toolDocument(entries[0]!);
    expect(doc).toContain(
      "Tool Name: Postcodes\nTool Description: UK postcode lookup\nAPI Name: Find By PostCode",
    );
    expect(doc).toContain('Required Parameters: [{"name":"postcode","type":"string","default":"PL11DN"}]');
    expect(doc).toContain('Optional Parameters: [{"name":"limit","type":"integer"}]');
    expect(toolDocument(entries[1]!)).toBe("Tool Name: calculator\nTool Description: Evaluates a formula.");
  });

  it("retrieval gives one sample per relevant tool and reports unknown labels", () => {
    const queries = [
      { query: "address of PL1 1DN and 2+2", relevant: ["Postcodes&&Find By PostCode", "calculator"] },
    ];
    const { samples } = retrievalSamples(queries, index);
    expect(samples.map((s) => s.messages[1]!.content)).toEqual([
      "<<Postcodes&&Find By PostCode>>",
      "<<calculator>>",
    ]);
    const bad = [{ query: "q", relevant: ["nope"], id: "q7" }];
    expect(() => retrievalSamples(bad, index)).toThrow(/query q7 labels "nope"/);
    expect(retrievalSamples(bad, index, { skipUnknown: true })).toEqual({ samples: [], skipped: 1 });
  });

  it("agent samples follow the three-round format and end with Finish", () => {
    const [sample] = agentSamples(
      [
        {
          query: "Address of PL11DN?",
          steps: [
            {
              thought: "Look it up.",
              action: entries[0]!.id,
              arguments: { postcode: "PL11DN" },
              observation: "{...}",
            },
            {
              thought: "Done.",
              action: "Finish",
              arguments: { return_type: "give_answer", final_answer: "Plymouth" },
            },
          ],
        },
      ],
      entries,
      index,
    );
    const roles = sample!.messages.map((m) => m.role).join(",");
    expect(roles).toBe(
      "system,user,assistant,user,assistant,user,assistant,tool,assistant,user,assistant,user,assistant",
    );
    expect(sample!.messages[3]!.content).toBe(GENERATE_ACTION);
    expect(sample!.messages[4]!.content).toBe("<<Postcodes&&Find By PostCode>>");
    expect(sample!.messages[5]!.content).toMatch(
      /^Please give the input. Here is the documentation: \{"name"/,
    );
    expect(sample!.messages[10]!.content).toBe("<<Finish>>");
  });

  it("JSONL round-trips and bad lines are named", () => {
    const dir = mkdtempSync(join(tmpdir(), "toolgen-ds-"));
    const file = join(dir, "memorization.jsonl");
    const samples = memorizationSamples(entries, index);
    writeSamples(file, samples);
    expect(readFileSync(file, "utf8").split("\n")).toHaveLength(3);
    expect(readSamples(file)).toEqual(samples);
    expect(() => parseSamples('{"messages":[]}\n', "x.jsonl")).toThrow(/x.jsonl:1/);
    expect(() => parseSamples('\n{"messages":[{"role":"user","content":"q"}]}', "y.jsonl")).toThrow(
      /y.jsonl:2: no assistant turn/,
    );
    expect(() => parseSamples("{oops", "z.jsonl")).toThrow(/z.jsonl:1: not JSON/);
  });
});
