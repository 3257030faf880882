/**
 * What a copy constraint may copy: the texts of the conversation so far (e.g. the user's question, a tool's
 * result). A string leaf under it may only spell a substring of one of the texts, a number leaf only a number
 * one of them states (numbers-words.ts). The model still chooses which span, where it starts and where it ends,
 * token by token: the constraint forbids inventing text, like a pointer network's copying, generically over
 * every schema (json-automaton.ts reads a `CopySource` through `AutomatonOptions.copy`).
 *
 * Substrings are followed with a suffix automaton over the texts' UTF-8 bytes, joined by a 0 byte that no
 * copy may contain (so no span straddles two texts): one state per set of end positions, so a state is a
 * number and stepping it is one map lookup.
 *
 * A copy starts and ends on word boundaries: a run of letters and digits (ASCII letters, digits and every
 * non-ASCII character) is copied whole or not at all at either end, so "144" yields no "44" and "300" no "30"
 * (the demo model wrote both before this rule). The automaton's text carries a marker symbol before each word start; a
 * copy starting with a word character must step through it, and may only end where its last word ends. Copies are JSON string bodies as `JSON.stringify` writes them:
 * `"`, `\`, newline, carriage return and tab are written escaped; other control characters cannot be copied.
 *
 * Quoted text (quotes.ts) is copied whole or not at all: the automaton only holds the text outside quotes,
 * and `quoted` lists the quoted spans, which json-automaton.ts offers as whole values beside the copy. Dates a
 * person wrote out (date-spans.ts) are held out the same way, in `dates`.
 */
import { utf8Bytes } from "./byte-trie.ts";
import { numberMentions, numbersIn } from "./number-words.ts";
import { quotedSpans, unquotedPieces } from "./quotes.ts";
import { cueWords, followsCue } from "./cue-words.ts";
import { englishPolicy, type LanguagePolicy } from "./policy.ts";

/** The byte a JSON escape letter stands for, by the letter (those JSON.stringify writes for copyable text). */
export const COPY_ESCAPES = new Map<number, number>([
  [0x22, 0x22], // \"
  [0x5c, 0x5c], // \\
  [0x6e, 0x0a], // \n
  [0x72, 0x0d], // \r
  [0x74, 0x09], // \t
]);
const ESCAPED = new Set(COPY_ESCAPES.values());
/** The symbol before each word start in the automaton's text (above every byte). */
const WORD_START = 256;
const OTHER = 0;
/** + * / ^ : a copy does not end on one standing alone ("=" ends Base64). */
const OPERATORS = new Set([0x2b, 0x2a, 0x2f, 0x5e]);
/** A number or ")" ending a run, then an operator standing alone and a number or "(": an expression going on. */
const EXPRESSION_GOES_ON = /[\d)](?=\s+[-+*/^×÷]\s+[\d(])/gu;
const WORD = 1;
/** Space, tab, newline, carriage return: what ends a run of non-space characters. */
const SPACES = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Which run a byte belongs to: a word (letters and digits alike; non-ASCII bytes count as letters), or neither.
 * Letters and digits are one class so that "388a56db…" (a hash) or "cmh5dGht" (base64) is copied whole: with
 * a class each, the demo model began its answers at "56db…".
 */
function byteClass(b: number): number {
  if (b >= 0x30 && b <= 0x39) return WORD;
  if ((b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || (b >= 0x80 && b <= 0xff)) return WORD;
  return OTHER;
}

/** Continuation bytes a UTF-8 lead byte announces (0 for ASCII; -1 for a continuation or invalid byte). */
export function continuationBytes(b: number): number {
  if (b < 0x80) return 0;
  if (b >= 0xc2 && b <= 0xdf) return 1;
  if (b >= 0xe0 && b <= 0xef) return 2;
  if (b >= 0xf0 && b <= 0xf4) return 3;
  return -1;
}

/** Bytes the JSON text spends on a character starting with byte `b` at a character boundary, or 0: not copyable. */
function startCost(b: number): number {
  if (ESCAPED.has(b)) return 2;
  if (b < 0x20 || continuationBytes(b) < 0) return 0;
  return 1;
}

/**
 * `text` whole when it has at most `maxChars` characters, else its longest beginning that does and ends where a
 * word ends, without trailing spaces (undefined when none does): what a leaf of that length may take of a text copied whole.
 */
export function wholeWithin(text: string, maxChars: number): string | undefined {
  const chars = [...text];
  if (chars.length <= maxChars) return text;
  const word = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}]/u.test(ch);
  for (let i = maxChars; i > 0; i--) {
    const cut = chars.slice(0, i).join("");
    if (!(word(chars[i - 1]) && word(chars[i])) && cut.trim() !== "") return cut.trimEnd();
  }
  return undefined;
}

/** `text` split at each whitespace-separated token that is one of `words` (any case, end punctuation aside). */
/** The text outside `spans` (the spans themselves cut out, nothing around them). */
function outside(text: string, spans: readonly { start: number; end: number }[]): string[] {
  const pieces: string[] = [];
  let from = 0;
  for (const s of spans) {
    pieces.push(text.slice(from, s.start));
    from = s.end;
  }
  pieces.push(text.slice(from));
  return pieces;
}

function withoutWords(text: string, words: readonly string[]): string[] {
  if (words.length === 0) return [text];
  const set = new Set(words.map((w) => w.toLowerCase()));
  const pieces: string[] = [];
  let from = 0;
  for (const m of text.matchAll(/\S+/g)) {
    const core = m[0].replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "").toLowerCase();
    if (!set.has(core)) continue;
    pieces.push(text.slice(from, m.index));
    from = m.index + m[0].length;
  }
  pieces.push(text.slice(from));
  return pieces;
}

export class CopySource {
  /** The numbers the texts state (digits or words). */
  readonly numbers: readonly number[];
  /**
   * What a number leaf may take: the stated numbers, and their negations where a word says so ("10 days
   * before", "5 below zero": a sign people say in words).
   */
  readonly signedNumbers: readonly number[];
  /** The months the typed texts name (monthsIn): what a month leaf may take beside the numbers stated. */
  readonly months: readonly number[];
  /** How many times the texts state each number (by absolute value): how often a copy may spend it. */
  readonly mentions: ReadonlyMap<number, number>;
  private readonly next: Map<number, number>[] = [new Map()];
  private readonly link: number[] = [-1];
  private readonly len: number[] = [0];
  /** The symbol every string of a state ends with (-1 for the root). */
  private readonly label: number[] = [-1];
  /** States whose strings end where a text ends. */
  private readonly final = new Set<number>();
  private readonly endable = new Map<number, boolean>();
  /** The states the construction cloned (they own no end position of their own). */
  private readonly clones = new Set<number>();
  /** Per state: does one of its end positions lie outside an edge word's end (`options.edgeWords`)? */
  private readonly endOk: boolean[];
  private readonly memo = new Map<number, number>();

  /** The spans the texts quote, each copied only whole (no repeats, none empty). */
  readonly quoted: readonly string[];
  /** The texts copied only whole (`whole`): each a value a leaf may take, nothing less (see wholeWithin). */
  readonly wholeTexts: readonly string[];
  /** The dates a person wrote outside quotes (date-spans.ts), each copied only whole. */
  readonly dates: readonly string[];

  /**
   * A date and a time a person typed apart, joined ("2026-03-10 9:30" for "9:30 in New York on 2026-03-10"),
   * with the date written: what a property taking a date and time takes first (json-automaton.ts).
   */
  readonly dateTimes: readonly { value: string; date: string }[];
  /** The file names the typed texts write (file-names.ts): what a property naming a file takes first. */
  readonly fileNames: readonly string[];
  /** Each quoted span a person typed, with the text before its opening quote (for quotedAfterCue). */
  private readonly quotedWithContext: { value: string; before: string }[] = [];
  /** The called tool's description (`options.description`), where a property's cue word is read. */
  private readonly description: string;

  /** Must a call write every quoted span (string leaves copy other text only while later ones can take them)? */
  readonly quotesFirst: boolean;
  /** What the constraint knows of the language and of property names beyond the schema (policy.ts). */
  readonly policy: LanguagePolicy;
  /** The words a short unit value follows ("into kg"), as a pattern ending the text before it. */
  private readonly unitCue: RegExp | undefined;
  /** The texts a person typed (quotesWhole), where an enum value written out is a value stated. */
  private readonly typed: readonly string[];

  /**
   * `options.quotesWhole[i]`: is text i's quoted text copied whole (default: yes)? Yes for what a person typed;
   * no for a tool's result, whose quotes are part of the value ('"abba" is a palindrome' is copied as one span).
   * `options.quotesFirst` (default no): every quoted span (and date written out) is written, each spent once: a string leaf copies the
   * rest of the text only while the required string properties after it can still take the spans left. What a
   * person quotes is what a call is about. For a call's arguments, not for an answer built from a tool's result.
   * `options.whole[i]`: is text i copied whole or not at all (a tool's result, reported by an answer)?
   * `options.quotesOnly[i]`: does text i give only its quoted spans (the question, to an answer)?
   * `options.requestWords`: words that name the request (the called tool's name: "sha256", "reverse"), never
   * copied from what a person typed outside quotes: a token equal to one (any case, punctuation around it aside)
   * splits the text there, so "sha256 of abc" gives "of abc", never "sha256".
   * `options.edgeWords`: words a copy from what a person typed never starts or ends with (outside quotes, any
   * case): words that point at the data or join it ("the word onomatopoeia", "base64 of doost", "\d+ in"), not
   * the data.
   * `options.description`: the called tool's description, whose words before a property's name say which
   * quoted span that property takes first (cue-words.ts, quotedAfterCue).
   * `options.policy` (default englishPolicy): number words, dates, pointing words and the rules keyed to
   * property names (policy.ts); neutralPolicy: none of them.
   */
  constructor(
    readonly texts: readonly string[],
    options: {
      quotesWhole?: readonly boolean[] | undefined;
      quotesFirst?: boolean | undefined;
      whole?: readonly boolean[] | undefined;
      quotesOnly?: readonly boolean[] | undefined;
      requestWords?: readonly string[] | undefined;
      edgeWords?: readonly string[] | undefined;
      description?: string | undefined;
      policy?: LanguagePolicy | undefined;
    } = {},
  ) {
    const policy = options.policy ?? englishPolicy;
    this.policy = policy;
    const cues = policy.pointing?.unitCueWords ?? [];
    this.unitCue =
      cues.length === 0 ? undefined : new RegExp(`(?:^|[^\\p{L}])(?:${cues.join("|")})\\s+$`, "iu");
    this.description = options.description ?? "";
    const files: string[] = [];
    this.quotesFirst = options.quotesFirst === true;
    this.wholeTexts = [
      ...new Set(texts.filter((text, i) => options.whole?.[i] === true && text.trim() !== "")),
    ];
    this.typed = texts.filter((_, i) => options.quotesWhole?.[i] !== false);
    const quoted: string[] = [];
    const dates: string[] = [];
    const dateTimes: { value: string; date: string }[] = [];
    // each piece of text a copy may come from, and whether a person typed it
    const typedPiece: boolean[] = [];
    const pieces = texts.flatMap((text, i) => {
      if (options.whole?.[i] === true) return [];
      if (options.quotesWhole?.[i] === false) {
        typedPiece.push(false);
        return [text];
      }
      const found = quotedSpans(text);
      const introduced = found.length === 0 ? policy.pointing?.introducedSpan(text) : undefined;
      const spans = introduced ? [introduced] : found;
      for (const s of spans) {
        quoted.push(text.slice(s.start, s.end));
        this.quotedWithContext.push({
          value: text.slice(s.start, s.end),
          before: text.slice(0, s.start - 1),
        });
      }
      files.push(...(policy.propertyNames?.fileNames(text, spans) ?? []));
      if (options.quotesOnly?.[i] === true) return [];
      const joined = policy.propertyNames?.joinedDateTime(unquotedPieces(text, spans).join(" "));
      if (joined) dateTimes.push(joined);
      const typed = unquotedPieces(text, spans)
        .flatMap((p) => {
          const found = policy.dates?.spans(p) ?? [];
          for (const d of found) dates.push(p.slice(d.start, d.end));
          return outside(p, found);
        })
        .flatMap((p) => withoutWords(p, options.requestWords ?? []));
      typedPiece.push(...typed.map(() => true));
      return typed;
    });
    this.quoted = [...new Set(quoted)];
    this.fileNames = [...new Set(files)];
    this.dates = [...new Set(dates)];
    this.dateTimes = dateTimes;
    let last = 0;
    const edge = new Set((options.edgeWords ?? []).map((w) => w.toLowerCase()));
    // the states whose copy ends at a byte offset where an edge word ends
    const endsOnEdge = new Set<number>();
    pieces.forEach((text, i) => {
      if (i > 0) last = this.extend(last, 0);
      // the byte offsets where an edge word begins (no copy starts there) and ends (no copy ends there)
      const banned = new Set<number>();
      const bannedEnd = new Set<number>();
      if (typedPiece[i])
        for (const m of text.matchAll(/[\p{L}\p{N}]+/gu))
          if (edge.has(m[0].toLowerCase())) {
            const start = utf8Bytes(text.slice(0, m.index)).length;
            banned.add(start);
            bannedEnd.add(start + utf8Bytes(m[0]).length);
          }
      // nor where an arithmetic expression goes on ("(18 + 6) * 3 - 4 / 2" gave "(18 + 6) * 3")
      const midExpression = new Set<number>();
      if (typedPiece[i])
        for (const m of text.matchAll(EXPRESSION_GOES_ON))
          midExpression.add(utf8Bytes(text.slice(0, m.index + 1)).length);
      let at = 0;
      // A copy starts where a run of non-space characters starts, or inside one after punctuation alone:
      // "(18 + 6)" gives "18 + 6", "$64" gives "64", but "tool%20tokens" no "20tokens", "ja-JP" no "JP".
      let wordInRun = false;
      let previous = 0x20;
      let open = 0;
      for (const b of utf8Bytes(text)) {
        const c = byteClass(b);
        if (SPACES.has(b)) wordInRun = false;
        else if (!wordInRun && !banned.has(at)) last = this.extend(last, WORD_START);
        at++;
        const runStart = at === 1 || SPACES.has(previous);
        previous = b;
        if (SPACES.has(b)) open = 0;
        else if (b === 0x28) open++;
        else if (b === 0x29 && open > 0) open--;
        if (c !== OTHER) wordInRun = true;
        last = this.extend(last, b);
        // nor where an edge word ends, on an operator standing alone ("(18 + 6) *"; "\d+" may end), or
        // inside a bracket its run of non-spaces opened ("2^10 - 3*(7+5)" gave "2^10 - 3*(7+5")
        if (bannedEnd.has(at) || (runStart && OPERATORS.has(b)) || open > 0 || midExpression.has(at))
          endsOnEdge.add(last);
      }
    });
    for (let p = last; p > 0; p = this.link[p]!) this.final.add(p);
    // A state may end a copy when one of its end positions is not an edge word's end: each position's own
    // state, then up the suffix links (a state's positions are those of the states linking to it).
    this.endOk = this.len.map(
      (_, s) =>
        s !== 0 &&
        !this.clones.has(s) &&
        this.label[s] !== WORD_START &&
        this.label[s] !== 0 &&
        !endsOnEdge.has(s),
    );
    for (const s of [...this.len.keys()].sort((a, b) => this.len[b]! - this.len[a]!)) {
      const p = this.link[s]!;
      if (p > 0 && this.endOk[s]) this.endOk[p] = true;
    }
    const words = policy.numberWords?.numbersIn ?? (() => []);
    this.numbers = [...new Set(texts.flatMap((t) => numbersIn(t, words)))];
    // a number written with its sign keeps it ("-40"); one written without may be negated where a word says
    // so ("10 days before", "5 below zero"), and nowhere else ("(48.85, 2.35)", "add 14 days")
    const negating = policy.numberWords?.negating;
    const negatable = negating !== undefined && this.typed.some((t) => negating.test(t));
    this.signedNumbers = [...new Set(this.numbers.flatMap((v) => (v <= 0 || !negatable ? [v] : [v, -v])))];
    this.months = [...new Set(this.typed.flatMap((t) => policy.dates?.months(t) ?? []))];
    const mentions = new Map<number, number>();
    for (const t of texts)
      for (const [v, c] of numberMentions(t, words)) mentions.set(v, (mentions.get(v) ?? 0) + c);
    this.mentions = mentions;
  }

  /**
   * Does a text a person typed write `value` out as a whole word: not inside a run of letters and digits, in the
   * same case (values of four or more characters in any case: "paris" names Paris)? A value of one or two
   * lower-case characters only right after a number ("5 km", "98.6 f"): "in", "m" in "I'm" and "t" in "don't"
   * are words, not inches, metres and tonnes.
   */
  states(value: string): boolean {
    return this.statedAt(value).length > 0;
  }

  /**
   * The numbers the typed texts write right beside one of `words` ("82 kg", "seed 1405", "1.61m"): a number
   * property named "weight_kg" or "seed" takes such a number first (json-automaton.ts).
   */
  numbersBeside(words: readonly string[]): number[] {
    if (this.policy.propertyNames?.numbersBesideName !== true) return [];
    const names = new Set(words.map((w) => w.toLowerCase()));
    const out: number[] = [];
    for (const text of this.typed) {
      const tokens = text
        .toLowerCase()
        .split(/\s+/)
        .map((t) => t.replace(/^[^\p{L}\p{N}.-]+|[^\p{L}\p{N}]+$/gu, ""));
      tokens.forEach((token, i) => {
        if (names.has(token)) {
          for (const near of [tokens[i - 1], tokens[i + 1]])
            if (near !== undefined && /^-?[\d.,]+$/.test(near)) out.push(...numbersIn(near));
          return;
        }
        const glued = /^(-?\d[\d.,]*)([\p{L}]+)$/u.exec(token);
        if (glued && names.has(glued[2]!)) out.push(...numbersIn(glued[1]!));
      });
    }
    return [...new Set(out)];
  }

  /**
   * The quoted spans a person wrote right after the word the tool's description writes before `nameWords`
   * ("in" for "text" in "… occurs in a text"): that property's first choice (json-automaton.ts).
   */
  quotedAfterCue(nameWords: readonly string[]): string[] {
    if (this.policy.propertyNames?.cueWords !== true) return [];
    const cues = cueWords(this.description, nameWords);
    return this.quotedWithContext.filter((q) => followsCue(q.before, cues)).map((q) => q.value);
  }

  /** Where the typed texts write `value` out (see states): [text index, start, end) of each place. */
  statedAt(value: string): { text: number; start: number; end: number }[] {
    if (value.length === 0) return [];
    const chars = [...value].length;
    const anyCase = chars >= 4;
    const afterNumber = chars <= 2 && value === value.toLowerCase();
    // letters and digits of any script; a symbol such as "°" in "25 °C" is not part of a word
    const word = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}]/u.test(ch);
    const places: { text: number; start: number; end: number }[] = [];
    this.typed.forEach((raw, t) => {
      const text = anyCase ? raw.toLowerCase() : raw;
      const v = anyCase ? value.toLowerCase() : value;
      for (let i = text.indexOf(v); i >= 0; i = text.indexOf(v, i + 1)) {
        // a value glued to a number is written out all the same ("400m", "5km")
        const glued = /[0-9]/.test(text[i - 1] ?? "") && /\p{L}/u.test(v[0]!);
        const before = word(text[i - 1]) && word(v[0]) && !glued;
        const after = word(text[i + v.length]) && word(v[v.length - 1]);
        if (before || after) continue;
        // a short value ("kg", "l", "in") only as a unit: after a number, or after "to", "into", "in" or "as"
        const before4 = text.slice(Math.max(0, i - 4), i);
        const asUnit = /[0-9][\s°]*$/.test(before4) || (this.unitCue?.test(text.slice(0, i)) ?? false);
        if (!afterNumber || asUnit) places.push({ text: t, start: i, end: i + v.length });
      }
    });
    return places;
  }

  /**
   * Is `place` (from statedAt) written right after a number, digits or words ("119 feet", "25 °C", "fifteen
   * metre")? Such a value is that number's unit.
   */
  followsNumber(place: { text: number; start: number }): boolean {
    const before = this.typed[place.text]!.slice(0, place.start);
    return /[0-9][\s°]*$/.test(before) || (this.policy.numberWords?.endsWithNumberWord.test(before) ?? false);
  }

  /** Does a property of this name (its words) take a file name the question writes (policy: property names)? */
  takesFileName(words: readonly string[]): boolean {
    return this.policy.propertyNames?.namesAFile(words) ?? false;
  }

  /** Does a property of this name take a date and a time written apart, joined (policy: property names)? */
  takesDateTime(words: readonly string[]): boolean {
    return this.policy.propertyNames?.takesDateTime(words) ?? false;
  }

  /** Does a number enum of exactly 1 to 12 take the months the texts name (policy: property names)? */
  get monthEnum(): boolean {
    return this.policy.propertyNames?.monthEnum === true;
  }

  /** The state before any byte of a copy (the empty substring). */
  get root(): number {
    return 0;
  }

  /** The state after `byte` (a raw byte of the copied text), or undefined when no text continues so. */
  step(state: number, byte: number): number | undefined {
    if (byte === 0) return undefined;
    // The root moves only through a start marker: every other state's moves follow the text.
    const direct = state === 0 ? undefined : this.next[state]!.get(byte);
    if (direct !== undefined) return direct;
    const marked = this.next[state]!.get(WORD_START);
    return marked === undefined ? undefined : this.next[marked]!.get(byte);
  }

  /** May a copy end in `state`: its last character ends a word (or is not part of one)? */
  canEnd(state: number): boolean {
    const known = this.endable.get(state);
    if (known !== undefined) return known;
    const c = state === 0 ? OTHER : byteClass(this.label[state]!);
    // After a word's last character, or after a symbol where a run of non-space characters ends: "(18 + 6) * 3"
    // gives no "(", "2^10" no "2^", "[aeiou]" no "[" (the demo model had stopped there), "sales.csv?" still
    // "sales.csv".
    // After a word, only where the run ends, or only punctuation is left of it ("2028," or "sales.csv?" give
    // "2028" and "sales.csv"; "14.02.2024" no "14.02", "1,250" no "1"; "York's" gives "York").
    // Never on an operator standing alone ("(18 + 6) * 3 - 4 / 2" gave "(18 + 6) *") or an edge word (endOk).
    // Never after a space, even where a piece ends ("md5 hash of the string abc please" gave "abc ").
    const label = state === 0 ? -1 : this.label[state]!;
    const ok =
      state === 0 ||
      (!SPACES.has(label) &&
        this.endOk[state] === true &&
        (this.final.has(state) ||
          (c === OTHER
            ? [...this.next[state]!.keys()].some((k) => k === 0 || SPACES.has(k))
            : this.restIsPunctuation(state, 0))));
    this.endable.set(state, ok);
    return ok;
  }

  /** Does some occurrence of `state`'s strings continue with only punctuation to its run's end (or "'s")? */
  private restIsPunctuation(state: number, depth: number): boolean {
    for (const [k, to] of this.next[state]!) {
      if (k === 0 || SPACES.has(k)) return true;
      if (depth > 0 && (k === WORD_START || k === 0x73) && this.label[state] === 0x27) {
        const s = k === 0x73 ? to : this.next[to]!.get(0x73);
        if (
          s !== undefined &&
          (this.final.has(s) || [...this.next[s]!.keys()].some((x) => x === 0 || SPACES.has(x)))
        )
          return true;
      }
      if (depth < 4 && k !== WORD_START && byteClass(k) === OTHER)
        if (this.final.has(to) || this.restIsPunctuation(to, depth + 1)) return true;
    }
    return false;
  }

  /** The bytes a copy may write next from `state`, with the states they lead to. */
  private *moves(state: number): Generator<[number, number]> {
    for (const [k, to] of this.next[state]!) {
      if (k === 0) continue;
      if (k === WORD_START) yield* this.next[to]!;
      else if (state !== 0) yield [k, to];
    }
  }

  /**
   * Fewest bytes of JSON string body that copy `chars` more whole characters from `state`, after first the
   * `owed` continuation bytes of a character begun, and then end on a word boundary (Infinity when the texts
   * have no such continuation).
   */
  minBytes(state: number, chars: number, owed: number): number {
    return this.least(state, chars, owed, true);
  }

  /** Like minBytes, counting characters: the shortest copy from `state` that can end has this many more. */
  minChars(state: number, chars: number, owed: number): number {
    return this.least(state, chars, owed, false);
  }

  private least(state: number, chars: number, owed: number, bytes: boolean): number {
    if (owed === 0 && chars === 0 && this.canEnd(state)) return 0;
    const key = ((chars * 4 + owed) * this.len.length + state) * 2 + (bytes ? 1 : 0);
    const known = this.memo.get(key);
    if (known !== undefined) return known;
    let best = Infinity;
    for (const [b, to] of this.moves(state)) {
      if (owed > 0) {
        if (b >= 0x80 && b < 0xc0)
          best = Math.min(best, (bytes ? 1 : 0) + this.least(to, chars, owed - 1, bytes));
        continue;
      }
      const cost = startCost(b);
      if (cost === 0) continue;
      const rest = this.least(to, Math.max(0, chars - 1), continuationBytes(b), bytes);
      best = Math.min(best, (bytes ? cost : 1) + rest);
    }
    this.memo.set(key, best);
    return best;
  }

  /** Fewest bytes after a backslash from `state` that finish the escape and then copy `chars` more characters. */
  minAfterBackslash(state: number, chars: number): number {
    let best = Infinity;
    for (const raw of COPY_ESCAPES.values()) {
      const to = this.step(state, raw);
      if (to !== undefined) best = Math.min(best, 1 + this.minBytes(to, chars, 0));
    }
    return best;
  }

  /** Blumer et al.'s online construction: appends one byte to the automaton of the text so far. */
  private extend(last: number, b: number): number {
    const cur = this.len.length;
    this.len.push(this.len[last]! + 1);
    this.label.push(b);
    this.link.push(0);
    this.next.push(new Map());
    let p = last;
    while (p !== -1 && !this.next[p]!.has(b)) {
      this.next[p]!.set(b, cur);
      p = this.link[p]!;
    }
    if (p === -1) return cur;
    const q = this.next[p]!.get(b)!;
    if (this.len[p]! + 1 === this.len[q]!) {
      this.link[cur] = q;
      return cur;
    }
    const clone = this.len.length;
    this.clones.add(clone);
    this.len.push(this.len[p]! + 1);
    this.label.push(b);
    this.link.push(this.link[q]!);
    this.next.push(new Map(this.next[q]!));
    while (p !== -1 && this.next[p]!.get(b) === q) {
      this.next[p]!.set(b, clone);
      p = this.link[p]!;
    }
    this.link[q] = clone;
    this.link[cur] = clone;
    return cur;
  }
}
