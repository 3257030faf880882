import { ACTION_LINE, segmentReact } from "./react.ts";
import { withoutEndTokens } from "./segments.ts";
import type { ParsedToolCall, ToolCallParseError } from "./types.ts";

/**
 * One ReAct step as an agent needs it: the thought, then either the first action (with its input) or the
 * final answer. Whichever of Action and Final Answer comes first wins, as in LangChain's ReAct parser.
 * Anything the model wrote after its action (an invented `Observation:`) is reported, not used.
 */
export type ReactStep =
  | { kind: "action"; thought?: string; action: ParsedToolCall; hallucinatedObservation: boolean }
  | { kind: "final"; thought?: string; finalAnswer: string }
  | { kind: "invalid"; thought?: string; error: ToolCallParseError };

const FINAL_ANSWER = /^[ \t]*Final[ \t]*Answer[ \t]*:[ \t]*/m;
const THOUGHT = /^[ \t]*Thought[ \t]*\d*[ \t]*:[ \t]*/m;
const OBSERVATION = /^[ \t]*Observation[ \t]*\d*[ \t]*:/m;

export function parseReactStep(output: string): ReactStep {
  const text = withoutEndTokens(output);
  ACTION_LINE.lastIndex = 0;
  const action = ACTION_LINE.exec(text);
  const final = FINAL_ANSWER.exec(text);
  const actionAt = action ? action.index : Infinity;
  const finalAt = final ? final.index : Infinity;
  const thought = readThought(text, Math.min(actionAt, finalAt, text.length));

  if (final && finalAt < actionAt) {
    return { kind: "final", ...thought, finalAnswer: text.slice(finalAt + final[0].length).trim() };
  }
  if (!action) {
    return {
      kind: "invalid",
      ...thought,
      error: {
        code: "no_action",
        format: "react",
        message: 'expected "Action:" with "Action Input:", or "Final Answer:"',
        offset: 0,
        raw: text.slice(0, 200),
      },
    };
  }
  const { segments } = segmentReact(text.slice(actionAt), {
    final: true,
    afterCall: false,
    offset: actionAt,
    lineStart: true,
  });
  for (const segment of segments) {
    if (segment.kind === "error") return { kind: "invalid", ...thought, error: segment.error };
    if (segment.kind === "call") {
      const hallucinatedObservation = OBSERVATION.test(text.slice(actionAt));
      return { kind: "action", ...thought, action: segment.call, hallucinatedObservation };
    }
  }
  // segmentReact always yields a call or an error for an Action line; this keeps the type total.
  return {
    kind: "invalid",
    ...thought,
    error: { code: "internal", format: "react", message: "no action parsed", offset: actionAt, raw: "" },
  };
}

function readThought(text: string, end: number): { thought?: string } {
  const head = text.slice(0, end);
  const label = THOUGHT.exec(head);
  // The prompt usually ends with "Thought:", so the model's reply often starts with the thought itself.
  const thought = (label ? head.slice(label.index + label[0].length) : head).trim();
  return thought === "" ? {} : { thought };
}
