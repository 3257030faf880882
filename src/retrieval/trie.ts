import { ToolgenError } from "../errors.ts";

/**
 * A trie of valid id token sequences (ToolGen App. C): every node maps a token id to the nodes that may follow
 * it, and a node that completes a sequence carries the catalog id it stands for. Constrained decoding asks the
 * trie which tokens may come next after the tokens generated so far.
 *
 * Sequences must be prefix-free (a complete id may not continue into another one); callers make them so by
 * ending every sequence with an end token. Inserting a sequence that breaks this rule throws.
 */
interface TrieNode {
  children: Map<number, TrieNode>;
  value?: string;
}

function newNode(): TrieNode {
  return { children: new Map() };
}

export class TokenTrie {
  private readonly root: TrieNode = newNode();
  private count = 0;
  private depth = 0;

  /** Builds a trie from (catalog id, token sequence) pairs. */
  static from(entries: Iterable<readonly [string, readonly number[]]>): TokenTrie {
    const trie = new TokenTrie();
    for (const [value, tokens] of entries) trie.insert(tokens, value);
    return trie;
  }

  /** The number of complete sequences. */
  get size(): number {
    return this.count;
  }

  /** The length of the longest sequence. */
  get maxDepth(): number {
    return this.depth;
  }

  insert(tokens: readonly number[], value: string): void {
    if (tokens.length === 0)
      throw new ToolgenError("invalid_input", `TokenTrie: the token sequence of "${value}" is empty`);
    let node = this.root;
    for (const token of tokens) {
      if (!Number.isInteger(token) || token < 0) {
        throw new ToolgenError(
          "invalid_input",
          `TokenTrie: token ${token} of "${value}" is not a non-negative integer`,
        );
      }
      if (node.value !== undefined) {
        throw new ToolgenError(
          "invalid_input",
          `TokenTrie: "${node.value}" is a prefix of "${value}"; end every sequence with an end token`,
        );
      }
      let next = node.children.get(token);
      if (!next) {
        next = newNode();
        node.children.set(token, next);
      }
      node = next;
    }
    if (node.value !== undefined) {
      throw new ToolgenError(
        "invalid_input",
        `TokenTrie: "${value}" and "${node.value}" have the same token sequence`,
      );
    }
    if (node.children.size > 0) {
      throw new ToolgenError(
        "invalid_input",
        `TokenTrie: "${value}" is a prefix of another id; end every sequence with an end token`,
      );
    }
    node.value = value;
    this.count++;
    this.depth = Math.max(this.depth, tokens.length);
  }

  private walk(prefix: readonly number[]): TrieNode | undefined {
    let node: TrieNode | undefined = this.root;
    for (const token of prefix) {
      node = node.children.get(token);
      if (!node) return undefined;
    }
    return node;
  }

  /** The tokens allowed after `prefix`; empty when the prefix is complete or not in the trie. */
  next(prefix: readonly number[]): number[] {
    const node = this.walk(prefix);
    return node ? [...node.children.keys()] : [];
  }

  /** The catalog id that `tokens` completes, or undefined. */
  valueOf(tokens: readonly number[]): string | undefined {
    return this.walk(tokens)?.value;
  }

  /** Whether `prefix` leads somewhere in the trie (a complete id or a proper prefix of one). */
  hasPrefix(prefix: readonly number[]): boolean {
    return this.walk(prefix) !== undefined;
  }

  /** Every (id, tokens) pair, in insertion order of the first tokens. */
  *entries(): Generator<[string, number[]]> {
    const stack: Array<[TrieNode, number[]]> = [[this.root, []]];
    while (stack.length > 0) {
      const [node, path] = stack.pop()!;
      if (node.value !== undefined) yield [node.value, path];
      const kids = [...node.children.entries()].reverse();
      for (const [token, child] of kids) stack.push([child, [...path, token]]);
    }
  }
}
