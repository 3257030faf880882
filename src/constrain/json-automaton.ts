/**
 * A byte-level automaton for the compact JSON a schema accepts: given the bytes so far, which next bytes are
 * allowed, is the text complete, and how many more bytes a completion needs at least. Bytes rather than
 * characters because BPE tokens are byte strings and may split a UTF-8 character; strings are checked to be
 * valid UTF-8 all the same.
 *
 * Output form (what `JSON.stringify` writes): no whitespace outside strings; the required properties of an
 * object, then any of its optional ones, each group in schema order (see schema-node.ts), no other keys;
 * numbers within the schema's bounds (number-range.ts), without exponent, at most 16 integer and 16 fraction
 * digits; `\u` escapes outside the surrogate range. Strings, arrays and free-form objects are bounded (the
 * schema's maxLength / maxItems, else the options' defaults), and free values (`{}`, no type) nest at most
 * `anyDepth` deep, so every run ends.
 *
 * A state is a set of stacks (unions are followed in parallel, like an NFA); each stack is a linked list of
 * immutable frames, so stepping never copies more than the top frame and states can be shared freely.
 */
import type { JsonSchema } from "../tools/types.ts";
import { ByteTrie, utf8Bytes } from "./byte-trie.ts";
import { continuationBytes, COPY_ESCAPES, type CopySource, wholeWithin } from "./copy.ts";
import { nameWords } from "./name-words.ts";
import { boundsEmpty, NumberRange } from "./number-range.ts";
import {
  MAX_FRACTION_DIGITS,
  MAX_INTEGER_DIGITS,
  normaliseSchema,
  type NumberBounds,
  type SchemaNode,
} from "./schema-node.ts";
import { ToolgenError } from "../errors.ts";

export interface AutomatonOptions {
  /** Characters of a string whose schema has no maxLength (default 256). */
  maxStringLength?: number;
  /** Items of an array whose schema has no maxItems (default 16). */
  maxItems?: number;
  /** Properties of a free-form object (default 8), each key at most 32 characters. */
  maxProperties?: number;
  /** How deep a value without a schema (`{}`, no type) may nest arrays and objects (default 3). */
  anyDepth?: number;
  /**
   * Copy constraint (copy.ts): string leaves may only spell a non-empty substring of these texts outside quotes
   * or a quoted span whole, number and integer leaves only a number they state (or its negation). Enums and
   * consts are kept as they are; a leaf with nothing to copy (no number within its bounds, no substring long
   * enough for its minLength) stays free.
   */
  copy?: CopySource;
}

const enum K {
  End,
  Lit,
  Str,
  Num,
  Arr,
  Obj,
  Map,
  Union,
  Copy,
}

// String phases
const S_OPEN = 0;
const S_BODY = 1;
const S_ESC = 2;
const S_HEX = 3;
const S_UTF8 = 4;
// Number phases
const N_START = 0;
const N_MINUS = 1;
const N_ZERO = 2;
const N_INT = 3;
const N_DOT = 4;
const N_FRAC = 5;
// Array, object and map phases
const C_OPEN = 0;
const C_FIRST = 1; // after "[" or "{"
const C_AFTER = 2; // after an item or a property value
const C_KEY = 3; // object: inside `"key":`
const C_COLON = 4; // map: after a key

const Q = 0x22; // "
const BS = 0x5c; // \
/** The bytes a backslash may escape besides `u`: " \ / b f n r t. */
const ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

let nextId = 1;

interface LitNode {
  k: K.Lit;
  id: number;
  min: number;
  trie: ByteTrie;
  /**
   * Under the copy constraint: a number leaf's stated numbers, or a string enum's values, which a value spends
   * (see StatedNumbers).
   */
  stated?: StatedNumbers;
}
/**
 * The values a leaf may take when writing one spends it. A stated number is spent each time it is written, as
 * often as the texts state it: a later leaf takes the numbers not yet spent, or any of its own when all of those
 * are ("six by seven" gives 6 and 7, not 6 and 6; "5 times 5" and "6d6" give 5 and 5, 6 and 6). A string enum's
 * value is spent once written: a later leaf with that value among its own takes another while one is left
 * ("5 km to miles" never converts km to km; a distance is between two cities). Variant i is the trie of one
 * such choice, `masks` each entry's bits in the spent set.
 */
interface StatedNumbers {
  values: (number | string)[];
  /**
   * Each value's bits in the spent set: one per time a number is stated, one per enum value (none past 31 in
   * all: never spent).
   */
  masks: number[];
  variants: { trie: ByteTrie; masks: number[] }[];
  variantByValues: Map<string, number>;
  /** An enum's values the question writes out: taken first while one is unspent. */
  preferred?: boolean[];
  /**
   * Where the question first writes each value (text index × 2³² + offset): of the unspent preferred values,
   * only those written earliest are taken (names written at one place start together).
   */
  firstPlace?: number[];
}
interface StrNode {
  k: K.Str;
  id: number;
  min: number;
  minLength: number;
  maxLength: number;
}
interface NumNode {
  k: K.Num;
  id: number;
  min: number;
  integer: boolean;
  range: NumberRange;
}
interface ArrNode {
  k: K.Arr;
  id: number;
  min: number;
  items: CNode;
  minItems: number;
  maxItems: number;
}
interface ObjProp {
  key: Uint8Array; // `"key":`
  required: boolean;
  value: CNode;
}
interface ObjNode {
  k: K.Obj;
  id: number;
  min: number;
  props: ObjProp[];
  /** Key tries by the index of the first property still allowed (built on first use, after `min`s settle). */
  keyTries: (ByteTrie | undefined)[];
  /** Once sizes settle: bytes that close the object from property i, before [0] / after [1] a first one. */
  closing: [number[], number[]] | undefined;
  /** requiredFrom[i]: a required property remains at index ≥ i. */
  requiredFrom: boolean[];
}
interface MapNode {
  k: K.Map;
  id: number;
  min: number;
  values: CNode;
  key: StrNode;
  maxProperties: number;
}
interface UnionNode {
  k: K.Union;
  id: number;
  min: number;
  options: CNode[];
  /**
   * A string leaf under quotesFirst: its copy option opens only while the quoted spans not yet written (of these
   * bits) are no more than the required string properties after it (`reserve`), which must then take them;
   * its spans option closes once all of them are written.
   */
  gate?: { option: CNode; spansOption: CNode; spans: number; reserve: number };
}
/** A string copied from the copy source: x holds the source's state, v the continuation bytes owed. */
interface CopyNode {
  k: K.Copy;
  id: number;
  min: number;
  source: CopySource;
  /** Characters at least (1 or more: an empty string copies nothing) and at most. */
  minChars: number;
  maxLength: number;
}
type CNode = LitNode | StrNode | NumNode | ArrNode | ObjNode | MapNode | UnionNode | CopyNode;

/** One level of a stack. `parent` is the enclosing container in the phase it resumes in. */
class Frame {
  /** Fewest bytes the enclosing containers need once this frame is done. */
  readonly rest: number;
  constructor(
    readonly kind: K,
    readonly node: CNode | null,
    readonly parent: Frame | null,
    readonly phase: number,
    readonly n: number,
    readonly x: number,
    readonly trie: ByteTrie | null,
    /** Fewest bytes that finish this frame. */
    readonly local: number,
    /** Numbers: the integer part's value so far. */
    readonly v = 0,
    /** The stated numbers spent so far (a bit set: see StatedNumbers), carried along the whole stack. */
    readonly used = 0,
  ) {
    this.rest = parent === null ? 0 : parent.local + parent.rest;
  }
}

const END = new Frame(K.End, null, null, 0, 0, 0, null, 0);

/** An automaton state: the stacks still alive. Opaque outside this module. */
export type AutomatonState = readonly Frame[];

function isDigit(b: number): boolean {
  return b >= 0x30 && b <= 0x39;
}

function hexValue(b: number): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  if (b >= 0x61 && b <= 0x66) return b - 0x61 + 10;
  if (b >= 0x41 && b <= 0x46) return b - 0x41 + 10;
  return -1;
}

export class JsonSchemaAutomaton {
  private readonly root: CNode;
  private readonly nodes: CNode[] = [];
  private readonly anyByDepth = new Map<number, CNode>();
  private readonly maxStringLength: number;
  private readonly maxItems: number;
  private readonly maxProperties: number;
  private readonly anyDepth: number;
  private readonly copy: CopySource | undefined;
  /** The number properties of the object being compiled (a number leaf leaves theirs to them). */
  private numberSiblings: string[] = [];
  private spendMasks: Map<number, number> | undefined;
  private readonly enumMasks = new Map<string, number>();
  private nextBit = 0;
  private readonly keyNode: StrNode;
  private readonly initial: AutomatonState;

  /** From a JSON Schema (see `normaliseSchema` for the keywords read). */
  static fromSchema(schema: JsonSchema, options: AutomatonOptions = {}): JsonSchemaAutomaton {
    return new JsonSchemaAutomaton(normaliseSchema(schema), options);
  }

  constructor(node: SchemaNode, options: AutomatonOptions = {}) {
    this.maxStringLength = options.maxStringLength ?? 256;
    this.maxItems = options.maxItems ?? 16;
    this.maxProperties = options.maxProperties ?? 8;
    this.anyDepth = options.anyDepth ?? 3;
    this.copy = options.copy;
    this.keyNode = this.add<StrNode>({ k: K.Str, id: 0, min: 2, minLength: 0, maxLength: 32 });
    this.root = this.compile(node, new Map());
    this.settleMinimums();
    if (!Number.isFinite(this.root.min))
      throw new ToolgenError("invalid_input", "the schema accepts no finite JSON value");
    for (const node of this.nodes) {
      if (node.k !== K.Obj) continue;
      const at = (first: boolean) => node.props.map((_, i) => this.objectLocal(node, i, first)).concat(1);
      node.closing = [at(true), at(false)];
    }
    const start: Frame[] = [];
    this.enter(this.root, null, start);
    this.initial = start;
  }

  /** The state before any byte. */
  start(): AutomatonState {
    return this.initial;
  }

  /** The state after `byte`, or undefined when the byte is not allowed. */
  step(state: AutomatonState, byte: number): AutomatonState | undefined {
    const out: Frame[] = [];
    for (const f of state) this.consume(f, byte, out);
    if (out.length === 0) return undefined;
    return out.length === 1 ? out : dedupe(out);
  }

  /** The state after all of `bytes`, or undefined when one is not allowed. */
  stepBytes(state: AutomatonState, bytes: Uint8Array): AutomatonState | undefined {
    let s: AutomatonState | undefined = state;
    for (let i = 0; i < bytes.length && s; i++) s = this.step(s, bytes[i]!);
    return s;
  }

  /** True when the text so far is a whole value the schema accepts. */
  isComplete(state: AutomatonState): boolean {
    for (const f of state) if (f === END || (f.parent === null && accepting(f))) return true;
    return false;
  }

  /** Fewest bytes still needed for a complete value (0 when complete). */
  minBytesToComplete(state: AutomatonState): number {
    let best = Infinity;
    for (const f of state) {
      const need = f.parent === null && accepting(f) ? 0 : f.local + f.rest;
      if (need < best) best = need;
    }
    return best;
  }

  /**
   * When the state is inside one string's body (a single stack, no escape or character half written): the
   * characters it may still take, those it still owes to minLength, and the bytes the enclosing values need
   * after its closing quote. A token of plain text (token-vocabulary.ts) then only adds characters.
   */
  stringBody(state: AutomatonState): { room: number; owed: number; rest: number } | undefined {
    if (state.length !== 1) return undefined;
    const f = state[0]!;
    if (f.kind !== K.Str || f.phase !== S_BODY) return undefined;
    const node = f.node as StrNode;
    return { room: node.maxLength - f.n, owed: node.minLength - f.n, rest: f.rest };
  }

  /** A string that two states share exactly when they behave the same (for caching masks). */
  stateKey(state: AutomatonState): string {
    return state.map((f) => (f === END ? "end" : frameKey(f))).join("|");
  }

  /** Does the automaton accept exactly this text? (For tests and checks.) */
  accepts(text: string): boolean {
    const s = this.stepBytes(this.initial, utf8Bytes(text));
    return s !== undefined && this.isComplete(s);
  }

  // ---- compiling the normalised schema -------------------------------------------------------------------

  private add<T extends CNode>(node: T): T {
    node.id = nextId++;
    this.nodes.push(node);
    return node;
  }

  /**
   * `reserve`: for a string property, how many required string properties follow it in its object.
   * `afterNumber`: the property right before this one in its object is a number.
   * `name`: the property's name, when this is one.
   */
  private compile(
    node: SchemaNode,
    refs: Map<SchemaNode, UnionNode>,
    reserve = 0,
    afterNumber = false,
    name?: string,
  ): CNode {
    switch (node.kind) {
      case "literal": {
        if (this.copy && (node.range || node.values.every((v) => typeof v === "number"))) {
          // an integer range or a number enum is a number leaf: the numbers stated within it
          // a month (a number enum of exactly 1 to 12) is stated by its name too ("feb 2028")
          const month =
            this.copy.monthEnum && node.values.length === 12 && node.values.every((v, i) => v === i + 1);
          const stated = node.values.filter(
            (v) =>
              this.copy!.signedNumbers.includes(v as number) ||
              (month && this.copy!.months.includes(v as number)),
          );
          if (stated.length > 0 && stated.length < node.values.length) return this.stated(stated as number[]);
        }
        if (this.copy && node.values.length > 1 && node.values.every((v) => typeof v === "string")) {
          const values = node.values as string[];
          const places = values.map((v) => this.copy!.statedAt(v));
          const said = places.map((p) => p.length > 0);
          const leaf = this.stated(values, "enum", this.spendKeys(values, places));
          // A quantity's unit is written right after it ("119 feet to miles", "how many cups is 2 litres"), and
          // a schema lists the unit right after the quantity: such an enum takes the unit written after a number
          // first. Otherwise the values the question writes out come first.
          const unit = places.map((p) => afterNumber && p.some((place) => this.copy!.followsNumber(place)));
          const first = unit.some((u) => u) ? unit : said;
          // ... and in the order it writes them ("from Paris to New York", "in utc, what time is it in LA")
          if (first.some((s) => s) && !first.every((s) => s)) {
            leaf.stated!.preferred = first;
            leaf.stated!.firstPlace = places.map((p) =>
              p.length === 0 ? Infinity : Math.min(...p.map((q) => q.text * 2 ** 32 + q.start)),
            );
          }
          return leaf;
        }
        return this.literal(node.values);
      }
      case "boolean":
        return this.compile({ kind: "literal", values: [true, false] }, refs);
      case "null":
        return this.compile({ kind: "literal", values: [null] }, refs);
      case "string": {
        const maxLength = node.maxLength ?? Math.max(node.minLength, this.maxStringLength);
        if (this.copy) {
          const minChars = Math.max(1, node.minLength);
          const fits = (q: string) => {
            const chars = [...q].length;
            return chars >= minChars && chars <= maxLength;
          };
          // quoted spans and dates written out: each whole (under quotesFirst, each written once)
          const whole = [...new Set([...this.copy.quoted, ...this.copy.dates])].filter(fits);
          // a text copied only whole (cut at a word's end when longer than the leaf may be), beside the others
          const wholeTexts = [
            ...new Set(this.copy.wholeTexts.flatMap((t) => wholeWithin(t, maxLength) ?? [])),
          ].filter(fits);
          const wholeText = wholeTexts.length > 0 ? this.literal(wholeTexts) : undefined;
          // a quoted span whole (under quotesFirst, spent once written), or a copy of the text outside quotes
          const spans =
            whole.length === 0
              ? undefined
              : this.copy.quotesFirst
                ? this.stated(whole, "quote")
                : this.literal(whole);
          const words = nameWords(name);
          // a property that names a file takes a file name the question writes, when it writes any
          const files = this.copy.takesFileName(words) ? this.copy.fileNames.filter(fits) : [];
          if (files.length > 0)
            return this.copy.quotesFirst ? this.stated(files, "quote") : this.literal(files);
          // a property taking a date and time takes a date and a time written apart, joined (spending the date)
          const joined = this.copy.takesDateTime(words)
            ? this.copy.dateTimes.filter((d) => fits(d.value))
            : [];
          if (joined.length > 0) {
            const values = joined.map((d) => d.value);
            return this.copy.quotesFirst
              ? this.stated(
                  values,
                  "quote",
                  joined.map((d) => `quote:${d.date}`),
                )
              : this.literal(values);
          }
          // a quoted span written after the word the tool's description puts before this property's name first
          if (spans?.stated && words.length > 0) {
            const cued = new Set(this.copy.quotedAfterCue(words));
            const first = whole.map((q) => cued.has(q));
            if (first.some((c) => c) && !first.every((c) => c)) spans.stated.preferred = first;
          }
          const copied = this.copyString(this.copy, minChars, maxLength);
          const options: CNode[] = [spans, copied, wholeText].filter((o) => o !== undefined);
          if (spans && copied) {
            // under quotesFirst the copy opens only while later leaves can still take the spans left
            const bits = spans.stated?.masks.reduce((a, m) => a | m, 0) ?? 0;
            const gate =
              bits === 0 ? undefined : { option: copied, spansOption: spans, spans: bits, reserve };
            // each option's min is an upper bound of what it needs, so their largest holds whichever is open
            let min = gate ? Math.max(spans.min, copied.min) : Infinity;
            if (gate && wholeText) min = Math.min(min, wholeText.min);
            return this.add<UnionNode>({ k: K.Union, id: 0, min, options, gate });
          }
          if (options.length === 1) return options[0]!;
          if (options.length > 1) return this.add<UnionNode>({ k: K.Union, id: 0, min: Infinity, options });
        }
        return this.add<StrNode>({
          k: K.Str,
          id: 0,
          min: 2 + node.minLength,
          minLength: node.minLength,
          maxLength,
        });
      }
      case "number": {
        const stated = this.copy?.signedNumbers.filter((v) => numberFits(v, node.integer, node.bounds));
        if (stated && stated.length > 0) {
          const leaf = this.stated(stated);
          // a number written beside a word of the property's name first: "82 kg" for weight_kg, "seed 1405"
          const words = nameWords(name);
          const beside = new Set(words.length > 0 ? this.copy!.numbersBeside(words) : []);
          let first = stated.map((v) => beside.has(Math.abs(v)));
          if (!first.some((b) => b)) {
            // else not one written beside a sibling number property's name: "roll 4 four-sided dice, seed
            // 1405" leaves 1405 to the seed, not to the sides
            const claimed = new Set(
              this.numberSiblings
                .filter((k) => k !== name)
                .flatMap((k) => this.copy!.numbersBeside(nameWords(k))),
            );
            first = stated.map((v) => !claimed.has(Math.abs(v)));
          }
          if (first.some((b) => b) && !first.every((b) => b)) leaf.stated!.preferred = first;
          return leaf;
        }
        let range = new NumberRange(node.integer, node.bounds);
        // Bounds that only a fraction can meet (e.g. [0.2, 0.7]) are left to validation: see number-range.ts.
        if (range.shortest() === Infinity) {
          if (node.integer || boundsEmpty(node.bounds))
            throw new ToolgenError("invalid_input", "no number lies between the schema's bounds");
          range = new NumberRange(false, {});
        }
        return this.add<NumNode>({ k: K.Num, id: 0, min: range.shortest(), integer: node.integer, range });
      }
      case "array": {
        const maxItems = node.maxItems ?? Math.max(node.minItems, this.maxItems);
        const items = this.compile(node.items, refs);
        return this.add<ArrNode>({
          k: K.Arr,
          id: 0,
          min: Infinity,
          items,
          minItems: node.minItems,
          maxItems,
        });
      }
      case "object": {
        const stringAt = node.properties.map((p) => p.required && p.value.kind === "string");
        const outer = this.numberSiblings;
        this.numberSiblings = node.properties.filter((p) => p.value.kind === "number").map((p) => p.key);
        const props = node.properties.map((p, i) => ({
          key: utf8Bytes(JSON.stringify(p.key) + ":"),
          required: p.required,
          value: this.compile(
            p.value,
            refs,
            stringAt.slice(i + 1).filter((s) => s).length,
            node.properties[i - 1]?.value.kind === "number",
            p.key,
          ),
        }));
        this.numberSiblings = outer;
        const requiredFrom = props.map((_, i) => props.slice(i).some((p) => p.required));
        requiredFrom.push(false);
        return this.add<ObjNode>({
          k: K.Obj,
          id: 0,
          min: Infinity,
          props,
          keyTries: [],
          closing: undefined,
          requiredFrom,
        });
      }
      case "map":
        return this.add<MapNode>({
          k: K.Map,
          id: 0,
          min: 2,
          values: this.compile(node.values, refs),
          key: this.keyNode,
          maxProperties: this.maxProperties,
        });
      case "union":
        return this.add<UnionNode>({
          k: K.Union,
          id: 0,
          min: Infinity,
          options: node.options.map((o) => this.compile(o, refs)),
        });
      case "any":
        return this.any(this.anyDepth);
      case "ref": {
        // A one-option union stands for the ref, registered before its target is compiled (recursion).
        let u = refs.get(node);
        if (!u) {
          u = this.add<UnionNode>({ k: K.Union, id: 0, min: Infinity, options: [] });
          refs.set(node, u);
          u.options.push(this.compile(node.target(), refs));
        }
        return u;
      }
    }
  }

  /** A leaf that takes one of `values`. */
  private literal(values: readonly unknown[]): LitNode {
    const trie = ByteTrie.build(values.map((v) => utf8Bytes(JSON.stringify(v))));
    return this.add<LitNode>({ k: K.Lit, id: 0, min: trie.minRest, trie });
  }

  /**
   * A leaf that takes one of `values`, spending it (see StatedNumbers): stated numbers, or a string enum. Its
   * `min` is the longest value's length, an upper bound for every variant: sibling leaves spending values may
   * leave only the long ones.
   */
  private stated(
    values: number[] | string[],
    kind: "number" | "enum" | "quote" = "number",
    keys?: string[],
  ): LitNode {
    const masks = values.map((v, i) =>
      typeof v === "number" ? this.spendMask(Math.abs(v)) : this.enumMask(keys?.[i] ?? `${kind}:${v}`),
    );
    const trie = ByteTrie.build(values.map((v) => utf8Bytes(JSON.stringify(v))));
    const min = Math.max(...values.map((v) => JSON.stringify(v).length));
    return this.add<LitNode>({
      k: K.Lit,
      id: 0,
      min,
      trie,
      stated: { values, masks, variants: [{ trie, masks }], variantByValues: new Map() },
    });
  }

  /** The bits of number `v` in the spent set (see StatedNumbers), laid out in the order the texts state them. */
  private spendMask(v: number): number {
    if (!this.spendMasks) {
      this.spendMasks = new Map();
      let bit = 0;
      for (const [n, count] of this.copy!.mentions) {
        const take = Math.min(count, 31 - bit);
        this.spendMasks.set(n, take <= 0 ? 0 : ((1 << take) - 1) << bit);
        bit += Math.max(0, take);
      }
      this.nextBit = bit;
    }
    return this.spendMasks.get(v) ?? 0;
  }

  /**
   * What spends each enum value (its key for enumMask). Values the question writes out at overlapping places
   * share one key, so writing one spends the others ("New York City" and "New York" name one city); their bits
   * are given out first, since the 31 bits may not cover a long enum (a unit with all its names).
   */
  private spendKeys(values: string[], places: { text: number; start: number; end: number }[][]): string[] {
    const group = values.map((_, i) => i);
    const root = (i: number): number => (group[i] === i ? i : (group[i] = root(group[i]!)));
    for (let i = 0; i < values.length; i++)
      for (let j = i + 1; j < values.length; j++) {
        const overlap = places[i]!.some((a) =>
          places[j]!.some((b) => a.text === b.text && a.start < b.end && b.start < a.end),
        );
        if (overlap) group[root(j)] = root(i);
      }
    const keys = values.map((v, i) => (places[i]!.length > 0 ? `said:${values[root(i)]}` : `enum:${v}`));
    for (const [i, key] of keys.entries()) if (places[i]!.length > 0) this.enumMask(key);
    return keys;
  }

  /** The bit of enum value `v` in the spent set, after the stated numbers' bits (0 once all 31 are taken). */
  private enumMask(v: string): number {
    this.spendMask(0); // the numbers' bits come first
    let mask = this.enumMasks.get(v);
    if (mask === undefined) {
      mask = this.nextBit < 31 ? 1 << this.nextBit++ : 0;
      this.enumMasks.set(v, mask);
    }
    return mask;
  }

  /**
   * The variant of `stated` a leaf takes after `used` was spent: the unspent values (the preferred ones among
   * them written earliest, if any is left), else all of them.
   */
  private variantFor(stated: StatedNumbers, used: number): number {
    let keep = stated.values.flatMap((_, i) => {
      const mask = stated.masks[i]!;
      return mask === 0 || (used & mask) !== mask ? [i] : [];
    });
    const preferred = stated.preferred && keep.filter((i) => stated.preferred![i]);
    if (preferred && preferred.length > 0) {
      const at = Math.min(...preferred.map((i) => stated.firstPlace?.[i] ?? 0));
      keep = preferred.filter((i) => (stated.firstPlace?.[i] ?? 0) === at);
    }
    if (keep.length === 0 || keep.length === stated.values.length) return 0;
    const key = keep.join(",");
    let x = stated.variantByValues.get(key);
    if (x === undefined) {
      const trie = ByteTrie.build(keep.map((i) => utf8Bytes(JSON.stringify(stated.values[i]))));
      x = stated.variants.push({ trie, masks: keep.map((i) => stated.masks[i]!) }) - 1;
      stated.variantByValues.set(key, x);
    }
    return x;
  }

  /** A copied string leaf, or undefined when the source has no substring of `minChars` characters to copy. */
  private copyString(source: CopySource, minChars: number, maxLength: number): CopyNode | undefined {
    if (source.minChars(source.root, minChars, 0) > maxLength) return undefined;
    const body = source.minBytes(source.root, minChars, 0);
    if (!Number.isFinite(body)) return undefined;
    return this.add<CopyNode>({ k: K.Copy, id: 0, min: body + 2, source, minChars, maxLength });
  }

  /** Any JSON value, arrays and objects nested at most `depth` deep. */
  private any(depth: number): CNode {
    const known = this.anyByDepth.get(depth);
    if (known) return known;
    const refs = new Map<SchemaNode, UnionNode>();
    const options: CNode[] = [
      this.compile({ kind: "string", minLength: 0 }, refs),
      this.compile({ kind: "number", integer: false, nonNegative: false, bounds: {} }, refs),
      this.compile({ kind: "literal", values: [true, false, null] }, refs),
    ];
    if (depth > 0) {
      const inner = this.any(depth - 1);
      options.push(
        this.add<ArrNode>({
          k: K.Arr,
          id: 0,
          min: Infinity,
          items: inner,
          minItems: 0,
          maxItems: this.maxItems,
        }),
        this.add<MapNode>({
          k: K.Map,
          id: 0,
          min: 2,
          values: inner,
          key: this.keyNode,
          maxProperties: this.maxProperties,
        }),
      );
    }
    const node = this.add<UnionNode>({ k: K.Union, id: 0, min: Infinity, options });
    this.anyByDepth.set(depth, node);
    return node;
  }

  /** Least sizes by fixed-point iteration (refs may make the node graph cyclic). */
  private settleMinimums(): void {
    for (let changed = true; changed;) {
      changed = false;
      for (const node of this.nodes) {
        const m = this.minOf(node);
        if (m < node.min) {
          node.min = m;
          changed = true;
        }
      }
    }
  }

  private minOf(node: CNode): number {
    switch (node.k) {
      case K.Arr:
        return node.minItems === 0 ? 2 : 1 + node.minItems * (node.items.min + 1);
      case K.Obj:
        return 1 + this.objectLocal(node, 0, true);
      case K.Union:
        return node.gate ? node.min : Math.min(...node.options.map((o) => o.min));
      default:
        return node.min;
    }
  }

  /** Fewest bytes that close an object whose next candidate property is `i` (`first`: none written yet). */
  private objectLocal(node: ObjNode, i: number, first: boolean): number {
    if (node.closing) return node.closing[first ? 0 : 1][i]!;
    let bytes = 1; // "}"
    let required = 0;
    for (let j = i; j < node.props.length; j++) {
      const p = node.props[j]!;
      if (!p.required) continue;
      bytes += p.key.length + p.value.min + 1;
      required++;
    }
    return first && required > 0 ? bytes - 1 : bytes;
  }

  /** `"key":` of the properties that may come next from `i`: up to and including the first required one. */
  private keyTrie(node: ObjNode, i: number): ByteTrie | undefined {
    if (i >= node.props.length) return undefined;
    let trie = node.keyTries[i];
    if (!trie) {
      let last = i;
      while (last < node.props.length - 1 && !node.props[last]!.required) last++;
      const candidates = node.props.slice(i, last + 1);
      trie = ByteTrie.build(
        candidates.map((p) => p.key),
        (e) => candidates[e]!.value.min + this.objectLocal(node, i + e + 1, false),
      );
      // entries are relative to i; the key phase's `n` keeps i
      node.keyTries[i] = trie;
    }
    return trie;
  }

  // ---- frames --------------------------------------------------------------------------------------------

  /** Pushes the frames that start a value of `node` (several for a union). */
  private enter(node: CNode, parent: Frame | null, out: Frame[]): void {
    switch (node.k) {
      case K.Lit:
        if (node.stated) {
          // x: which variant of the stated numbers (those not yet spent)
          const x = this.variantFor(node.stated, parent?.used ?? 0);
          const trie = node.stated.variants[x]!.trie;
          out.push(new Frame(K.Lit, node, parent, 0, 0, x, trie, trie.minRest, 0, parent?.used ?? 0));
        } else out.push(new Frame(K.Lit, node, parent, 0, 0, 0, node.trie, node.trie.minRest));
        return;
      case K.Union: {
        const used = parent?.used ?? 0;
        const unspent = node.gate ? popcount(node.gate.spans & ~used) : 0;
        for (const o of node.options) {
          // the copy opens only while later leaves can still take the spans left; once every span is
          // written, they are not written again ("find \d+ in "order 66 …"" wrote the sentence twice)
          if (node.gate?.option === o && unspent > node.gate.reserve) continue;
          if (node.gate?.spansOption === o && unspent === 0) continue;
          this.enter(o, parent, out);
        }
        return;
      }
      default:
        out.push(new Frame(node.k, node, parent, 0, 0, 0, null, node.min, 0, parent?.used ?? 0));
    }
  }

  private enterAndFeed(node: CNode, parent: Frame, byte: number, out: Frame[]): void {
    const started: Frame[] = [];
    this.enter(node, parent, started);
    for (const f of started) this.consume(f, byte, out);
  }

  private consume(f: Frame, byte: number, out: Frame[]): void {
    switch (f.kind) {
      case K.End:
        return;
      case K.Lit: {
        const child = f.trie!.children.get(byte);
        if (child) {
          if (child.children.size === 0) out.push(up(f, spends(f, child)));
          else out.push(new Frame(K.Lit, f.node, f.parent, 0, 0, f.x, child, child.minRest, 0, f.used));
        }
        if (f.trie!.terminal) this.consume(up(f, spends(f, f.trie!)), byte, out);
        return;
      }
      case K.Str:
        this.consumeString(f, f.node as StrNode, byte, out);
        return;
      case K.Num:
        this.consumeNumber(f, f.node as NumNode, byte, out);
        return;
      case K.Arr:
        this.consumeArray(f, f.node as ArrNode, byte, out);
        return;
      case K.Obj:
        this.consumeObject(f, f.node as ObjNode, byte, out);
        return;
      case K.Map:
        this.consumeMap(f, f.node as MapNode, byte, out);
        return;
      case K.Copy:
        this.consumeCopy(f, f.node as CopyNode, byte, out);
        return;
    }
  }

  /**
   * A copy frame in its body (or just after a backslash): n characters written, at source state `at`, `owed`
   * continuation bytes of the last character still to come; undefined when no copy can be finished from there.
   */
  private copyFrame(f: Frame, node: CopyNode, phase: number, n: number, at: number, owed: number) {
    const more = Math.max(0, node.minChars - n);
    // a copy must end on a word boundary within maxLength characters (an escape ends on one at once)
    if (phase !== S_ESC && n + node.source.minChars(at, more, owed) > node.maxLength) return undefined;
    const body =
      phase === S_ESC ? node.source.minAfterBackslash(at, more) : node.source.minBytes(at, more, owed);
    if (!Number.isFinite(body)) return undefined;
    return new Frame(K.Copy, node, f.parent, phase, n, at, null, body + 1, owed, f.used);
  }

  private consumeCopy(f: Frame, node: CopyNode, b: number, out: Frame[]): void {
    const source = node.source;
    let next: Frame | undefined;
    if (f.phase === S_OPEN) {
      if (b === Q) next = this.copyFrame(f, node, S_BODY, 0, source.root, 0);
    } else if (f.phase === S_ESC) {
      const raw = COPY_ESCAPES.get(b);
      const to = raw === undefined ? undefined : source.step(f.x, raw);
      if (to !== undefined) next = this.copyFrame(f, node, S_BODY, f.n, to, 0);
    } else if (f.v > 0) {
      // inside a multi-byte character: its continuation bytes, as the texts spell it
      const to = b >= 0x80 && b < 0xc0 ? source.step(f.x, b) : undefined;
      if (to !== undefined) next = this.copyFrame(f, node, S_BODY, f.n, to, f.v - 1);
    } else if (b === Q) {
      if (f.n >= node.minChars && source.canEnd(f.x)) next = up(f);
    } else if (f.n < node.maxLength) {
      if (b === BS) next = this.copyFrame(f, node, S_ESC, f.n + 1, f.x, 0);
      else if (b >= 0x20 && continuationBytes(b) >= 0) {
        const to = source.step(f.x, b);
        if (to !== undefined) next = this.copyFrame(f, node, S_BODY, f.n + 1, to, continuationBytes(b));
      }
    }
    if (next) out.push(next);
  }

  private str(f: Frame, node: StrNode, phase: number, n: number, x: number): Frame {
    const owed = Math.max(0, node.minLength - n) + 1; // characters still required, and the closing quote
    let local = owed;
    if (phase === S_ESC) local += 1;
    else if (phase === S_HEX) local += 4 - (x & 7);
    else if (phase === S_UTF8) local += x & 3;
    return new Frame(K.Str, node, f.parent, phase, n, x, null, local, 0, f.used);
  }

  private consumeString(f: Frame, node: StrNode, b: number, out: Frame[]): void {
    const n = f.n;
    switch (f.phase) {
      case S_OPEN:
        if (b === Q) out.push(this.str(f, node, S_BODY, 0, 0));
        return;
      case S_BODY: {
        if (b === Q) {
          if (n >= node.minLength) out.push(up(f));
          return;
        }
        if (n >= node.maxLength || b < 0x20) return;
        if (b === BS) out.push(this.str(f, node, S_ESC, n + 1, 0));
        else if (b < 0x80) out.push(this.str(f, node, S_BODY, n + 1, 0));
        else {
          // UTF-8 lead byte: x = continuation bytes owed (low 2 bits) | the next byte's range (bits 2..)
          const lead = utf8Lead(b);
          if (lead !== 0) out.push(this.str(f, node, S_UTF8, n + 1, lead));
        }
        return;
      }
      case S_ESC:
        if (b === 0x75) out.push(this.str(f, node, S_HEX, n, 0));
        else if (ESCAPES.has(b)) out.push(this.str(f, node, S_BODY, n, 0));
        return;
      case S_HEX: {
        // x: digits read (low 3 bits) | first digit (bits 3..)
        const v = hexValue(b);
        if (v < 0) return;
        const read = f.x & 7;
        if (read === 1 && f.x >> 3 === 0xd && v >= 8) return; // U+D800..U+DFFF: no lone surrogates
        if (read === 3) out.push(this.str(f, node, S_BODY, n, 0));
        else out.push(this.str(f, node, S_HEX, n, read === 0 ? 1 | (v << 3) : (f.x & ~7) | (read + 1)));
        return;
      }
      case S_UTF8: {
        const owed = f.x & 3;
        const lo = (f.x >> 2) & 0xff;
        const hi = (f.x >> 10) & 0xff;
        if (b < lo || b > hi) return;
        if (owed === 1) out.push(this.str(f, node, S_BODY, n, 0));
        else out.push(this.str(f, node, S_UTF8, n, (owed - 1) | (0x80 << 2) | (0xbf << 10)));
        return;
      }
    }
  }

  /** x: 1 for a negative number; n: digits so far (of the integer part, or of the fraction); v: the part's value. */
  private num(f: Frame, node: NumNode, phase: number, negative: boolean, n: number, v: number): Frame {
    const r = node.range;
    let local: number;
    if (phase === N_MINUS) local = r.digitsNeeded(true);
    else if (phase === N_ZERO || phase === N_INT) local = r.bytesToFinish(negative, v, n);
    else local = phase === N_DOT ? 1 : 0;
    return new Frame(K.Num, node, f.parent, phase, n, negative ? 1 : 0, null, local, v, f.used);
  }

  private consumeNumber(f: Frame, node: NumNode, b: number, out: Frame[]): void {
    const r = node.range;
    const negative = f.x === 1;
    switch (f.phase) {
      case N_START:
      case N_MINUS:
        if (b === 0x2d && f.phase === N_START) {
          if (r.signAllowed(true)) out.push(this.num(f, node, N_MINUS, true, 0, 0));
        } else if (isDigit(b) && r.reaches(negative, b - 0x30, 1))
          out.push(this.num(f, node, b === 0x30 ? N_ZERO : N_INT, negative, 1, b - 0x30));
        return;
      case N_ZERO:
      case N_INT: {
        if (f.phase === N_INT && isDigit(b) && f.n < MAX_INTEGER_DIGITS) {
          const v = f.v * 10 + (b - 0x30);
          if (r.reaches(negative, v, f.n + 1)) out.push(this.num(f, node, N_INT, negative, f.n + 1, v));
        } else if (b === 0x2e && r.fractionAllowed(negative, f.v))
          out.push(this.num(f, node, N_DOT, negative, 0, f.v));
        if (r.wholeAllowed(negative, f.v)) this.consume(up(f), b, out);
        return;
      }
      case N_DOT:
        if (isDigit(b)) out.push(this.num(f, node, N_FRAC, negative, 1, f.v));
        return;
      case N_FRAC:
        if (isDigit(b) && f.n < MAX_FRACTION_DIGITS)
          out.push(this.num(f, node, N_FRAC, negative, f.n + 1, f.v));
        this.consume(up(f), b, out);
        return;
    }
  }

  private arr(f: Frame, node: ArrNode, phase: number, n: number): Frame {
    const perItem = node.items.min + 1;
    const local =
      phase === C_FIRST
        ? node.minItems === 0
          ? 1
          : node.minItems * perItem
        : 1 + Math.max(0, node.minItems - n) * perItem;
    return new Frame(K.Arr, node, f.parent, phase, n, 0, null, local, 0, f.used);
  }

  private consumeArray(f: Frame, node: ArrNode, b: number, out: Frame[]): void {
    switch (f.phase) {
      case C_OPEN:
        if (b === 0x5b) out.push(this.arr(f, node, C_FIRST, 0));
        return;
      case C_FIRST:
        if (b === 0x5d && node.minItems === 0) out.push(up(f));
        else if (node.maxItems > 0) this.enterAndFeed(node.items, this.arr(f, node, C_AFTER, 1), b, out);
        return;
      case C_AFTER:
        if (b === 0x2c && f.n < node.maxItems)
          this.enter(node.items, this.arr(f, node, C_AFTER, f.n + 1), out);
        else if (b === 0x5d && f.n >= node.minItems) out.push(up(f));
        return;
    }
  }

  private between(f: Frame, node: ObjNode, i: number, first: boolean): Frame {
    return new Frame(
      K.Obj,
      node,
      f.parent,
      C_AFTER,
      i,
      first ? 1 : 0,
      null,
      this.objectLocal(node, i, first),
      0,
      f.used,
    );
  }

  private consumeObject(f: Frame, node: ObjNode, b: number, out: Frame[]): void {
    switch (f.phase) {
      case C_OPEN:
        if (b === 0x7b) out.push(this.between(f, node, 0, true));
        return;
      case C_AFTER: {
        const i = f.n;
        const first = f.x === 1;
        if (b === 0x7d) {
          if (!node.requiredFrom[i]) out.push(up(f));
          return;
        }
        const trie = this.keyTrie(node, i);
        if (!trie) return;
        const keyFrame = new Frame(K.Obj, node, f.parent, C_KEY, i, 0, trie, trie.minRest, 0, f.used);
        if (first) this.consumeObject(keyFrame, node, b, out);
        else if (b === 0x2c) out.push(keyFrame);
        return;
      }
      case C_KEY: {
        const child = f.trie!.children.get(b);
        if (!child) return;
        if (child.terminal) {
          const j = f.n + child.entry;
          this.enter(node.props[j]!.value, this.between(f, node, j + 1, false), out);
        } else out.push(new Frame(K.Obj, node, f.parent, C_KEY, f.n, 0, child, child.minRest, 0, f.used));
        return;
      }
    }
  }

  private map(f: Frame, node: MapNode, phase: number, n: number): Frame {
    const local = phase === C_COLON ? 2 + node.values.min : phase === C_OPEN ? 2 : 1;
    return new Frame(K.Map, node, f.parent, phase, n, 0, null, local, 0, f.used);
  }

  private consumeMap(f: Frame, node: MapNode, b: number, out: Frame[]): void {
    switch (f.phase) {
      case C_OPEN:
        if (b === 0x7b) out.push(this.map(f, node, C_FIRST, 0));
        return;
      case C_FIRST:
      case C_AFTER:
        if (b === 0x7d) out.push(up(f));
        else if (f.n < node.maxProperties) {
          const colon = this.map(f, node, C_COLON, f.n);
          if (f.phase === C_FIRST) this.enterAndFeed(node.key, colon, b, out);
          else if (b === 0x2c) this.enter(node.key, colon, out);
        }
        return;
      case C_COLON:
        if (b === 0x3a) this.enter(node.values, this.map(f, node, C_AFTER, f.n + 1), out);
        return;
    }
  }
}

/** Does `v` meet the number schema's type and bounds (for numbers a copy constraint finds in its texts)? */
function numberFits(v: number, integer: boolean, b: NumberBounds): boolean {
  if (integer && !Number.isInteger(v)) return false;
  if (!/^-?\d{1,16}(\.\d{1,16})?$/.test(JSON.stringify(v))) return false;
  return (
    (b.minimum === undefined || v >= b.minimum) &&
    (b.maximum === undefined || v <= b.maximum) &&
    (b.exclusiveMinimum === undefined || v > b.exclusiveMinimum) &&
    (b.exclusiveMaximum === undefined || v < b.exclusiveMaximum)
  );
}

function accepting(f: Frame): boolean {
  if (f.kind === K.Lit) return f.trie!.terminal;
  if (f.kind === K.Num) {
    if (f.phase === N_FRAC) return true;
    return (
      (f.phase === N_ZERO || f.phase === N_INT) && (f.node as NumNode).range.wholeAllowed(f.x === 1, f.v)
    );
  }
  return f.kind === K.End;
}

/** x for a UTF-8 lead byte: continuation bytes owed | allowed range of the next byte; 0 when not a lead. */
function utf8Lead(b: number): number {
  const range = (owed: number, lo: number, hi: number) => owed | (lo << 2) | (hi << 10);
  if (b >= 0xc2 && b <= 0xdf) return range(1, 0x80, 0xbf);
  if (b === 0xe0) return range(2, 0xa0, 0xbf);
  if (b === 0xed) return range(2, 0x80, 0x9f);
  if (b >= 0xe1 && b <= 0xef) return range(2, 0x80, 0xbf);
  if (b === 0xf0) return range(3, 0x90, 0xbf);
  if (b >= 0xf1 && b <= 0xf3) return range(3, 0x80, 0xbf);
  if (b === 0xf4) return range(3, 0x80, 0x8f);
  return 0;
}

/** The frame a finished value returns to: its parent (END at the top), carrying the stated numbers spent. */
function up(f: Frame, used = f.used): Frame {
  const p = f.parent;
  if (p === null) return END;
  if (p.used === used) return p;
  return new Frame(p.kind, p.node, p.parent, p.phase, p.n, p.x, p.trie, p.local, p.v, used);
}

/** The spent set after a stated-number leaf ends at `at` (unchanged for other literals). */
function spends(f: Frame, at: ByteTrie): number {
  const stated = (f.node as LitNode).stated;
  if (!stated) return f.used;
  const free = stated.variants[f.x]!.masks[at.entry]! & ~f.used;
  return f.used | (free & -free); // its first bit not yet spent (none left: the set stays)
}

function popcount(x: number): number {
  let n = 0;
  for (let v = x >>> 0; v !== 0; v &= v - 1) n++;
  return n;
}

function frameKey(f: Frame | null): string {
  let key = "";
  for (let g = f; g; g = g.parent)
    key += `${g.kind}.${g.node?.id ?? 0}.${g.phase}.${g.n}.${g.x}.${g.v}.${g.used}.${trieId(g.trie)}/`;
  return key;
}

const trieIds = new WeakMap<ByteTrie, number>();
let nextTrieId = 1;
function trieId(t: ByteTrie | null): number {
  if (!t) return 0;
  let id = trieIds.get(t);
  if (id === undefined) trieIds.set(t, (id = nextTrieId++));
  return id;
}

/** Removes stacks equal to an earlier one (parallel union branches that have converged). */
function dedupe(frames: Frame[]): Frame[] {
  const seen = new Set<string>();
  const out: Frame[] = [];
  for (const f of frames) {
    const key = f === END ? "end" : frameKey(f);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(f);
  }
  return out;
}
