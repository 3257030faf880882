import { describe, expect, it } from "vitest";
import { SseParser } from "../../src/models/sse.ts";

describe("SseParser", () => {
  const stream =
    'data: {"a":1}\n\n: keep-alive\n\nevent: note\ndata: line one\ndata: line two\nid: 7\n\ndata: [DONE]\n\n';

  it("gives the same events whatever the cut, including between \\r and \\n", () => {
    const expected = [
      { event: "message", data: '{"a":1}' },
      { event: "note", data: "line one\nline two", id: "7" },
      // The last event id carries over to later events, as the spec says.
      { event: "message", data: "[DONE]", id: "7" },
    ];
    for (const text of [stream, stream.replaceAll("\n", "\r\n"), stream.replaceAll("\n", "\r")]) {
      for (let size = 1; size <= text.length; size += 3) {
        const parser = new SseParser();
        const events = [];
        for (let i = 0; i < text.length; i += size) events.push(...parser.push(text.slice(i, i + size)));
        events.push(...parser.end());
        expect(events).toEqual(expected);
      }
    }
  });

  it("returns a last event that lacks its blank line, and ignores blocks without data", () => {
    const parser = new SseParser();
    expect(parser.push("event: x\n\ndata:no-space")).toEqual([]);
    expect(parser.end()).toEqual([{ event: "message", data: "no-space" }]);
  });
});
