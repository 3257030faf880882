/**
 * A reply that is either free text or, when it opens with `{`, one tool call under a schema constraint (the
 * built-in model's toolChoice "auto"). While the reply is only whitespace the choice is open: a token that
 * the constraint accepts from its start commits to the call; any other token that does not open an object
 * commits to text; tokens that would open an object outside the constraint are masked.
 */
import type { TokenConstraint } from "./token-mask.ts";

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

export class ToolCallOrText {
  private mode: "open" | "call" | "text" = "open";
  /** Ids whose first non-blank byte is "{" (masked while open unless the constraint takes them). */
  private readonly opensObject = new Set<number>();
  private readonly blank = new Set<number>();

  constructor(
    private readonly constraint: TokenConstraint,
    private readonly vocabSize: number,
  ) {
    const { bytes } = constraint.vocab;
    bytes.forEach((b, id) => {
      if (!b) return;
      const i = b.findIndex((x) => !WHITESPACE.has(x));
      if (i < 0) this.blank.add(id);
      else if (b[i] === 0x7b) this.opensObject.add(id);
    });
  }

  /** "call" once the reply has opened a tool call. */
  get decided(): "open" | "call" | "text" {
    return this.mode;
  }

  /** The allowed ids, or undefined for free decoding. */
  allowed(tokensLeft: number): readonly number[] | undefined {
    if (this.mode === "text") return undefined;
    if (this.mode === "call") return this.constraint.allowed(tokensLeft);
    const fits = this.constraint.bytesToComplete <= tokensLeft;
    const call = new Set(fits ? this.constraint.allowed(tokensLeft) : []);
    const out: number[] = [];
    for (let id = 0; id < this.vocabSize; id++) if (!this.opensObject.has(id) || call.has(id)) out.push(id);
    return out;
  }

  accept(id: number): void {
    if (this.mode === "call") this.constraint.accept(id);
    else if (this.mode === "open" && !this.blank.has(id)) {
      if (this.opensObject.has(id)) {
        this.constraint.accept(id);
        this.mode = "call";
      } else this.mode = "text";
    }
  }
}
