/**
 * A trie over byte strings with a cost per entry: each node knows the fewest bytes (plus the entry's own
 * tail cost) that lead from it to the end of an entry, which the automaton needs to keep a completion in reach.
 */
export class ByteTrie {
  readonly children = new Map<number, ByteTrie>();
  /** Index of the entry that ends here, or -1. Entries never end where another continues in our uses. */
  entry = -1;
  /** Fewest bytes from here to an entry's end, plus that entry's tail cost. */
  minRest = Infinity;

  static build(entries: readonly Uint8Array[], tailCost: (entry: number) => number = () => 0): ByteTrie {
    const root = new ByteTrie();
    entries.forEach((bytes, index) => {
      let node = root;
      for (const b of bytes) {
        let next = node.children.get(b);
        if (!next) node.children.set(b, (next = new ByteTrie()));
        node = next;
      }
      if (node.entry === -1) node.entry = index;
    });
    root.settle(tailCost);
    return root;
  }

  get terminal(): boolean {
    return this.entry !== -1;
  }

  private settle(tailCost: (entry: number) => number): number {
    let best = this.entry !== -1 ? tailCost(this.entry) : Infinity;
    for (const child of this.children.values()) best = Math.min(best, 1 + child.settle(tailCost));
    this.minRest = best;
    return best;
  }
}

const utf8 = new TextEncoder();

export function utf8Bytes(text: string): Uint8Array {
  return utf8.encode(text);
}
