import { scanBalanced } from "./json.ts";
import { SegmentSink, type SegmentContext, type SegmentResult } from "./segments.ts";

/**
 * Mistral tool calls, both generations:
 * - v3 tokenizers: `[TOOL_CALLS] [{"name": …, "arguments": {…}, "id": "abcDEF123"}, …]`
 * - v11+ tokenizers: `[TOOL_CALLS]name[ARGS]{…}` (optionally `[CALL_ID]id` before `[ARGS]`), repeated per call.
 * Text before the marker is kept.
 */
const MARKER = "[TOOL_CALLS]";
const ARGS = "[ARGS]";
const CALL_ID = "[CALL_ID]";

export function segmentMistral(text: string, context: SegmentContext): SegmentResult {
  const sink = new SegmentSink("mistral", context.offset);
  let pos = 0;
  for (;;) {
    const marker = text.indexOf(MARKER, pos);
    if (marker < 0) return sink.result(sink.trailingText(text, pos, context.final, [MARKER]));
    sink.text(text.slice(pos, marker));
    const after = marker + MARKER.length;
    const first = text.slice(after).search(/\S/);
    if (first < 0) {
      if (!context.final) return sink.result(marker);
      sink.error("malformed_call", "[TOOL_CALLS] with nothing after it", marker, text.slice(marker));
      return sink.result(text.length);
    }
    const bodyStart = after + first;
    if (text[bodyStart] === "[" || text[bodyStart] === "{") {
      const end = scanBalanced(text, bodyStart);
      if (end < 0) {
        if (!context.final) return sink.result(marker);
        sink.jsonCalls(text.slice(bodyStart), bodyStart, true);
        return sink.result(text.length);
      }
      sink.jsonCalls(text.slice(bodyStart, end), bodyStart, false);
      pos = end;
      continue;
    }
    const next = segmentNamedCall(text, marker, after, context.final, sink);
    if (next < 0) return sink.result(marker);
    pos = next;
  }
}

/** `name[CALL_ID]id[ARGS]{…}` after the marker; returns where it ends, or -1 to wait for more text. */
function segmentNamedCall(
  text: string,
  marker: number,
  after: number,
  final: boolean,
  sink: SegmentSink,
): number {
  const argsAt = text.indexOf(ARGS, after);
  const nextMarker = text.indexOf(MARKER, after);
  const headEnd = argsAt < 0 || (nextMarker >= 0 && nextMarker < argsAt) ? -1 : argsAt;
  if (headEnd < 0) {
    // The error runs to the next marker or the end, so while streaming it waits for one of them.
    if (!final && nextMarker < 0) return -1;
    const end = nextMarker >= 0 ? nextMarker : text.length;
    sink.error(
      "malformed_call",
      "[TOOL_CALLS] must be followed by a JSON list or name[ARGS]{…}",
      marker,
      text.slice(marker, end),
    );
    return end;
  }
  const head = text.slice(after, headEnd);
  const idAt = head.indexOf(CALL_ID);
  const name = (idAt < 0 ? head : head.slice(0, idAt)).trim();
  const id = idAt < 0 ? undefined : head.slice(idAt + CALL_ID.length).trim();
  const argsStart = headEnd + ARGS.length;
  const first = text.slice(argsStart).search(/\S/);
  if (first < 0 && !final) return -1;
  const bodyStart = first < 0 ? text.length : argsStart + first;
  let end = text[bodyStart] === "{" ? scanBalanced(text, bodyStart) : bodyStart;
  let repaired = false;
  if (end < 0) {
    if (!final) return -1;
    end = text.length;
    repaired = true;
  }
  if (name === "") {
    sink.error(
      "missing_name",
      "[TOOL_CALLS] without a function name before [ARGS]",
      marker,
      text.slice(marker, end),
    );
    return end;
  }
  if (end === bodyStart) {
    const following = text.indexOf(MARKER, argsStart);
    if (following < 0 && !final) return -1;
    const stop = following < 0 ? text.length : following;
    const message = `arguments of ${name} after [ARGS] must be a JSON object`;
    sink.error("invalid_arguments", message, argsStart, text.slice(argsStart, stop));
    return stop;
  }
  // The arguments travel as a string so callFromObject repairs them and keeps them as written.
  const call = { name, arguments: text.slice(bodyStart, end), ...(id ? { id } : {}) };
  sink.jsonCalls(JSON.stringify(call), bodyStart, repaired);
  return end;
}
