import { SegmentSink, type SegmentContext, type SegmentResult } from "./segments.ts";

/**
 * Hermes-2-Pro / Qwen2.5: `<tool_call>\n{"name": …, "arguments": {…}}\n</tool_call>`, any number of them,
 * with free text around. A block left open at the end (the model hit a stop or length limit) is still read
 * and flagged repaired.
 */
const OPEN = "<tool_call>";
const CLOSE = "</tool_call>";

export function segmentHermes(text: string, context: SegmentContext): SegmentResult {
  const sink = new SegmentSink("hermes", context.offset);
  let pos = 0;
  for (;;) {
    const open = text.indexOf(OPEN, pos);
    if (open < 0) return sink.result(sink.trailingText(text, pos, context.final, [OPEN]));
    sink.text(text.slice(pos, open));
    const bodyStart = open + OPEN.length;
    const close = text.indexOf(CLOSE, bodyStart);
    if (close < 0) {
      if (!context.final) return sink.result(open);
      const body = text.slice(bodyStart);
      if (body.trim() === "")
        sink.error("malformed_call", "<tool_call> with nothing after it", open, text.slice(open));
      else sink.jsonCalls(body, bodyStart, true);
      return sink.result(text.length);
    }
    const body = text.slice(bodyStart, close);
    if (body.trim() === "") sink.error("malformed_call", "empty <tool_call></tool_call> block", open, body);
    else sink.jsonCalls(body, bodyStart, false);
    pos = close + CLOSE.length;
  }
}
