import { ToolgenError } from "../../errors.ts";

/**
 * Finds added tokens (chat markers, tool tokens) in text so they are never split by BPE: the leftmost match
 * wins, and at one position the longest token wins (as in Hugging Face tokenizers and llama.cpp).
 */
interface TrieNode {
  next: Map<string, TrieNode>;
  /** Token id when a token ends here. */
  id: number;
}

function node(): TrieNode {
  return { next: new Map(), id: -1 };
}

/** A piece of text: either plain text for BPE, or one added token. */
export type Segment = { text: string; id: -1 } | { text: string; id: number };

export class AddedTokenMatcher {
  private readonly root: TrieNode = node();
  private size = 0;

  add(content: string, id: number): void {
    if (content === "") throw new ToolgenError("invalid_input", "an added token cannot be the empty string");
    let cur = this.root;
    // Code units, not code points, so that matching walks the string the same way.
    for (let k = 0; k < content.length; k++) {
      const ch = content[k]!;
      let nxt = cur.next.get(ch);
      if (!nxt) {
        nxt = node();
        cur.next.set(ch, nxt);
      }
      cur = nxt;
    }
    if (cur.id === -1) this.size++;
    cur.id = id;
  }

  get count(): number {
    return this.size;
  }

  /** Splits text at added tokens; `accept(id)` can refuse a token (e.g. special tokens in user text). */
  split(text: string, accept: (id: number) => boolean = () => true): Segment[] {
    if (this.size === 0) return text === "" ? [] : [{ text, id: -1 }];
    const out: Segment[] = [];
    let plainStart = 0;
    let i = 0;
    while (i < text.length) {
      const first = this.root.next.get(text[i]!);
      let matchEnd = -1;
      let matchId = -1;
      if (first) {
        let cur: TrieNode | undefined = first;
        let j = i + 1;
        while (cur) {
          if (cur.id !== -1 && accept(cur.id)) {
            matchEnd = j;
            matchId = cur.id;
          }
          if (j >= text.length) break;
          cur = cur.next.get(text[j]!);
          j++;
        }
      }
      if (matchId === -1) {
        i++;
        continue;
      }
      if (plainStart < i) out.push({ text: text.slice(plainStart, i), id: -1 });
      out.push({ text: text.slice(i, matchEnd), id: matchId });
      i = matchEnd;
      plainStart = i;
    }
    if (plainStart < text.length) out.push({ text: text.slice(plainStart), id: -1 });
    return out;
  }
}
