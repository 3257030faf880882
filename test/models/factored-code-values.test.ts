import { describe, expect, it } from "vitest";
import { candidatesFor, paramKind, quotedSpans } from "../../src/models/factored/candidates.ts";
import { assignLearned, type ScoredParam } from "../../src/models/factored/decide.ts";
import { docIdentifiers } from "../../src/models/factored/doc-identifiers.ts";
import { functionView, pairFeatures, questionView } from "../../src/models/factored/features.ts";
import { ENGLISH_NEGATIONS } from "../../src/models/factored/negations.ts";
import { flattenTool, nestArguments } from "../../src/models/factored/nested.ts";
import { tokenize } from "../../src/models/factored/text.ts";
import { tool } from "./factored-fixtures.ts";

/** Every parameter prefers the candidates in the order given by `rank` (candidate texts, best first). */
function scored(f: ReturnType<typeof functionView>, rank: string[]): ScoredParam[] {
  return f.params.map((info) => {
    const raw = info.candidates.map((c) => {
      const at = rank.indexOf(String(c.value));
      return at < 0 ? 0.001 : 1 / (at + 1);
    });
    const total = raw.reduce((a, b) => a + b, 0);
    return { info, probs: raw.map((r) => r / total), pNull: 0 };
  });
}

const values = (picked: ReturnType<typeof assignLearned>) =>
  Object.fromEntries(picked.map((p) => [p.param.info.name, p.values.map((v) => v.value)]));

describe("factored caller: values written as code", () => {
  it("gives no parameter a code identifier the function's name or documentation writes (unless docIdentifiers is off)", () => {
    const t = tool("clear001a.runIt", { out: { description: "The PrintStream to which the log is written." } }, ["out"]);
    const q = "execute the `runIt` method with a `PrintStream` object `logStream`";
    const f = functionView(t, questionView(q, new Set()), new Map());
    expect([...docIdentifiers(f)].sort()).toEqual(["PrintStream", "runIt"]);
    expect(values(assignLearned(f, scored(f, ["runIt", "PrintStream", "logStream"]), undefined))).toEqual({ out: ["logStream"] });
    const off = functionView(t, { ...questionView(q, new Set()), docIdentifiers: false }, new Map());
    expect(values(assignLearned(off, scored(off, ["runIt", "PrintStream", "logStream"]), undefined))).toEqual({ out: ["runIt"] });
  });

  it("gives a parameter of no declared type a code-like or quoted value where the question writes one (unless untypedCode is off)", () => {
    const t = tool("compare", { left: {}, right: {} }, ["left", "right"]);
    const q = "compare a parameter parameterObject and a declaration declObject, considering abstractness";
    const f = functionView(t, questionView(q, new Set()), new Map());
    const rank = ["declObject", "abstractness", "parameterObject"];
    expect(values(assignLearned(f, scored(f, rank), undefined))).toEqual({ left: ["declObject"], right: ["parameterObject"] });
    const off = functionView(t, { ...questionView(q, new Set()), untypedCode: false }, new Map());
    expect(values(assignLearned(off, scored(off, rank), undefined))).toEqual({ left: ["declObject"], right: ["abstractness"] });
    // a typed parameter is left as the scorer ranks it
    const typed = tool("compare", { left: { type: "string" } }, ["left"]);
    const g = functionView(typed, questionView(q, new Set()), new Map());
    expect(values(assignLearned(g, scored(g, ["abstractness", "declObject"]), undefined))).toEqual({ left: ["abstractness"] });
  });

  it("offers a number parameter the named constants a question writes only where it states no number (unless constants are off)", () => {
    const kind = paramKind({ type: "integer" });
    const v = questionView("a suspend policy of EVENT_THREAD or `EventRequest.SUSPEND_ALL`, not Event_thread", new Set());
    expect(candidatesFor(v, kind).map((c) => c.value)).toEqual(["EVENT_THREAD", "EventRequest.SUSPEND_ALL"]);
    expect(candidatesFor({ ...v, constants: false }, kind)).toEqual([]);
    const stated = questionView("page 3 with policy EVENT_THREAD", new Set());
    expect(candidatesFor(stated, kind).map((c) => c.value)).toEqual([3]);
  });

  it("reads a quote mark that opens a quoted text after a span as no boundary of the span (unless quoteBounds is off)", () => {
    const t = tool("resolve", { reference: {} }, ["reference"]);
    const q = "resolve a reference named 'USERSPACE1' now";
    const f = functionView(t, questionView(q, new Set()), new Map());
    const named = f.params[0]!.candidates.find((c) => c.value === "named")!;
    expect(pairFeatures(f, f.params[0]!, named)[23]).toBe(0);
    const quoted = f.params[0]!.candidates.find((c) => c.value === "USERSPACE1")!;
    expect([pairFeatures(f, f.params[0]!, quoted)[22], pairFeatures(f, f.params[0]!, quoted)[23]]).toEqual([1, 1]);
    const off = functionView(t, { ...questionView(q, new Set()), quoteBounds: false }, new Map());
    expect(pairFeatures(off, off.params[0]!, named)[23]).toBe(1);
  });

  it("fills an object parameter that declares properties property by property, and puts the object back together", () => {
    const t = tool(
      "createAuthToken",
      {
        username: { type: "string" },
        options: {
          type: "object",
          properties: { issuer: { type: "string" }, role: { type: "string" } },
          required: ["role"],
        },
        extra: { type: "object" },
      },
      ["username", "options"],
    );
    const flat = flattenTool(t);
    expect(Object.keys(flat.function.parameters.properties ?? {})).toEqual(["username", "options.issuer", "options.role", "extra"]);
    expect(flat.function.parameters.required).toEqual(["username", "options.role"]);
    expect(nestArguments(t, { username: "jo", "options.role": "admin", "options.issuer": "me" })).toEqual({
      username: "jo",
      options: { role: "admin", issuer: "me" },
    });
    // a tool without such a parameter, or whose names already hold the separator, is left as it is
    const plain = tool("f", { "a.b": { type: "string" }, c: { type: "object", properties: { d: { type: "string" } } } });
    expect(flattenTool(plain)).toBe(plain);
  });

  it("counts a flag's name written beside a negating word for false, under a language policy (none: as any mention)", () => {
    const t = tool("setContents", { keepHistory: { type: "boolean" }, ensureNoSelfReferences: { type: "boolean" }, writeStartAndEndHeaders: { type: "boolean" } });
    const q = "save it so that history is not kept, with no self-references and with headers";
    const on = functionView(t, { ...questionView(q, new Set(["and"])), negations: ENGLISH_NEGATIONS }, new Map());
    const cover = (f: typeof on, name: string, value: boolean) => {
      const p = f.params.find((k) => k.name === name)!;
      return pairFeatures(f, p, p.candidates.find((c) => c.value === value)!)[29];
    };
    expect([cover(on, "keepHistory", true), cover(on, "keepHistory", false)]).toEqual([0, 0.5]);
    // a name that holds the negation itself is said as it is; "and" beside "no" mentions no flag
    expect(cover(on, "ensureNoSelfReferences", true)).toBeGreaterThan(0);
    expect(cover(on, "writeStartAndEndHeaders", true)).toBeGreaterThan(0);
    const off = functionView(t, questionView(q, new Set(["and"])), new Map());
    expect([cover(off, "keepHistory", true), cover(off, "keepHistory", false)]).toEqual([0.5, 0]);
  });

  it("closes a quoted text that ends with a quoted word of its own at both marks (unless doubled is off)", () => {
    const q = "the source 'SELECT * FROM t WHERE status = 'active'' now";
    expect(quotedSpans(q, tokenize(q)).map((s) => s.text)).toEqual(["SELECT * FROM t WHERE status = 'active'"]);
    expect(quotedSpans(q, tokenize(q), false).map((s) => s.text)).toEqual(["SELECT * FROM t WHERE status = 'active"]);
  });

  it("stems a dotted name as a whole (unless dotted is off)", () => {
    expect(tokenize("check domain.com now").map((t) => t.stem)).toEqual(["check", "domain.com", "now"]);
    expect(tokenize("check domain.com now", false).map((t) => t.stem)).toEqual(["check", "domai", "now"]);
  });
});
