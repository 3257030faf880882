/**
 * The function caller's "another call?" bias. In a reply (`[{"name":…,"parameters":{…}},{…}]`) the choice
 * between another call and the end of the list is one token that also closes the last argument (`"}},{"` or
 * `"}}]` in a byte-level BPE), and the end follows nearly every training reply, so a small model stops after one
 * call even where its own kind of question asks for several. This adds `bias` to the logits of the tokens that
 * would start another call after at least one call is complete (a `,` at the list's own level), and nothing else:
 * a decision threshold, not knowledge of any language or tool. It is chosen on synth questions, never on BFCL.
 */

interface LogitsSource {
  append(ids: readonly number[]): Float32Array;
}

/** Where a JSON reply text stands: nesting depth, inside a string or not, calls completed. */
interface ScanState {
  depth: number;
  inString: boolean;
  escaped: boolean;
  callsDone: number;
}

/** Whether `text`, read from `state`, writes a `,` at the list's level after a completed call (and the state after). */
function scan(state: ScanState, text: string): { next: ScanState; continues: boolean } {
  let { depth, inString, escaped, callsDone } = state;
  let continues = false;
  for (const ch of text) {
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "[" || ch === "{") depth++;
    else if (ch === "]" || ch === "}") {
      depth--;
      if (depth === 1) callsDone++;
    } else if (ch === "," && depth === 1 && callsDone > 0) continues = true;
  }
  return { next: { depth, inString, escaped, callsDone }, continues };
}

/**
 * `session` with `bias` added to the tokens that would start another call. The first `append` is the prompt
 * (not scanned); every later one is a reply token. `tokenTexts[id]` is the token's text.
 */
export function withContinueBias(
  session: LogitsSource,
  tokenTexts: readonly string[],
  bias: number,
): LogitsSource {
  // only tokens holding a comma can continue the list
  const candidates = tokenTexts.flatMap((t, id) => (t.includes(",") ? [id] : []));
  let state: ScanState = { depth: 0, inString: false, escaped: false, callsDone: 0 };
  let prompt = true;
  return {
    append(ids) {
      const logits = session.append(ids);
      if (prompt) prompt = false;
      else for (const id of ids) state = scan(state, tokenTexts[id] ?? "").next;
      if (bias !== 0) for (const id of candidates) if (scan(state, tokenTexts[id]!).continues) logits[id]! += bias;
      return logits;
    },
  };
}
