/**
 * The factored caller's decision: which offered functions to call (a learnt yes/no per function over
 * functionFeatures, the gate: none above `callThreshold` declines), and each call's arguments (a learnt
 * softmax per parameter over its candidates and "leave it out", then a joint assignment that spends no
 * question span twice). Several calls of one function when some parameters hold several strong values that do
 * not overlap (a learnt yes/no per further value, `more`, over how strong it is beside the first, whether the
 * two are joined by commas or learnt joiner words, whether another parameter wants it); the values are paired
 * in the order the question states them, a parameter with one value repeating it.
 */
import type { ToolJson } from "../../tools/types.ts";
import type { Candidate } from "./candidates.ts";
import {
  coveredTokens,
  functionFeatures,
  functionView,
  nullFeatures,
  pairFeatures,
  questionView,
  relativeFeatures,
  type FunctionView,
  type ParamInfo,
  type WordStats,
  windowMatch,
} from "./features.ts";
import { dot, sigmoid, softmax } from "./linear.ts";
import { nameWords, stemOf, type QToken } from "./text.ts";
import { FAMILIES, quotedSpans } from "./candidates.ts";
import { docIdentifiers } from "./doc-identifiers.ts";
import { flattenTool, nestArguments } from "./nested.ts";
import { ENGLISH_NEGATIONS } from "./negations.ts";
import { ENGLISH_NUMBER_WORDS, type NumberWords } from "./number-words.ts";
import { COMMON_WORDS, dropCommonWords } from "./common-words.ts";
import { joinNumberCommas } from "./number-commas.ts";
import { segmentFill } from "./segment-fill.ts";
import { strictMentions } from "./strict-mentions.ts";
import { NUMBER_GROUP_SHARE, numberGroupCalls, SCHEMA_ORDER_PRIOR } from "./number-groups.ts";
import { clauseStarts, clusteredPlace } from "./segment-shape.ts";
import { mentionEvents, repeatedSegments, segmentOwners, type MentionEvent } from "./repeated-mentions.ts";
import { quotedJoined } from "./quoted-joins.ts";
import { extendsRun, type Link } from "./list-runs.ts";
import { shareValues } from "./shared-values.ts";
import { leftoverNumbers } from "./leftover-numbers.ts";
import { emptyNames, leftoverNames } from "./leftover-names.ts";
import { digitText } from "./digit-texts.ts";
import { namedRun } from "./named-runs.ts";
import { orderSwaps } from "./order-swaps.ts";
import { headNamed } from "./name-heads.ts";
import { sentenceOwners, sentenceRanges } from "./sentence-owners.ts";
import { UNIT_WORDS, unitWords } from "./unit-words.ts";
import { ENGLISH_PAIRING, saysPairing } from "./pairing-words.ts";
import { ENGLISH_POSSESSIVE } from "./possessives.ts";
import { ENGLISH_PERCENT_WORDS } from "./percent-words.ts";
import { weighUnits } from "./units.ts";
import { widenedPhrase } from "./phrases.ts";
import { emptyWords } from "./empty-words.ts";
import { ENGLISH_NAME_LINKS, linkedName } from "./name-links.ts";
import { widenedClaim } from "./widened-claims.ts";
import { bindNameNeighbour } from "./name-neighbours.ts";
import { commaName } from "./comma-names.ts";
import { commaCode } from "./comma-codes.ts";
import { ENGLISH_NUMBER_SCALES, type NumberScales } from "./number-scales.ts";
import { dealSiblings, siblingGroups } from "./numbered-siblings.ts";
import { namedOrder } from "./name-lists.ts";
import { joinedList } from "./joined-lists.ts";
import { describedOptions, writtenOption } from "./described-options.ts";
import { flagTurns } from "./flag-turns.ts";
import { wholeCalls } from "./whole-calls.ts";
import { dropSentenceOpeners } from "./sentence-openers.ts";
import { exchangeValues } from "./value-exchanges.ts";
import { openerStarts } from "./opener-segments.ts";
import { bestQuote } from "./leftover-quotes.ts";
import { dropWrittenNames, writtenNamePlaces } from "./written-names.ts";
import { residualScore, type Residual } from "./residual.ts";
import type { RoleWordTable } from "./role-words.ts";

export interface FactoredWeights {
  /** One weight vector per candidate family (FAMILIES order), then the "leave it out" one. */
  argument: number[][];
  function: number[];
  callThreshold: number;
  /** "Another value of this parameter, for another call?" (a logistic over moreFeatures). */
  more: number[];
  moreThreshold: number;
  /** Most calls of one function in one reply. */
  maxCalls: number;
  /** A small non-linear part added to the argument scorer's pair scores (residual.ts); absent in older model files. */
  residual?: Residual;
  /** The learnt role-word table (role-words.ts; pair features x[49], x[50]); absent in older model files. */
  roleWords?: RoleWordTable;
}

export interface DecideOptions {
  /** Ablations: "order" fills each parameter with its family's candidates in question order. */
  assigner?: "learned" | "order";
  /** false: always call the best function (no decline). */
  gate?: boolean;
  /** "learned" (default) or "cover": the function whose text covers most of the question, one call. */
  chooser?: "learned" | "cover";
  /** false: one call per function. */
  parallel?: boolean;
  /** false: two values joined by a comma alone count as a list (else only when a joiner word goes on with it). */
  commas?: boolean;
  /** false: every function that passes the gate is called, its name mentioned or not. */
  mention?: boolean;
  /** false: with several functions called, every function may take any span (no spanOwners). */
  segment?: boolean;
  /** false: the argument scorer's residual (residual.ts), where the model file has one, is not added (linear alone). */
  residual?: boolean;
  /** false: the learnt feature x[48] stays 0: another parameter's name nearer before a value (preceding-names.ts). */
  precedingNames?: boolean;
  /** false: the learnt role words beside a span are not read, x[49] and x[50] stay 0 (role-words.ts). */
  roleWords?: boolean;
  /** false: a number written "5%" is offered as 5 only, never as the fraction 0.05. */
  fractions?: boolean;
  /** false: no span made of tokens written without spaces between them ("2022-04-27"; candidates.ts gluedRuns). */
  glued?: boolean;
  /** false: no span holds a comma, even where the parameter's description writes its values so (candidates.ts commaSpans). */
  commaSpans?: boolean;
  /** false: another parameter's name near a span is a cue whatever that parameter takes (not only one of its family). */
  kinNames?: boolean;
  /** false: an array of enum members takes lists of the question's words, as any array does (enum-lists.ts). */
  enumLists?: boolean;
  /** false: a list parameter is never given one variable's name in place of a list (candidates.ts variables). */
  variables?: boolean;
  /** false: no list read from a bracketed literal of the question (candidates.ts literals). */
  literals?: boolean;
  /** false: a symbol written onto a value ("$3000") counts as a word between the value and its name (features.ts). */
  symbols?: boolean;
  /** false: a code identifier a parameter's description writes ("StringBuilder") counts among the values it names. */
  typeNames?: boolean;
  /** false: a further value in a near frame of a taken one (nearFrame) is no evidence by that alone. */
  frames?: boolean;
  /**
   * true: a further value goes only to a parameter that wants it at least as much as every other parameter does
   * (a hard rule; by default that chance is only one of the learnt "more" model's features, x[5]).
   */
  preferOther?: boolean;
  /** false: with several functions called, a span one takes as a first value may be a further value of another. */
  exclusive?: boolean;
  /**
   * With several functions called, a required parameter left without a value in its function's segment:
   * "missing" (default) lets that parameter alone look outside the segment, "all" every parameter.
   */
  widen?: "missing" | "all";
  /** true: parameters whose several values stand as separate lists take every combination (separateLists). */
  cross?: boolean;
  /**
   * With several functions called, a parameter whose value in its function's segment has under 1/widenWeak the
   * chance of its best value outside the segment may take that one (default 16, chosen on BFCL dev: 4 / 8 / 16 /
   * 32 / 100; 8 before 2026-12-06 12:10 UTC; Infinity: never, as before 2026-12-05 22:00).
   */
  widenWeak?: number;
  /** false: a lowercase word that repeats the last word of a capitalised name written before it stays that word (name-heads.ts). */
  nameHeads?: boolean;
  /** false: an enum parameter never takes several members (enum members have no place in the question). */
  enumPlaces?: boolean;
  /**
   * false: a span that is a code identifier the function's own name or documentation writes ("runIt", "the
   * PrintStream to which ...") may be a value, as before 2026-12-06 (docIdentifiers).
   */
  docIdentifiers?: boolean;
  /** false: an object parameter that declares properties is filled as one value, not property by property (nested.ts). */
  nested?: boolean;
  /** false: a quote mark opening or closing a quoted text next to a span is a boundary of the span (features.ts). */
  quoteBounds?: boolean;
  /** false: a parameter of no declared type may take any span, not only code-like ones (untypedCode). */
  untypedCode?: boolean;
  /** false: a number parameter never takes a named constant the question writes (candidates.ts namedConstants). */
  constants?: boolean;
  /** false: a dotted name ("domain.com") is stemmed by its first letters, as a plain word (text.ts tokenize). */
  dotted?: boolean;
  /**
   * Words that negate a flag named beside them, a language policy (negations.ts): ENGLISH_NEGATIONS by default,
   * false for none (the caller then knows no words of any language).
   */
  negations?: ReadonlySet<string> | false;
  /** false: a quoted text ending with a quoted word of its own closes at the first closing mark (quotedSpans). */
  doubledQuotes?: boolean;
  /**
   * With several calls, a parameter with fewer values than calls takes one per call segment (segment-fill.ts),
   * a candidate at least this share of its first value's chance (default SEGMENT_FILL_RATIO; 0 or below: off).
   */
  segmentFill?: number;
  /**
   * With several functions past the gate, a function whose own name words the question does not write is still
   * mentioned by its own description words (no other's name or description has them) rarer than this in training
   * questions, for the mention filter and the segments (mentionPlaces; default DOC_MENTIONS; 0: names only).
   */
  docMentions?: number;
  /** false: no text value passes from one called function to a same-named parameter of another (shared-values.ts). */
  shared?: boolean;
  /** false: a message wrapped whole in quote marks is one quoted text, hiding the values inside (candidates.ts unwrapQuoted). */
  unwrap?: boolean;
  /**
   * Numbers written in words, offered to number parameters as digits are, a language policy (number-words.ts):
   * ENGLISH_NUMBER_WORDS by default, false for none (as before 2026-12-06).
   */
  numberWords?: NumberWords | false;
  /**
   * false: a parameter's name counts as written only where the question writes its words' stems, as before
   * 2026-12-06; by default also where a word shares its first letters with a short name word (loose-names.ts).
   */
  looseNames?: boolean;
  /**
   * A function whose required parameters get a value with a mean chance (the argument scorer's fill, features.ts
   * functionFeatures x[5]) under this floor is not called, whatever the gate says: the question does not state
   * what it needs (default FILL_FLOOR; 0: off, as before 2026-12-06).
   */
  fillFloor?: number;
  /** false: of several functions mentioned, each is called, even one mentioned only by words another documents (strict-mentions.ts). */
  strict?: boolean;
  /** false: no span "Word N, M" across its comma ("January 1, 2021"; number-commas.ts). */
  numberCommas?: boolean;
  /** A one-word lower-case text value commoner than this in training questions takes no chance (common-words.ts; default COMMON_WORDS; 1: off). */
  commonWords?: number;
  /** false: an enum member's written words stay free for other parameters' spans (placesOf; enumSpent). */
  enumSpent?: boolean;
  /** false: a later function's segment starts at its mention, not after the clause break before it (segment-shape.ts). */
  clauseStarts?: boolean;
  /** false: a function is mentioned at the first of its own name words, not where most stand together (segment-shape.ts). */
  mentionClusters?: boolean;
  /**
   * Numbers written in groups, one per required number parameter, ask one call per group (number-groups.ts): a
   * number counts when some parameter gives it this share of its best chance (default NUMBER_GROUP_SHARE; 0: off).
   */
  numberGroups?: number;
  /** false: two quoted texts joined past their quote marks ('"A" and "B"') are no evidence for a further value (quoted-joins.ts). */
  quotedJoins?: boolean;
  /** Number groups: how much likelier per group the schema's order of the parameters is (default SCHEMA_ORDER_PRIOR; 1: none). */
  numberGroupOrder?: number;
  /**
   * A digit number the joint assignment leaves unspent goes to an empty optional number parameter whose chance of it
   * is at least this share of leaving it out (leftover-numbers.ts); false: none, as before 2026-12-06.
   */
  leftoverNumbers?: number | false;
  /**
   * A capitalised run of words the joint assignment leaves unspent replaces a text parameter's lower-case value when
   * its chance is at least this share of that value's (leftover-names.ts); false: none, as before 2026-12-06.
   */
  leftoverNames?: number | false;
  /** false: a text parameter may take a lone number where the function has a number parameter (digit-texts.ts). */
  digitTexts?: boolean;
  /** false: a capitalised name holding a text parameter's own name word is not taken for it first (named-runs.ts). */
  namedRuns?: boolean;
  /**
   * Two text values are exchanged where the schema's order, this much likelier, says so (order-swaps.ts; 1.5 chosen on
   * BFCL dev); false: none, as before 2026-12-06.
   */
  orderSwaps?: number | false;
  /**
   * With one call, an unspent capitalised run goes to an empty optional text parameter whose chance of it is at least
   * this share of leaving it out (leftover-names.ts emptyNames; 0.05 chosen on BFCL dev); false: none, as before 2026-12-06.
   */
  emptyNames?: number | false;
  /** false: a value that makes a run of three joined values ("A, B and C") still needs the learnt "more" model's yes (list-runs.ts). */
  listRuns?: boolean;
  /**
   * An empty optional text parameter takes the word written right after a number the call takes, when its chance of
   * that word is at least this share of leaving it out (unit-words.ts; default UNIT_WORDS); false: none.
   */
  unitWords?: number | false;
  /**
   * Words that say lists pair in order ("… respectively"), a language policy (pairing-words.ts): ENGLISH_PAIRING by
   * default, false for none.
   */
  pairing?: ReadonlySet<string> | false;
  /** false: a sentence that mentions one function alone is not given to it whole (sentence-owners.ts). */
  sentenceOwners?: boolean;
  /** false: a description's capitalised word after "e.g." is no example value, as the tokenizer reads a sentence's start (abbreviations.ts). */
  abbreviations?: boolean | "lists";
  /**
   * A possessive ending a text value is given without ("The Weeknd's" -> "The Weeknd"), a language policy
   * (possessives.ts): ENGLISH_POSSESSIVE by default, false for none (as before 2026-12-06).
   */
  possessives?: RegExp | false;
  /**
   * Words by which a number parameter's description says it takes a percentage as written ("as a percentage"): "5%"
   * is then 5 only, never 0.05, a language policy (percent-words.ts): ENGLISH_PERCENT_WORDS by default, false for
   * none (as before 2026-12-06).
   */
  percentWords?: ReadonlySet<string> | false;
  /**
   * A number parameter's chance of a number whose unit ("5 seconds", "440Hz") its description writes, and not every
   * number parameter's does, is this many times likelier (units.ts; default UNITS); false: no units, as before 2026-12-06.
   */
  units?: number | false;
  /**
   * With one call, a one-word text value widens to the two-word span it makes with a free, uncommon word beside it
   * whose chance is at least this share of the word's (phrases.ts; default PHRASES); false: none, as before 2026-12-06.
   */
  phrases?: number | false;
  /**
   * With one call, an empty optional text parameter takes a plain word the question writes (lower case, uncommon, no
   * name word) whose chance is at least this share of leaving it out (empty-words.ts; default EMPTY_WORDS); false: none,
   * as before 2026-12-06.
   */
  emptyWords?: number | false;
  /**
   * Words that link two capitalised runs into one name ("Museum of Modern Art"): a text value that is part of such a
   * name is taken whole, a language policy (name-links.ts): ENGLISH_NAME_LINKS by default, false for none (as before
   * 2026-12-06).
   */
  nameLinks?: ReadonlySet<string> | false;
  /** false: a parameter that looks outside its function's segment may take a span another function takes first (widened-claims.ts). */
  claimed?: boolean;
  /**
   * false: a text parameter's likeliest value keeps its chance when its own-name cue is a name word a word or two away
   * and a span stands right against that name word on its other side ("Chinese cuisine in Seattle" gave cuisine
   * "Seattle"; name-neighbours.ts; before 2026-12-06 12:00 UTC).
   */
  nameNeighbours?: boolean;
  /**
   * Where no function passes the call threshold, the likeliest one (past the fill floor) is still called when its
   * chance is at least this: a lower bar for calling at all than for calling each further function (default
   * DECLINE_BELOW, chosen on BFCL dev); false: the call threshold alone, as before 2026-12-06 12:15 UTC.
   */
  declineBelow?: number | false;
  /** false: numbered siblings (species1, species2) never share out a list one of them holds: several calls instead (numbered-siblings.ts). */
  siblings?: boolean;
  /** false: a capitalised name holding a parameter's name word is taken without the name it links to ("Metropolitan Museum" of Art; named-runs.ts). */
  namedLinks?: boolean;
  /**
   * false: with one call, a text value that is the capitalised second part of "Seattle, Washington", its first part
   * free, stays that part ("Washington"), as before 2026-12-06 14:30 UTC (comma-names.ts).
   */
  commaNames?: boolean;
  /** false: with one call, a capitalised text value followed by ", CA" stays the name alone (comma-codes.ts). */
  commaCodes?: boolean;
  /**
   * Scale words after a number ("50 million", "1.2M"), offered as the whole number, a language policy
   * (number-scales.ts): ENGLISH_NUMBER_SCALES by default, false for none (as before 2026-12-06 14:50 UTC).
   */
  numberScales?: NumberScales | false;
  /** false: a list parameter is offered no run of plain lower-case words joined as a list ("tomatoes and lettuce"; plain-lists.ts). */
  plainLists?: boolean;
  /**
   * true: a list parameter of numbers is also offered every number the question writes as one list, joined or not,
   * as before 2026-12-06 15:10 UTC ("Sample1: [22,33,42,12,34] and Sample2: [23,45,44,14,38]" gave sample1 all ten).
   */
  scatteredNumbers?: boolean;
  /** false: a plain list's items are one word each, as before 2026-12-06 17:15 UTC ("easy going" of "efficient, organized, easy going and compassionate" was none; plain-lists.ts). */
  twoWordItems?: boolean;
  /**
   * false: a text parameter whose description quotes two or more values ('real' or 'all') reads them only as example
   * words, as before 2026-12-06 17:15 UTC; by default, with one call, it takes the one the question writes (described-options.ts).
   */
  describedOptions?: boolean;
  /** false: values keep the parameters the scorer gave them where names are listed, then their values ("base and height as 6cm and 10cm"; name-lists.ts). */
  nameLists?: boolean;
  /** false: a list parameter alone holding several joined lists makes one call per list, as before 2026-12-06 17:15 UTC (joined-lists.ts). */
  joinedLists?: boolean;
  /**
   * false: with several functions called, one segment per function, from its first mention on, however often the
   * question names it again after another (as before 2026-12-06 17:30 UTC; repeated-mentions.ts).
   */
  repeatMentions?: boolean;
  /**
   * false: a further value counts as written with capitals, as a taken name is, when its first word opens a sentence
   * ("Can you tell", a second league beside "English Premier League"), as before 2026-12-06 19:40 UTC (namedSpan).
   */
  openers?: boolean;
  /**
   * false: an enum member stands where the question first writes its words' stems, as before 2026-12-06 19:50 UTC;
   * by default first where it is written letter for letter, capitals too ("AA", "Aa" and "aa" stand apart; placesOf).
   */
  exactPlaces?: boolean;
  /**
   * false: a flag named both ways takes one value, as before 2026-12-06 19:50 UTC; by default a flag the question names
   * plain and beside a negating word ("is isothermal … is not isothermal") takes both, a call each (flag-turns.ts).
   */
  flagTurns?: boolean;
  /**
   * A call that lacks a required argument (the schema allows no such call): "several" (default) drops it where another
   * call is made ("the area and perimeter of a circle" gave rectangle.calculate_perimeter with its breadth alone);
   * "always" drops it even where it is the only one (a decline; a probe); false: kept, as before 2026-12-06 20:10 UTC
   * (whole-calls.ts).
   */
  wholeCalls?: "several" | "always" | false;
  /**
   * false: with several functions called, a value another called function's parameter names beside it may still be a
   * further value or number group of this one's, as before 2026-12-06 20:15 UTC ("a density of 5.2 … of 7.8" gave the
   * cone volume a second call; foreignNamed).
   */
  foreignNames?: boolean;
  /** false: a sentence's opening word set off by a comma ("Lastly, …") may be a one-word text value, as before 2026-12-06 20:00 UTC (sentence-openers.ts). */
  sentenceOpeners?: boolean;
  /**
   * After the joint assignment, a value passes to another parameter of the function where the product of the two
   * chances grows more than this many times (value-exchanges.ts; default VALUE_EXCHANGES; false: none, as before
   * 2026-12-06 20:00 UTC).
   */
  valueExchanges?: number | false;
  /**
   * After the joint assignment, a quoted text no parameter holds replaces a text parameter's unquoted value at this
   * share of its chance (leftover-quotes.ts; default LEFTOVER_QUOTES; false: never, as before 2026-12-06 20:30 UTC).
   */
  leftoverQuotes?: number | false;
  /** false: a later function's segment starts at its clause, not at the sentence opener before it ("Second, …"; opener-segments.ts). */
  openerSegments?: boolean;
  /**
   * false: a function's whole name written in the question ("using the 'sculptor_info.get' function") is no call for
   * it past the gate, no mention and may be a value (written-names.ts; before 2026-12-06 22:30 UTC).
   */
  writtenNames?: boolean;
  /**
   * With several functions called, the learnt "more" bar for a value joined to a taken one by a joiner word ("the
   * weight of Neutron and Proton"; wordJoined; default JOINED_PAIRS; false: the model's own threshold).
   */
  joinedPairs?: number | false;
  /** false: an object parameter is offered no dictionary the question writes as a literal ("{'Math': 85}"; candidates.ts dictLiterals). */
  dictLiterals?: boolean;
  /**
   * Diagnostic, never set by decoding: the functions called are exactly these (those offered), whatever the gate
   * says; the argument scorer, the call counts and the segments then run as usual. scripts/caller-call-counts.ts
   * uses it to bound what a better choice of functions could win (BFCL's gold functions as an oracle).
   */
  onlyFunctions?: readonly string[];
}

export interface ScoredParam {
  info: ParamInfo;
  probs: number[];
  pNull: number;
  /** The value a name word binds, where name-neighbours.ts gave it the likeliest value's chance. */
  bound?: Candidate;
}

export interface ScoredFunction {
  view: FunctionView;
  params: ScoredParam[];
  features: Float32Array;
}

export const NULL_BLOCK = FAMILIES.length;
// a list of enum members is scored by the enum weights (features.ts memberFeatures): it is several choices of one
export const blockOf = (c: Candidate): number => FAMILIES.indexOf(c.members ? "enum" : c.family);

/**
 * A parameter whose description writes its values with a comma inside ("Boston, MA"): a span across one comma
 * takes the chance of the spans on its two sides too (the scorer, trained on values without commas, splits "Denver,
 * Colorado" into two rivals), and all chances are scaled back to sum 1 (`probs` holds the null's last).
 */
function joinCommaParts(candidates: readonly Candidate[], probs: number[]): void {
  const add = candidates.map((c, i) =>
    c.family !== "span" || c.quoted || !/,/.test(String(c.value))
      ? 0
      : candidates.reduce(
          (a, d, j) => (j !== i && d.family === "span" && d.start >= c.start && d.end <= c.end && !/,/.test(String(d.value)) ? a + probs[j]! : a),
          0,
        ),
  );
  add.forEach((x, i) => (probs[i] = probs[i]! + x));
  const total = probs.reduce((a, b) => a + b, 0);
  for (let i = 0; i < probs.length; i++) probs[i] = probs[i]! / total;
}

export function scoreParams(f: FunctionView, w: readonly number[][], residual?: Residual): ScoredParam[] {
  return f.params.map((p) => {
    const scores = p.candidates.map((c) => {
      const x = pairFeatures(f, p, c);
      return dot(w[blockOf(c)]!, x) + (residual ? residualScore(residual, x) : 0);
    });
    scores.push(dot(w[NULL_BLOCK]!, nullFeatures(f, p)));
    const probs = softmax(scores);
    if (p.kind.commaJoined) joinCommaParts(p.candidates, probs);
    else if (f.view.numberCommas !== false) joinNumberCommas(p.candidates, probs);
    if (f.view.commonWords !== undefined) dropCommonWords(f, p.candidates, probs, f.view.commonWords);
    if (f.view.sentenceOpeners === true) dropSentenceOpeners(f.view.tokens, p.candidates, probs);
    // a number's unit written in one number parameter's description names that parameter (units.ts)
    if (f.view.units !== undefined) weighUnits(f, p, probs, f.view.units);
    // a name word binds the span right against it before one a word or two away (name-neighbours.ts)
    const bound =
      f.view.nameNeighbours === true && p.kind.type === "string" && !p.kind.enumValues
        ? bindNameNeighbour(p.candidates, probs, { tokens: f.view.tokens, nameStems: p.nameStems, commonness: (st) => f.stats.get(st) ?? 0, common: COMMON_WORDS, possessive: f.view.possessives })
        : -1;
    const pNull = probs.pop()!;
    return bound >= 0 ? { info: p, probs, pNull, bound: p.candidates[bound]! } : { info: p, probs, pNull };
  });
}

export function scoreFunctions(
  tools: readonly ToolJson[],
  question: string,
  w: FactoredWeights,
  stats: WordStats,
  joiners: ReadonlySet<string>,
  o: DecideOptions = {},
): ScoredFunction[] {
  const view = questionView(
    question,
    joiners,
    o.fractions !== false,
    o.glued !== false,
    o.kinNames !== false,
    o.dotted !== false,
    o.unwrap !== false,
  );
  if (o.enumLists === false) view.enumLists = false;
  if (o.precedingNames === false) view.precedingNames = false;
  if (w.roleWords !== undefined && o.roleWords !== false) view.roleWords = w.roleWords;
  if (o.variables === false) view.variables = false;
  if (o.literals === false) view.literals = false;
  if (o.symbols === false) view.symbols = false;
  if (o.typeNames === false) view.typeNames = false;
  if (o.commaSpans === false) view.commaJoined = false;
  if (o.docIdentifiers === false) view.docIdentifiers = false;
  if (o.quoteBounds === false) view.quoteBounds = false;
  if (o.untypedCode === false) view.untypedCode = false;
  if (o.constants === false) view.constants = false;
  if (o.numberCommas === false) view.numberCommas = false;
  if (o.enumSpent === false) view.enumSpent = false;
  if (o.exactPlaces !== false) view.exactPlaces = true;
  if ((o.commonWords ?? COMMON_WORDS) < 1) view.commonWords = o.commonWords ?? COMMON_WORDS;
  if (o.doubledQuotes === false) view.quoted = quotedSpans(question, view.tokens, false);
  if (o.negations !== false) view.negations = o.negations ?? ENGLISH_NEGATIONS;
  if (o.numberWords !== false) view.numberWords = o.numberWords ?? ENGLISH_NUMBER_WORDS;
  if (o.looseNames !== false) view.looseNames = true;
  if (o.leftoverNumbers !== false) view.leftoverNumbers = o.leftoverNumbers ?? LEFTOVER_NUMBERS;
  if (o.leftoverNames !== false) view.leftoverNames = o.leftoverNames ?? LEFTOVER_NAMES;
  if (o.digitTexts !== false) view.digitTexts = true;
  if (o.namedRuns !== false) view.namedRuns = true;
  if (o.orderSwaps !== false) view.orderSwaps = o.orderSwaps ?? ORDER_SWAPS;
  if (o.emptyNames !== false) view.emptyNames = o.emptyNames ?? EMPTY_NAMES;
  if (o.nameLinks !== false) view.nameLinks = o.nameLinks ?? ENGLISH_NAME_LINKS;
  if (o.emptyWords !== false) view.emptyWords = o.emptyWords ?? EMPTY_WORDS;
  if (o.nameNeighbours !== false) view.nameNeighbours = true;
  if (o.namedLinks !== false) view.namedLinks = true;
  if (o.commaNames !== false) view.commaNames = true;
  if (o.numberScales !== false) view.numberScales = o.numberScales ?? ENGLISH_NUMBER_SCALES;
  if (o.plainLists !== false) view.plainLists = true;
  if (o.twoWordItems !== false) view.twoWordItems = true;
  if (o.sentenceOpeners !== false) view.sentenceOpeners = true;
  if (o.valueExchanges !== false) view.valueExchanges = o.valueExchanges ?? VALUE_EXCHANGES;
  if (o.leftoverQuotes !== false) view.leftoverQuotes = o.leftoverQuotes ?? LEFTOVER_QUOTES;
  if (o.scatteredNumbers !== true) view.joinedNumbers = true;
  if (o.phrases !== false) view.phrases = o.phrases ?? PHRASES;
  if (o.units !== false) view.units = o.units ?? UNITS;
  if (o.percentWords !== false) view.percentWords = o.percentWords ?? ENGLISH_PERCENT_WORDS;
  if (o.possessives !== false) view.possessives = o.possessives ?? ENGLISH_POSSESSIVE;
  if (o.abbreviations !== false) view.abbreviations = o.abbreviations ?? "lists";
  if (o.dictLiterals !== false) view.dictLiterals = true;
  // a function's whole name the question writes is no value (written-names.ts)
  const namesAt = o.writtenNames !== false ? writtenNamePlaces(view.tokens, tools.map((t) => t.function.name)).flat() : [];
  const scored = tools.map((tool) => {
    const f = functionView(tool, view, stats);
    const params = scoreParams(f, w.argument, o.residual !== false ? w.residual : undefined);
    for (const p of params) dropWrittenNames(p, namesAt);
    const required = params.filter((p) => p.info.required);
    const fill = required.length === 0 ? 1 : required.reduce((a, p) => a + (1 - p.pNull), 0) / required.length;
    const share = required.length === 0 ? 1 : required.filter((p) => p.info.candidates.length > 0).length / required.length;
    return { view: f, params, raw: functionFeatures(f, fill, share) };
  });
  const rel = relativeFeatures(
    scored.map((s) => s.raw),
    scored.map((s) => coveredTokens(s.view)),
  );
  return scored.map((s, i) => ({ view: s.view, params: s.params, features: rel[i]! }));
}

const overlaps = (a: [number, number], b: [number, number]) => a[0] < b[1] && b[0] < a[1];

function rangesOf(c: Candidate): [number, number][] {
  if (c.start < 0) return [];
  return c.items ?? [[c.start, c.end]];
}

/**
 * Where a value is written, for the "more" model: its token ranges, or for an enum member (which the argument
 * scorer reads without a place) the first run of question words that spell its name ("five_years" in "the last
 * five years"). Several members written in the question are then further values like any other: joined, in a
 * frame, in question order. Without `enums`, enum members have no place (never a further value), as before.
 */
export function placesOf(f: FunctionView, c: Candidate, enums = true): [number, number][] {
  if (c.start >= 0 || c.family !== "enum" || !enums) return rangesOf(c);
  const stems = nameWords(String(c.value)).map(stemOf);
  if (stems.length === 0) return [];
  const t = f.view.tokens;
  // members spelt alike but for their capitals ("AA", "Aa", "aa") each stand where the question writes them so (exactPlaces)
  if (f.view.exactPlaces === true) {
    const words = String(c.value).split(/[\s_]+/).filter((w) => w !== "");
    for (let i = 0; i + words.length <= t.length; i++) if (words.every((w, j) => t[i + j]!.text === w)) return [[i, i + words.length]];
  }
  for (let i = 0; i + stems.length <= t.length; i++)
    if (stems.every((st, j) => t[i + j]!.stem === st)) return [[i, i + stems.length]];
  return [];
}

/** Where a value's place starts (-1: none). */
const placeStart = (f: FunctionView, c: Candidate, enums = true): number => placesOf(f, c, enums)[0]?.[0] ?? -1;

const CODE_SHAPE = /\p{Ll}\p{Lu}|[\p{L}\p{N}]_[\p{L}\p{N}]|\w\.\w/u;

/** A value written as code is: quoted, or a camelCase, snake_case or dotted name; numbers and others as they are. */
const codeLike = (c: Candidate): boolean => c.family !== "span" || c.quoted || CODE_SHAPE.test(String(c.value));

export interface Picked {
  param: ScoredParam;
  values: Candidate[];
}

/** The learnt "more" model and the decoding choices around it (DecideOptions). */
export interface MoreOptions {
  weights: number[];
  threshold: number;
  commas?: boolean;
  frames?: boolean;
  preferOther?: boolean;
  /** Spans other functions called with this one took as first values: never a further value here. */
  reserved?: readonly [number, number][];
  /** false: enum members have no place, so never a further value (placesOf). */
  enumPlaces?: boolean;
  /** false: two quoted texts joined past their quote marks are no evidence for a further value (quoted-joins.ts). */
  quotedJoins?: boolean;
  /** Segment fill's least share of a parameter's first chance (segment-fill.ts); undefined: no segment fill. */
  segmentFill?: number;
  /** false: a run of three joined values is no further value without the learnt "more" model's yes (list-runs.ts). */
  listRuns?: boolean;
  /** Words that say lists pair in order (pairing-words.ts); undefined: none. */
  pairing?: ReadonlySet<string>;
  /** true: a sentence's capitalised first word makes no name of a longer span (namedSpan). */
  openers?: boolean;
  /** true: a flag named both ways, plain and negated, takes both values, a call each (flag-turns.ts). */
  flagTurns?: boolean;
  /** With several functions called, the learnt "more" bar for a value joined to a taken one by a joiner word (wordJoined). */
  joinedBar?: number;
  /** Values another called function's parameter names beside them: never a further value here (foreignNamed). */
  foreign?: (c: Candidate) => boolean;
}

/** The joint assignment: parameters in order of confidence, each its best candidate whose span is still free. */
export function assignLearned(
  f: FunctionView,
  params: readonly ScoredParam[],
  more: MoreOptions | undefined,
  allowed: (c: Candidate) => boolean = () => true,
): Picked[] {
  const used: [number, number][] = [];
  // a span made only of the function's own name words names the function, not a value (any catalog's
  // function names are its documentation, whatever the language)
  const own = new Set(nameWords(f.tool.function.name).map(stemOf));
  const namesFunction = (c: Candidate) =>
    c.family === "span" &&
    !c.quoted &&
    f.view.tokens.slice(c.start, c.end).every((k) => k.kind === "punct" || own.has(k.stem));
  const named = f.view.docIdentifiers === false ? new Set<string>() : docIdentifiers(f);
  // an enum member spends the words that write it ("on Saturday" for day), as a span spends its own (enumSpent)
  const spent = (c: Candidate) => (f.view.enumSpent === false ? rangesOf(c) : placesOf(f, c));
  const free = (c: Candidate) =>
    allowed(c) &&
    !namesFunction(c) &&
    !(c.family === "span" && named.has(String(c.value))) &&
    spent(c).every((r) => used.every((u) => !overlaps(r, u)));
  const enums = more?.enumPlaces !== false;
  // how a further value must be written as the first is: with capitals or without (openers: a sentence's first word aside)
  const caps = (c: Candidate) => (more?.openers === true ? namedSpan(f.view.tokens, c.start, c.end) : capitalised(f, c));
  const further = (c: Candidate) =>
    free(c) &&
    placesOf(f, c, enums).every((r) => used.every((u) => !overlaps(r, u)) && (more?.reserved ?? []).every((u) => !overlaps(r, u)));
  // a parameter of no declared type, where the question writes code (identifiers, quoted texts), takes one of
  // those: an untyped argument in a code question is an expression, not an everyday word (untypedCode)
  const untyped = new Set(
    f.view.untypedCode === false ? [] : params.filter((p) => p.info.kind.type === "any" && p.info.candidates.some(codeLike)),
  );
  // a lone number is a number parameter's, where the function has one (digit-texts.ts)
  const kinds = params.map((p) => p.info.kind);
  const fits = (p: ScoredParam, c: Candidate) =>
    (!untyped.has(p) || codeLike(c)) && !(f.view.digitTexts === true && digitText(f.view.tokens, kinds, p.info.kind, c));
  // the most confident parameter first (required first, 2026-12-06, lost four BFCL items and won none by 2026-12-07)
  const order = [...params].sort((a, b) => Math.max(0, ...b.probs) - Math.max(0, ...a.probs));
  const picked: Picked[] = [];
  // a capitalised name holding a text parameter's own name word is that parameter's, first (named-runs.ts)
  if (f.view.namedRuns === true)
    for (const p of params) {
      if (p.info.kind.type !== "string" || p.info.kind.enumValues) continue;
      const at = namedRun(f.view.tokens, p.info.nameStems, p.info.candidates);
      const run = p.info.candidates[at];
      if (!run || !free(run) || !fits(p, run)) continue;
      // linked to another capitalised run by a name word ("Metropolitan Museum of Art"): the whole name (name-links.ts)
      const whole = f.view.namedLinks === true && f.view.nameLinks ? linkedName(f.view.tokens, run.start, run.end, f.view.nameLinks) : undefined;
      const c = (whole && p.info.candidates.find((d) => d !== run && d.family === "span" && !d.quoted && d.start === whole[0] && d.end === whole[1] && free(d) && fits(p, d))) ?? run;
      used.push(...spent(c));
      picked.push({ param: p, values: [c] });
    }
  const namedPicks = new Set(picked);
  for (const p of order) {
    if (picked.some((k) => k.param === p)) continue;
    const ranked = p.probs.map((pr, i) => ({ pr, c: p.info.candidates[i]! })).sort((a, b) => b.pr - a.pr);
    const best = ranked.find((r) => free(r.c) && fits(p, r.c));
    if (!best) continue;
    if (!p.info.required && p.pNull >= best.pr) continue;
    // a capitalised name linked to another by a name word ("Museum of Modern Art") is taken whole (name-links.ts)
    const whole = f.view.nameLinks && best.c.family === "span" && !best.c.quoted && best.c.start >= 0 ? linkedName(f.view.tokens, best.c.start, best.c.end, f.view.nameLinks) : undefined;
    const linked = whole && p.info.candidates.find((d) => d.family === "span" && !d.quoted && d.start === whole[0] && d.end === whole[1] && d !== best.c && free(d) && fits(p, d));
    const value = linked ?? best.c;
    used.push(...spent(value));
    picked.push({ param: p, values: [value] });
  }
  // a value passes to another parameter surer of it, the giver taking its next free value (value-exchanges.ts)
  if (f.view.valueExchanges !== undefined) exchangePicked(f, params, picked, namedPicks, used, spent, (p, c) => allowed(c) && !namesFunction(c) && !(c.family === "span" && named.has(String(c.value))) && fits(p, c), f.view.valueExchanges);
  // a quoted text no parameter holds replaces a text parameter's unquoted value (leftover-quotes.ts)
  if (f.view.leftoverQuotes !== undefined)
    for (let round = 0; round < params.length; round++) {
      const texts = picked.filter((k) => {
        const v = k.values[0]!;
        const kind = k.param.info.kind;
        return !namedPicks.has(k) && k.values.length === 1 && kind.type === "string" && !kind.enumValues && v.family === "span" && !v.quoted && v.start >= 0;
      });
      const next = bestQuote(
        texts.map((k) => ({
          own: k.param.probs[k.param.info.candidates.indexOf(k.values[0]!)] ?? 0,
          quoted: k.param.info.candidates.flatMap((c, at) => (c.family === "span" && c.quoted && free(c) && fits(k.param, c) ? [{ at, chance: k.param.probs[at]! }] : [])),
        })),
        f.view.leftoverQuotes,
      );
      if (!next) break;
      const k = texts[next.slot]!;
      k.values = [k.param.info.candidates[next.at]!];
      used.length = 0;
      for (const q of picked) for (const v of q.values) used.push(...spent(v));
    }
  // two text values, or two numbers, exchanged where the schema's order, held likelier, says so (order-swaps.ts)
  if (f.view.orderSwaps !== undefined) {
    const numeric = (k: Picked) => (k.param.info.kind.type === "integer" || k.param.info.kind.type === "number") && k.values[0]!.family === "number";
    const texts = picked.filter((k) => !namedPicks.has(k) && !k.param.info.kind.enumValues && k.values[0]!.start >= 0 && ((k.param.info.kind.type === "string" && k.values[0]!.family === "span") || numeric(k)));
    const chance = (k: Picked, c: Candidate) => k.param.probs[k.param.info.candidates.findIndex((d) => d.family === c.family && d.start === c.start && d.end === c.end)] ?? 0;
    const swaps = orderSwaps(
      texts.map((k) => ({
        index: params.indexOf(k.param),
        start: k.values[0]!.start,
        own: chance(k, k.values[0]!),
        other: (j: number) => (fits(k.param, texts[j]!.values[0]!) ? chance(k, texts[j]!.values[0]!) : 0),
      })),
      f.view.orderSwaps,
    );
    // each takes its own candidate for the other's span
    const own = (k: Picked, c: Candidate) => k.param.info.candidates.find((d) => d.family === c.family && d.start === c.start && d.end === c.end) ?? c;
    for (const [i, j] of swaps) {
      const [a, b] = [texts[i]!, texts[j]!];
      [a.values, b.values] = [[own(a, b.values[0]!)], [own(b, a.values[0]!)]];
    }
  }
  // digits left unspent go to empty optional number parameters (leftover-numbers.ts)
  const leftovers = (): Picked[] => {
    if (f.view.leftoverNumbers !== undefined) {
      const empty = params.filter((p) => !picked.some((k) => k.param === p));
      const numeric = (p: ScoredParam) => (p.info.kind.type === "integer" || p.info.kind.type === "number") && !p.info.kind.enumValues;
      const took = leftoverNumbers(
        empty.map((p) => ({ optional: !p.info.required, numeric: numeric(p), candidates: p.info.candidates, probs: p.probs, pNull: p.pNull })),
        free,
        (c) => used.push(...rangesOf(c)),
        f.view.leftoverNumbers,
      );
      took.forEach((at, i) => at >= 0 && picked.push({ param: empty[i]!, values: [empty[i]!.info.candidates[at]!] }));
    }
    // a capitalised name left unspent replaces a text parameter's lower-case word (leftover-names.ts); one call only
    if (f.view.leftoverNames !== undefined && picked.every((k) => k.values.length === 1)) {
      // a value a name word binds stays (name-neighbours.ts)
      const texts = picked.filter((k) => !namedPicks.has(k) && k.param.info.kind.type === "string" && !k.param.info.kind.enumValues && k.param.bound !== k.values[0]);
      const swapped = leftoverNames(
        f.view.tokens,
        texts.map((k) => ({ candidates: k.param.info.candidates, probs: k.param.probs, at: k.param.info.candidates.indexOf(k.values[0]!) })),
        free,
        (c) => used.push(...rangesOf(c)),
        f.view.leftoverNames,
      );
      swapped.forEach((at, i) => at >= 0 && (texts[i]!.values = [texts[i]!.param.info.candidates[at]!]));
    }
    // and goes to an empty optional text parameter (leftover-names.ts emptyNames); one call only
    if (f.view.emptyNames !== undefined && picked.every((k) => k.values.length === 1)) {
      const empty = params.filter((p) => !p.info.required && p.info.kind.type === "string" && !p.info.kind.enumValues && !picked.some((k) => k.param === p));
      const took = emptyNames(
        f.view.tokens,
        empty.map((p) => ({ candidates: p.info.candidates, probs: p.probs, pNull: p.pNull })),
        free,
        (c) => used.push(...rangesOf(c)),
        f.view.emptyNames,
      );
      took.forEach((at, i) => at >= 0 && picked.push({ param: empty[i]!, values: [empty[i]!.info.candidates[at]!] }));
    }
    // a one-word text value widens to the two-word name it stands in ("the plasma membrane"; phrases.ts); one call only
    if (f.view.phrases !== undefined && picked.every((k) => k.values.length === 1)) {
      const names = new Set([...nameWords(f.tool.function.name).map(stemOf), ...params.flatMap((p) => [...p.info.nameStems])]);
      for (const k of picked) {
        if (k.param.info.kind.type !== "string" || k.param.info.kind.enumValues) continue;
        const slot = { candidates: k.param.info.candidates, probs: k.param.probs, at: k.param.info.candidates.indexOf(k.values[0]!) };
        const at = widenedPhrase(
          slot,
          { tokens: f.view.tokens, commonness: (st) => f.stats.get(st) ?? 0, names, free: (r) => used.every((u) => !overlaps(r, u)) },
          f.view.phrases,
          COMMON_WORDS,
        );
        if (at < 0) continue;
        k.values = [k.param.info.candidates[at]!];
        used.push(...rangesOf(k.values[0]!));
      }
    }
    // a value that is the second part of "Seattle, Washington" widens to the whole pair, its first part free (comma-names.ts); one call only
    if (f.view.commaNames === true && picked.every((k) => k.values.length === 1))
      for (const k of picked) {
        const c = k.values[0]!;
        if (k.param.info.kind.type !== "string" || k.param.info.kind.enumValues || c.family !== "span" || c.quoted || c.start < 0) continue;
        const whole = commaName(f.view.tokens, c.start, c.end, f.view.joiners, (r) => used.every((u) => !overlaps(r, u)));
        if (!whole) continue;
        const [s, e] = whole;
        k.values = [{ family: "span", value: f.view.question.slice(f.view.tokens[s]!.start, f.view.tokens[e - 1]!.end), start: s, end: e, quoted: false }];
        used.push(whole);
      }
    // or one plain word the question writes (empty-words.ts); one call only
    if (f.view.emptyWords !== undefined && picked.every((k) => k.values.length === 1)) {
      const empty = params.filter((p) => !p.info.required && p.info.kind.type === "string" && !p.info.kind.enumValues && !picked.some((k) => k.param === p));
      const names = new Set([...nameWords(f.tool.function.name).map(stemOf), ...params.flatMap((p) => [...p.info.nameStems])]);
      const took = emptyWords(
        empty.map((p) => ({ candidates: p.info.candidates, probs: p.probs, pNull: p.pNull })),
        { tokens: f.view.tokens, commonness: (st) => f.stats.get(st) ?? 0, names, free, take: (c) => used.push(...spent(c)) },
        f.view.emptyWords,
        COMMON_WORDS,
      );
      took.forEach((at, i) => at >= 0 && picked.push({ param: empty[i]!, values: [empty[i]!.info.candidates[at]!] }));
    }
    return picked;
  };
  if (more === undefined) return leftovers();
  // more values of the same parameters: free, not overlapping one another, and the learnt "more" says yes
  for (const pk of picked) {
    const c0 = pk.values[0]!;
    if (placeStart(f, c0, enums) < 0) continue;
    // an enum member's written name is spent by it (another member spelt alike, "Aa" for "AA", is not another)
    if (c0.family === "enum") used.push(...placesOf(f, c0, enums));
    const ranked = pk.param.probs
      .map((pr, i) => ({ pr, c: pk.param.info.candidates[i]! }))
      .filter((r) => r.c !== c0 && r.pr >= MORE_FLOOR)
      .sort((a, b) => b.pr - a.pr);
    // passes until none adds a value: a value joined only to one taken later in the same pass gets its turn
    for (let added = true; added; ) {
      added = false;
      for (const r of ranked) {
        // a further value is written as the first is (both quoted or neither, both with capitals or neither):
        // a list keeps one form
        if (!further(r.c) || r.c.quoted !== c0.quoted || !fits(pk.param, r.c)) continue;
        if (r.c.family === "span" && caps(r.c) !== caps(c0)) continue;
        if (pk.values.some((v) => JSON.stringify(v.value) === JSON.stringify(r.c.value))) continue;
        if (placeStart(f, r.c, enums) < 0) continue;
        if (more.foreign?.(r.c)) continue;
        const x = moreFeatures(f, params, pk.param, pk.values, r.c, enums);
        // a further value needs evidence of its own: joined to a value already taken, its parameter's name
        // beside it, or a near frame of a taken value ("3000 sq ft in New York and 4000 sq ft in Los Angeles");
        // whether another parameter wants it more (x[5]) the learnt "more" weighs (preferOther: a hard rule)
        const joined = x[3] === 1 && (more.commas === false || !commaPairOnly(f, pk.values, r.c, enums));
        const framed = more.frames !== false && x[11] === 1;
        // two quoted texts joined past their quote marks ('"A" and "B"'; quoted-joins.ts)
        const quotedList =
          more.quotedJoins !== false &&
          c0.quoted &&
          r.c.quoted &&
          pk.values.some((v) => quotedJoined(f.view.tokens, f.view.joiners, [v.start, v.end], [r.c.start, r.c.end]));
        if (more.preferOther === true && x[5]! > r.pr) continue;
        // three or more values joined in a row ("A, B and C") are a list (list-runs.ts), unless another parameter wants it more
        const run =
          more.listRuns !== false &&
          x[5]! <= r.pr &&
          extendsRun(pk.values, r.c, {
            link: (a, b) => linkOf(f, placesOf(f, a, enums), placesOf(f, b, enums)),
            rivals: ranked.filter((q) => further(q.c) && q.c.quoted === c0.quoted && (q.c.family !== "span" || caps(q.c) === caps(c0))).map((q) => q.c),
          });
        // joined pairs: in a function's part of a longer question, a value joined to a taken one by a joiner word
        // needs the learnt "more" at a lower bar (wordJoined; the model scores "Neutron and Proton" 0.72 there)
        const bar = joined && more.joinedBar !== undefined && wordJoined(f, pk.values, r.c, enums) ? Math.min(more.joinedBar, more.threshold) : more.threshold;
        if (!run && ((!joined && !framed && !quotedList && x[4] === 0) || sigmoid(dot(more.weights, x)) < bar)) continue;
        used.push(...placesOf(f, r.c, enums));
        pk.values.push(r.c);
        added = true;
        // a run's value may cut a likelier rival's place ("Angeles" for "Los Angeles"): start the pass again
        if (run) break;
      }
    }
    pk.values.sort((a, b) => placeStart(f, a, enums) - placeStart(f, b, enums));
  }
  // a flag named both ways ("is isothermal … is not isothermal"): a value per way, in question order (flag-turns.ts)
  if (more.flagTurns === true && f.view.negations)
    for (const p of params) {
      if (p.info.kind.type !== "boolean") continue;
      const stems = new Set([...p.info.nameStems].filter((st) => (f.stats.get(st) ?? 0) < COMMON_WORDS));
      const inPart = (k: number) => allowed({ family: "span", value: "", start: k, end: k + 1, quoted: false });
      const turns = flagTurns(f.view.tokens, stems, f.view.negations, f.view.joiners, inPart);
      const pk = picked.find((k) => k.param === p);
      if (!turns || (pk && pk.values.length > 1)) continue;
      const values = turns.map((v): Candidate => p.info.candidates.find((c) => c.family === "bool" && c.value === v) ?? { family: "bool", value: v, start: -1, end: -1, quoted: false });
      if (pk) pk.values = values;
      else picked.push({ param: p, values });
    }
  // once some parameter holds several values the number of calls is set (segment fill and pairing words fill up to it)
  const n = Math.max(1, ...picked.map((pk) => pk.values.length));
  // "… respectively": a text parameter with one value takes the spans joined to it, up to that number (pairing-words.ts)
  if (n > 1 && saysPairing(f.view.tokens, more.pairing))
    for (const pk of picked) {
      const c0 = pk.values[0]!;
      if (pk.values.length !== 1 || c0.family !== "span" || c0.start < 0) continue;
      const ranked = pk.param.probs
        .map((pr, i) => ({ pr, c: pk.param.info.candidates[i]! }))
        .filter((r) => r.c !== c0 && r.c.family === "span" && r.pr >= MORE_FLOOR)
        .sort((a, b) => b.pr - a.pr);
      for (const r of ranked) {
        if (pk.values.length >= n) break;
        if (!further(r.c) || r.c.quoted !== c0.quoted || caps(r.c) !== caps(c0) || !fits(pk.param, r.c)) continue;
        if (!pk.values.some((v) => linkOf(f, rangesOf(v), rangesOf(r.c)) !== undefined || linkOf(f, rangesOf(r.c), rangesOf(v)) !== undefined)) continue;
        used.push(...rangesOf(r.c));
        pk.values.push(r.c);
      }
      pk.values.sort((a, b) => a.start - b.start);
    }
  if (n > 1 && more.segmentFill !== undefined)
    segmentFill(picked, n, {
      f,
      places: (c) => placesOf(f, c, enums),
      free: further,
      take: (c) => used.push(...placesOf(f, c, enums)),
      alike: (c, c0) => c.quoted === c0.quoted && (c.family !== "span" || caps(c) === caps(c0)),
      minRatio: more.segmentFill,
    });
  return leftovers();
}

/** Candidates below this chance are never a further value (keeps the "more" model's work small). */
export const MORE_FLOOR = 0.001;
export const MORE_DIM = 14;

/** How many words on each side of a value nearFrame looks at. */
const FRAME_WIDTH = 2;

/** Is `c` joined to one of `values` (either side) with a learnt joiner word among what stands between? */
export function wordJoined(f: FunctionView, values: readonly Candidate[], c: Candidate, enums: boolean): boolean {
  const taken = values.flatMap((v) => placesOf(f, v, enums));
  const at = placesOf(f, c, enums);
  return linkOf(f, taken, at) === "word" || linkOf(f, at, taken) === "word";
}

/** Are two token ranges joined only by commas and learnt joiner words (1 to 3 tokens between)? */
function joinedRanges(f: FunctionView, a: [number, number], b: [number, number]): boolean {
  const [x, y] = a[0] < b[0] ? [a, b] : [b, a];
  if (y[0] <= x[1] || y[0] - x[1] > 3) return false;
  for (let i = x[1]; i < y[0]; i++) {
    const t = f.view.tokens[i]!;
    if (t.text !== "," && !f.view.joiners.has(t.lower)) return false;
  }
  return true;
}

/** How the value written at `a` is joined to the one at `b` right after it (list-runs.ts Link): commas alone, a joiner word, or not. */
function linkOf(f: FunctionView, a: readonly [number, number][], b: readonly [number, number][]): Link {
  for (const x of a)
    for (const y of b) {
      if (y[0] <= x[1] || !joinedRanges(f, x, y)) continue;
      return f.view.tokens.slice(x[1], y[0]).some((k) => f.view.joiners.has(k.lower)) ? "word" : "comma";
    }
  return undefined;
}

/**
 * Is `c` joined to the values taken only as the second half of "A, B": a comma alone between, no learnt joiner
 * word going on after it ("A, B and C") and not the same frame? Such a pair is as often one value written in two
 * parts (a place and its region) as a list of two, which people join with a joiner word.
 */
function commaPairOnly(f: FunctionView, values: readonly Candidate[], c: Candidate, enums = true): boolean {
  const t = f.view.tokens;
  for (const v of values)
    for (const r of placesOf(f, v, enums))
      for (const s of placesOf(f, c, enums)) {
        if (sameFrame(f, r, s)) return false;
        if (!joinedRanges(f, r, s)) continue;
        const [x, y] = r[0] < s[0] ? [r, s] : [s, r];
        if (t.slice(x[1], y[0]).some((k) => f.view.joiners.has(k.lower))) return false;
        let i = y[1];
        while (t[i]?.text === ",") i++;
        if (t[i] !== undefined && f.view.joiners.has(t[i]!.lower)) return false;
      }
  return true;
}

/** Do two ranges sit in the same frame: the same word right after both, or right before both ("20 minutes and 15 minutes")? */
function sameFrame(f: FunctionView, a: [number, number], b: [number, number]): boolean {
  const t = f.view.tokens;
  const same = (i: number, j: number) => t[i] !== undefined && t[j] !== undefined && t[i]!.kind === "word" && t[i]!.lower === t[j]!.lower;
  return same(a[1], b[1]) || same(a[0] - 1, b[0] - 1);
}

/**
 * Do two ranges sit in a near frame: a word (not a value's own, not either range) among the FRAME_WIDTH words
 * before both, or among the FRAME_WIDTH words after both ("in location New York and 4000 sq ft in Los Angeles")?
 * A looser sameFrame: people repeat the words around a value when they ask for it again with another value. The
 * shared word must stand at two places: values side by side ("plasma membrane") see the same neighbours.
 */
function nearFrame(f: FunctionView, a: [number, number], b: [number, number]): boolean {
  const t = f.view.tokens;
  const inside = (i: number) => (i >= a[0] && i < a[1]) || (i >= b[0] && i < b[1]);
  const words = (from: number, to: number) => {
    const out = new Map<string, number>();
    for (let i = Math.max(0, from); i < Math.min(t.length, to); i++)
      if (!inside(i) && t[i]!.kind === "word") out.set(t[i]!.stem, i);
    return out;
  };
  // the same word at two places: values side by side share the words around both, which is no frame
  const share = (x: Map<string, number>, y: Map<string, number>) => [...x].some(([w, i]) => y.has(w) && y.get(w) !== i);
  return (
    share(words(a[0] - FRAME_WIDTH, a[0]), words(b[0] - FRAME_WIDTH, b[0])) ||
    share(words(a[1], a[1] + FRAME_WIDTH), words(b[1], b[1] + FRAME_WIDTH))
  );
}

/** Features of `c` as a further value of `p`, whose values so far are `values` (the first the best). */
export function moreFeatures(
  f: FunctionView,
  params: readonly ScoredParam[],
  p: ScoredParam,
  values: readonly Candidate[],
  c: Candidate,
  enums = true,
): Float32Array {
  const x = new Float32Array(MORE_DIM);
  // token places (an enum member's written name too: placesOf); spans, numbers and lists as rangesOf
  const at = (k: Candidate) => placesOf(f, k, enums);
  const c0 = values[0]!;
  const p0 = p.probs[p.info.candidates.indexOf(c0)]!;
  const pc = p.probs[p.info.candidates.indexOf(c)]!;
  x[0] = 1;
  x[1] = pc / Math.max(1e-9, p0);
  x[2] = pc;
  x[3] = values.some((v) => at(v).some((r) => at(c).some((s) => joinedRanges(f, r, s) || sameFrame(f, r, s)))) ? 1 : 0;
  const pf = pairFeatures(f, p.info, c);
  x[4] = Math.max(pf[2]!, pf[3]!);
  let other = 0;
  for (const q of params) {
    if (q === p) continue;
    q.info.candidates.forEach((d, i) => {
      if (rangesOf(d).some((r) => at(c).some((k) => overlaps(r, k)))) other = Math.max(other, q.probs[i]!);
    });
  }
  x[5] = other;
  const [s0, sc] = [at(c0)[0] ?? [c0.start, c0.end], at(c)[0] ?? [c.start, c.end]];
  x[6] = c.family === "enum" ? (sc[1] - sc[0] === s0[1] - s0[0] ? 1 : 0) : c.end - c.start === c0.end - c0.start ? 1 : 0;
  x[7] = c.quoted === c0.quoted ? 1 : 0;
  x[8] = c.family === "number" ? 1 : 0;
  x[9] = Math.abs(sc[0] - s0[0]) / Math.max(1, f.view.tokens.length);
  x[10] = pf[16]! === pairFeatures(f, p.info, c0)[16]! ? 1 : 0;
  x[11] = values.some((v) => at(v).some((r) => at(c).some((s) => nearFrame(f, r, s)))) ? 1 : 0;
  // how common the span's most common word is in training questions: a further value is seldom an everyday word
  x[12] = c.family === "span" ? pf[38]! : 0;
  // how many other values of the first one's kind the parameter finds plausible (written alike, apart from one
  // another and from the first): several place-like spans in one question are a list more often than not
  x[13] = Math.min(4, plausibleAlike(f, p, c0, p0, enums)) / 4;
  return x;
}

/** Candidates of the parameter written as c0 is, at least 0.3 of its chance, greedily apart from c0 and each other. */
function plausibleAlike(f: FunctionView, p: ScoredParam, c0: Candidate, p0: number, enums = true): number {
  const taken: [number, number][] = [...placesOf(f, c0, enums)];
  let n = 0;
  const ranked = p.probs.map((pr, i) => ({ pr, c: p.info.candidates[i]! })).sort((a, b) => b.pr - a.pr);
  for (const { pr, c } of ranked) {
    if (pr < 0.3 * p0) break;
    if (c === c0 || c.family !== c0.family || c.quoted !== c0.quoted) continue;
    if (c.family === "span" && capitalised(f, c) !== capitalised(f, c0)) continue;
    const at = placesOf(f, c, enums);
    if (c.family === "enum" && at.length === 0) continue;
    if (at.some((r) => taken.some((u) => overlaps(r, u)))) continue;
    taken.push(...at);
    n++;
  }
  return n;
}

/** The ablation baseline: each parameter takes the next unused candidate of its family in question order. */
function assignByOrder(params: readonly ScoredParam[]): Picked[] {
  const used: [number, number][] = [];
  const picked: Picked[] = [];
  for (const p of params) {
    const c = p.info.candidates
      .filter((c) => rangesOf(c).every((r) => used.every((u) => !overlaps(r, u))))
      .sort((a, b) => a.start - b.start || a.end - b.end)[0];
    if (!c || !p.info.required) continue;
    used.push(...rangesOf(c));
    picked.push({ param: p, values: [c] });
  }
  return picked;
}

/**
 * Do the parameters holding several values state them as separate lists, each list whole before the next begins
 * ("Lakers and Bulls in seasons 2018 and 2020")? Then every value of one meets every value of the other (their
 * cross product); values that take turns ("$2000 with a gain of $500, $5000 with a loss of $1000") pair in order.
 */
export function separateLists(picked: readonly Picked[]): boolean {
  const lists = picked.filter((p) => p.values.length > 1).map((p) => p.values.map((v) => v.start));
  if (lists.length < 2) return false;
  for (let i = 0; i < lists.length; i++)
    for (let j = i + 1; j < lists.length; j++) {
      const [a, b] = [lists[i]!, lists[j]!];
      if (!(Math.max(...a) < Math.min(...b) || Math.max(...b) < Math.min(...a))) return false;
    }
  return true;
}

/** The calls of one function from its picked values (several when a parameter holds several). */
export function callsOf(
  name: string,
  picked: readonly Picked[],
  maxCalls: number,
  cross = false,
): { name: string; arguments: Record<string, unknown> }[] {
  if (cross && separateLists(picked)) {
    // every combination, the first parameter's values varying slowest (question order of the lists)
    let rows: Record<string, unknown>[] = [{}];
    const ordered = [...picked].sort((a, b) => a.values[0]!.start - b.values[0]!.start);
    for (const p of ordered) rows = rows.flatMap((r) => p.values.map((v) => ({ ...r, [p.param.info.name]: v.value })));
    return rows.slice(0, maxCalls).map((args) => ({ name, arguments: args }));
  }
  const n = Math.min(maxCalls, Math.max(1, ...picked.map((p) => p.values.length)));
  const calls = [];
  for (let i = 0; i < n; i++) {
    const args: Record<string, unknown> = {};
    for (const p of picked) args[p.param.info.name] = p.values[Math.min(i, p.values.length - 1)]!.value;
    calls.push({ name, arguments: args });
  }
  return calls;
}

export function argumentsOf(
  s: ScoredFunction,
  w: FactoredWeights,
  o: DecideOptions = {},
  allowed?: (c: Candidate) => boolean,
  reserved?: readonly [number, number][],
  foreign?: (c: Candidate) => boolean,
): { name: string; arguments: Record<string, unknown> }[] {
  const more =
    o.parallel === false
      ? undefined
      : {
          weights: w.more,
          threshold: w.moreThreshold,
          commas: o.commas !== false,
          frames: o.frames !== false,
          preferOther: o.preferOther === true,
          reserved,
          enumPlaces: o.enumPlaces !== false,
          segmentFill: (o.segmentFill ?? SEGMENT_FILL_RATIO) > 0 ? (o.segmentFill ?? SEGMENT_FILL_RATIO) : undefined,
          quotedJoins: o.quotedJoins !== false,
          listRuns: o.listRuns !== false,
          pairing: o.pairing === false ? undefined : (o.pairing ?? ENGLISH_PAIRING),
          openers: o.openers !== false,
          flagTurns: o.flagTurns !== false,
          foreign,
          joinedBar: allowed !== undefined && o.joinedPairs !== false ? (o.joinedPairs ?? JOINED_PAIRS) : undefined,
        };
  let picked = o.assigner === "order" ? assignByOrder(s.params) : assignLearned(s.view, s.params, more, allowed);
  // the span owner left a required parameter without a value: that parameter may take a value outside the
  // function's segment, the others stay in it (their values there set how many calls; widen "all": every
  // parameter looks at the whole question again)
  const missing = s.params.filter((p) => p.info.required && p.info.candidates.length > 0 && !picked.some((k) => k.param === p));
  // a parameter whose value in the segment has under 1/widenWeak the chance of its best value outside it looks
  // outside too: a value several functions share is said once, in the first function's part ("the sales growth
  // for company XYZ and the interest coverage for the same years")
  const weak = o.widenWeak ?? WIDEN_WEAK;
  // a value outside the segment, after its start, that another called function takes as a first value in its own
  // is that one's (widened-claims.ts; claimed false: the ablation); the segment starts at its first candidate
  const from = allowed ? Math.min(...s.params.flatMap((p) => p.info.candidates.filter((c) => c.start >= 0 && allowed(c)).map((c) => c.start))) : 0;
  const unclaimed = (c: Candidate) => o.claimed === false || c.start < from || !widenedClaim(c, reserved);
  if (allowed && Number.isFinite(weak)) {
    for (const p of s.params) {
      const pk = picked.find((k) => k.param === p);
      if (!pk || missing.includes(p)) continue;
      const inside = p.probs[p.info.candidates.indexOf(pk.values[0]!)] ?? 0;
      const out = Math.max(0, ...p.probs.filter((_, i) => !allowed(p.info.candidates[i]!) && unclaimed(p.info.candidates[i]!)));
      if (out > weak * inside) missing.push(p);
    }
  }
  if (allowed && o.assigner !== "order" && missing.length > 0) {
    const outside = new Set(missing.flatMap((p) => p.info.candidates.filter(unclaimed)));
    picked =
      o.widen === "all"
        ? assignLearned(s.view, s.params, more)
        : assignLearned(s.view, s.params, more, (c) => allowed(c) || outside.has(c));
  }
  // numbered siblings take one value each of a joined list one of them holds (numbered-siblings.ts)
  if (o.siblings !== false && o.parallel !== false && o.assigner !== "order") picked = withSiblings(s, picked);
  // a lowercase word that repeats the last word of a capitalised name written before it is that name (name-heads.ts)
  if (o.nameHeads !== false) picked = withNameHeads(s, picked);
  // a name followed by ", CA" widens over the code, the code free (comma-codes.ts); one call only
  if (o.commaCodes !== false && picked.every((k) => k.values.length === 1)) picked = withCommaCodes(s, picked);
  // a word written right after a number the call takes is its unit, for an empty optional text parameter (unit-words.ts)
  if (o.unitWords !== false && o.parallel !== false) picked = withUnits(s, picked, o.unitWords ?? UNIT_WORDS);
  // with one call: values in the order their names are listed (name-lists.ts); options the description quotes (described-options.ts)
  if (o.nameLists !== false && picked.every((k) => k.values.length === 1)) picked = withNameLists(s.view, picked);
  // a list parameter alone holding several joined lists: one list, one call (joined-lists.ts)
  if (o.joinedLists !== false) picked = withJoinedLists(s.view, picked);
  if (o.describedOptions !== false && picked.every((k) => k.values.length === 1)) picked = withDescribedOptions(s, picked);
  let calls = callsOf(s.view.tool.function.name, picked, o.parallel === false ? 1 : w.maxCalls, o.cross === true);
  // numbers written in groups, one per required number parameter: one call per group (number-groups.ts)
  const groupShare = o.numberGroups ?? NUMBER_GROUP_SHARE;
  if (groupShare > 0 && o.parallel !== false && calls.length > 0) {
    const numbers = s.params.filter((p) => p.info.required && (p.info.kind.type === "integer" || p.info.kind.type === "number") && !p.info.kind.enumValues);
    const rows = numberGroupCalls(
      numbers.map((p) => ({ name: p.info.name, candidates: p.info.candidates, probs: p.probs })),
      (c) => (allowed ?? (() => true))(c) && !foreign?.(c),
      groupShare,
      o.numberGroupOrder ?? SCHEMA_ORDER_PRIOR,
    );
    if (rows)
      calls = rows.slice(0, w.maxCalls).map((r, i) => ({ name: s.view.tool.function.name, arguments: { ...calls[Math.min(i, calls.length - 1)]!.arguments, ...r } }));
  }
  return calls;
}

/** DecideOptions.docMentions's default: own description words commoner than this in training questions are no mention. */
export const DOC_MENTIONS = 0.6;

const docMentions = (o: DecideOptions): number | undefined => ((o.docMentions ?? DOC_MENTIONS) > 0 ? (o.docMentions ?? DOC_MENTIONS) : undefined);

/** DecideOptions.segmentFill's default. */
export const SEGMENT_FILL_RATIO = 0.05;

/** DecideOptions.leftoverNumbers's default. */
export const LEFTOVER_NUMBERS = 0.01;

/** DecideOptions.orderSwaps's default. */
export const ORDER_SWAPS = 1.5;

/** DecideOptions.emptyNames's default. */
export const EMPTY_NAMES = 0.05;

/** DecideOptions.emptyWords's default. */
export const EMPTY_WORDS = 0.1;

/** Name words commoner than this in training questions name no parameter for name lists (withNameLists; "of", "for", "from" are commoner). */
export const NAME_LIST_COMMON = 0.7;

/**
 * DecideOptions.phrases's default (chosen on BFCL dev: 0.3 until 2026-12-06 17:20 UTC; 0.25 won "pasta carbonara" on
 * both seeds and lost nothing, 0.2 / 0.15 lost parallel_multiple items; DEVELOPMENT_PROBES).
 */
export const PHRASES = 0.25;

/** DecideOptions.units's default. */
export const UNITS = 4;

/** DecideOptions.leftoverNames's default. */
export const LEFTOVER_NAMES = 0.1;

/**
 * DecideOptions.declineBelow's default (chosen on BFCL dev: DEVELOPMENT_PROBES). 0.2, not dev's best 0.15: 0.15 adds
 * 1.75 to the call categories' sum for 1.7 more irrelevance points, and live irrelevance is held back.
 */
export const DECLINE_BELOW = 0.2;

/** DecideOptions.fillFloor's default (chosen on BFCL dev: DEVELOPMENT_PROBES). */
export const FILL_FLOOR = 0.5;

/** Where functionFeatures writes the fill (the mean chance that a required parameter gets a value). */
const FILL_FEATURE = 5;

/** DecideOptions.valueExchanges's default. */
export const VALUE_EXCHANGES = 2;

/** DecideOptions.leftoverQuotes's default (chosen on BFCL dev: 0.1 / 0.2 in DEVELOPMENT_PROBES). */
export const LEFTOVER_QUOTES = 0.1;

/** DecideOptions.joinedPairs's default (chosen on BFCL dev: 0.5 / 0.7 in DEVELOPMENT_PROBES). */
export const JOINED_PAIRS = 0.7;

/** DecideOptions.widenWeak's default. */
export const WIDEN_WEAK = 16;

export const callProbability = (s: ScoredFunction, w: FactoredWeights): number => sigmoid(dot(w.function, s.features));

/** The functions to call, in the order offered; empty to decline. */
export function chooseFunctions(scored: readonly ScoredFunction[], w: FactoredWeights, o: DecideOptions = {}): ScoredFunction[] {
  if (scored.length === 0) return [];
  if (o.onlyFunctions) return scored.filter((s) => o.onlyFunctions!.includes(s.view.tool.function.name));
  if (o.chooser === "cover") {
    const best = scored.reduce((a, b) => (b.features[1]! > a.features[1]! ? b : a));
    return o.gate === false || callProbability(best, w) >= w.callThreshold ? [best] : [];
  }
  const p = scored.map((s) => callProbability(s, w));
  const floor = o.fillFloor ?? FILL_FLOOR;
  // a function whose whole name the question writes is asked for, whatever its chance (written-names.ts)
  const written = writtenFunctions(scored, o);
  let chosen = scored.filter((s, i) => (p[i]! >= w.callThreshold || written.has(s)) && s.features[FILL_FEATURE]! >= floor);
  // several pass: those whose own name words the question mentions, else the most likely alone (a question
  // that names none of them asks for one call, not for every function that could serve it)
  if (chosen.length > 1 && o.mention !== false) {
    const said = mentioned(chosen, docMentions(o), o.writtenNames !== false);
    const named = chosen.filter((_, i) => said[i]);
    chosen = named.length > 0 ? named : [chosen.reduce((a, b) => (p[scored.indexOf(b)]! > p[scored.indexOf(a)]! ? b : a))];
    // of several mentioned, those mentioned by words no other documents, where some are (strict-mentions.ts)
    if (chosen.length > 1 && o.strict !== false) {
      const strict = strictMentions(chosen, docMentions(o));
      if (strict.includes(true)) chosen = chosen.filter((s, i) => strict[i] || written.has(s));
    }
  }
  // none passes: the likeliest past the fill floor, if it clears the lower bar for calling at all (declineBelow)
  const below = o.declineBelow ?? DECLINE_BELOW;
  if (chosen.length === 0 && o.gate !== false && below !== false && below < w.callThreshold) {
    const fillable = scored.filter((s) => s.features[FILL_FEATURE]! >= floor);
    const best = fillable.reduce<ScoredFunction | undefined>((a, b) => (a === undefined || p[scored.indexOf(b)]! > p[scored.indexOf(a)]! ? b : a), undefined);
    if (best && p[scored.indexOf(best)]! >= below) return [best];
  }
  if (chosen.length > 0 || o.gate !== false) return chosen;
  return [scored[p.indexOf(Math.max(...p))]!];
}

const segmentShape = (o: DecideOptions) => ({
  clauses: o.clauseStarts !== false,
  clusters: o.mentionClusters !== false,
  openers: o.openerSegments !== false,
  written: o.writtenNames !== false,
});

/**
 * Which of several called functions owns each token of the question (-1 everywhere: some function is not
 * mentioned), as decoding cuts the question into their segments: spanOwners, then a sentence that mentions one
 * function alone is that function's (sentence-owners.ts). Also read by training on written questions.
 */
export function callSegments(chosen: readonly ScoredFunction[], o: DecideOptions = {}): number[] {
  const owner = spanOwners(chosen, docMentions(o), segmentShape(o));
  if (owner[0] === -1 || o.sentenceOwners === false) return owner;
  const names = chosen.map((s) => new Set(nameWords(s.view.tool.function.name).map(stemOf)));
  const own = names.map((n, i) => new Set([...n].filter((x) => names.every((m, j) => j === i || !m.has(x)))));
  return sentenceOwners(chosen[0]!.view.view.tokens, sentenceRanges(chosen[0]!.view.view.tokens), own, owner);
}

export function decide(
  tools: readonly ToolJson[],
  question: string,
  w: FactoredWeights,
  stats: WordStats,
  joiners: ReadonlySet<string>,
  o: DecideOptions = {},
): { name: string; arguments: Record<string, unknown> }[] {
  if (o.nested !== false) {
    const byName = new Map(tools.map((t) => [t.function.name, t]));
    return decide(tools.map(flattenTool), question, w, stats, joiners, { ...o, nested: false }).map((c) => {
      const tool = byName.get(c.name);
      return tool ? { name: c.name, arguments: nestArguments(tool, c.arguments) } : c;
    });
  }
  const scored = scoreFunctions(tools, question, w, stats, joiners, o);
  const chosen = chooseFunctions(scored, w, o);
  const shape = segmentShape(o);
  const owner = chosen.length > 1 && o.segment !== false ? callSegments(chosen, o) : undefined;
  const allowed = (i: number) => owner && ((c: Candidate) => c.start < 0 || owner[c.start] === i);
  // several functions: the spans each takes as first values are spent, no other function's further values
  const firsts =
    chosen.length > 1 && o.exclusive !== false && o.assigner !== "order"
      ? chosen.map((s, i) => assignLearned(s.view, s.params, undefined, allowed(i)).flatMap((k) => k.values.flatMap(rangesOf)))
      : undefined;
  // a function named again after another's mention: a segment per mention (repeated-mentions.ts)
  const repeated = owner && owner[0] !== -1 && o.repeatMentions !== false && o.assigner !== "order" ? repeatedCalls(chosen, w, o, shape.clauses) : undefined;
  // values another called function's parameter names beside them, none of this one's (foreignNamed)
  const foreign = (i: number) => (o.foreignNames !== false && chosen.length > 1 ? foreignNamed(chosen, i) : undefined);
  const calls = repeated ?? chosen.map((s, i) => argumentsOf(s, w, o, allowed(i), firsts?.flatMap((r, j) => (j === i ? [] : r)), foreign(i)));
  if (o.shared !== false && chosen.length > 1)
    shareValues(chosen, calls, new Set(chosen[0]!.view.view.quoted.map((q) => q.text)));
  // a call that lacks a required argument is no call the schema allows: made only where it would be the only one (whole-calls.ts)
  if (o.wholeCalls !== false)
    return wholeCalls(calls, chosen.map((s) => s.params.filter((p) => p.info.required).map((p) => p.info.name)), o.wholeCalls === "always").flat();
  return calls.flat();
}

/** How near (features.ts windowMatch: 1 beside, 0.6 a word away) another function's parameter name must stand to claim a value. */
export const FOREIGN_CUE = 0.6;

/**
 * Foreign names: with several functions called, a value that another called function's parameter names right beside
 * it ("a density of 5.2" for calculate_cone_mass's density), while no parameter of function `i` is named as near, is no
 * further value or number group of `i`'s (a question that sets the scene before its requests).
 */
export function foreignNamed(chosen: readonly ScoredFunction[], i: number): (c: Candidate) => boolean {
  const f = chosen[i]!.view;
  const mine = chosen[i]!.params.map((p) => p.info.nameStems);
  const theirs = chosen.flatMap((s, j) => (j === i ? [] : s.params.map((p) => p.info.nameStems))).filter((st) => !mine.some((m) => [...st].every((x) => m.has(x))));
  const cue = (stems: Set<string>, c: Candidate) => Math.max(windowMatch(f, stems, c.start - 1, -1, false), windowMatch(f, stems, c.end, 1, false));
  return (c) => {
    if (c.start < 0) return false;
    const other = Math.max(0, ...theirs.map((st) => cue(st, c)));
    return other >= FOREIGN_CUE && mine.every((st) => cue(st, c) < other);
  };
}

/**
 * The calls where a function is named again after another's mention (repeated-mentions.ts): one segment per
 * mention, each segment that holds its function's values read as that function's own; undefined where the
 * segments stay one per function.
 */
function repeatedCalls(
  chosen: readonly ScoredFunction[],
  w: FactoredWeights,
  o: DecideOptions,
  clauses: boolean,
): { name: string; arguments: Record<string, unknown> }[][] | undefined {
  const tokens = chosen[0]!.view.view.tokens;
  const names = chosen.map((s) => new Set(nameWords(s.view.tool.function.name).map(stemOf)));
  const own = names.map((n, i) => new Set([...n].filter((x) => names.every((m, j) => j === i || !m.has(x)))));
  const cut = (events: readonly MentionEvent[]) => {
    const places = events.map((e) => e.at);
    const owner = segmentOwners(tokens.length, clauses ? shapedStarts(tokens, chosen[0]!.view.view.joiners, places, o.openerSegments !== false) : places);
    const allowed = (j: number) => (c: Candidate) => c.start < 0 || owner[c.start] === j;
    const firsts = events.map((e, j) => assignLearned(chosen[e.fn]!.view, chosen[e.fn]!.params, undefined, allowed(j)).flatMap((k) => k.values.flatMap(rangesOf)));
    const others = (j: number) => firsts.flatMap((r, k) => (k === j ? [] : r));
    // a segment holds a call where it has every required value of its function, none another segment's first
    const holds = events.map((e, j) => {
      const s = chosen[e.fn]!;
      const inside = (c: Candidate) => c.start >= 0 && owner[c.start] === j && rangesOf(c).every((r) => others(j).every((u) => !overlaps(r, u)));
      const held = assignLearned(s.view, s.params, undefined, inside);
      return s.params.every((p) => !p.info.required || p.info.candidates.length === 0 || held.some((k) => k.param === p));
    });
    return { allowed, others, holds };
  };
  const picked = repeatedSegments(mentionEvents(tokens, own), chosen.length, (events) => cut(events).holds);
  if (!picked) return undefined;
  const seg = cut(picked.events);
  const out: { name: string; arguments: Record<string, unknown> }[][] = chosen.map(() => []);
  picked.events.forEach((e, j) => {
    if (!picked.holds[j]) return;
    // a call another segment of the same function already gives is no further call
    for (const c of argumentsOf(chosen[e.fn]!, w, o, seg.allowed(j), seg.others(j)))
      if (!out[e.fn]!.some((d) => JSON.stringify(d.arguments) === JSON.stringify(c.arguments))) out[e.fn]!.push(c);
  });
  return out;
}

/**
 * With several functions called, which one each token's values belong to: the question read as one segment per
 * function, each from the first mention of the function's own name words (those no other chosen function's
 * name has) to the next function's; -1 for every token when some function's name is not mentioned. `shape`
 * (segment-shape.ts): clusters, mentioned where most of its own name words stand together; clauses, a later
 * segment starts after the last clause break before its mention (decoding sets both; training neither).
 */
export function spanOwners(
  chosen: readonly ScoredFunction[],
  docs?: number,
  shape: { clauses?: boolean; clusters?: boolean; openers?: boolean; written?: boolean } = {},
): number[] {
  const tokens = chosen[0]!.view.view.tokens;
  const places = mentionPlaces(chosen, docs, shape.clusters === true, shape.written === true);
  if (places.some((at) => at < 0)) return tokens.map(() => -1);
  // shape.clauses: a later function's segment starts after the clause break before its mention (segment-shape.ts)
  const first = shape.clauses === true ? shapedStarts(tokens, chosen[0]!.view.view.joiners, places, shape.openers === true) : places;
  const order = first.map((at, i) => ({ at, i })).sort((a, b) => a.at - b.at);
  return tokens.map((_, k) => {
    let owner = order[0]!.i;
    for (const o of order) if (o.at <= k) owner = o.i;
    return owner;
  });
}

/**
 * Where each function is first mentioned (-1: nowhere): its own name words (those no other of them has); with
 * `docs`, else its own description words (those no other's name or description has) less common than `docs` in
 * training questions ("the greatest common divisor" for calculate_gcd); with `written`, else where the question writes
 * its whole name (written-names.ts).
 */
export function mentionPlaces(chosen: readonly ScoredFunction[], docs?: number, clusters = false, written = false): number[] {
  const tokens = chosen[0]!.view.view.tokens;
  const whole = written ? writtenNamePlaces(tokens, chosen.map((s) => s.view.tool.function.name)) : undefined;
  const names = chosen.map((s) => new Set(nameWords(s.view.tool.function.name).map(stemOf)));
  const own = names.map((n, i) => new Set([...n].filter((x) => names.every((m, j) => j === i || !m.has(x)))));
  const words = chosen.map((s) => s.view.toolStems);
  return own.map((o, i) => {
    // clusters: where most of its own name words stand together (segment-shape.ts)
    const at = clusters ? clusteredPlace(tokens, o) : tokens.findIndex((t) => o.has(t.stem));
    if (at < 0 && whole && whole[i]!.length > 0) return whole[i]![0]!;
    if (at >= 0 || docs === undefined) return at;
    const stats = chosen[i]!.view.stats;
    const mine = new Set([...words[i]!].filter((x) => (stats.get(x) ?? 0) < docs && words.every((m, j) => j === i || !m.has(x))));
    return tokens.findIndex((t) => mine.has(t.stem));
  });
}

/** Whether each function's own name words (those no other of them has; with `docs`, its own rarer description words) appear in the question. */
export function mentioned(chosen: readonly ScoredFunction[], docs?: number, written = false): boolean[] {
  return mentionPlaces(chosen, docs, false, written).map((at) => at >= 0);
}

/** The functions whose whole name the question writes (written-names.ts); none with DecideOptions.writtenNames false. */
function writtenFunctions(scored: readonly ScoredFunction[], o: DecideOptions): Set<ScoredFunction> {
  // a scored function built without its question (a stub) names nothing
  const tokens = (scored[0]?.view as Partial<FunctionView> | undefined)?.view?.tokens;
  if (o.writtenNames === false || tokens === undefined) return new Set();
  const places = writtenNamePlaces(tokens, scored.map((s) => s.view.tool.function.name));
  return new Set(scored.filter((_, i) => places[i]!.length > 0));
}

/**
 * Is a span written as a name, for further values (DecideOptions.openers): a word of it starts with a capital letter,
 * the first word of a sentence counting only where it is the span's only word ("Can you tell" opens a question, it is
 * no name; "Paris" alone may be one).
 */
export function namedSpan(tokens: readonly QToken[], start: number, end: number): boolean {
  if (start < 0) return false;
  const words = tokens.slice(start, end);
  const upper = (k: QToken) => k.capital || /^\p{Lu}/u.test(k.text);
  // a sentence's first word is written with a capital whatever it is (QToken.capital is false there)
  return words.some((k, i) => upper(k) && (k.capital || i > 0 || words.length === 1));
}

/** Does a span hold a word that starts with a capital letter? */
const capitalised = (f: FunctionView, c: Candidate): boolean =>
  c.start >= 0 && f.view.tokens.slice(c.start, c.end).some((k) => k.capital || /^\p{Lu}/u.test(k.text));

/** `picked` with a text parameter's lowercase head word replaced by the capitalised name it repeats (name-heads.ts). */
function withNameHeads(s: ScoredFunction, picked: Picked[]): Picked[] {
  return picked.map((k) => {
    const kind = k.param.info.kind;
    if (kind.type !== "string" || kind.enumValues || k.values.length !== 1) return k;
    const at = headNamed(s.view.view.tokens, k.values[0]!, k.param.info.candidates);
    return at < 0 ? k : { ...k, values: [k.param.info.candidates[at]!] };
  });
}

/** `picked` with a text value followed by ", CA" widened over the code where no other value holds it (comma-codes.ts). */
function withCommaCodes(s: ScoredFunction, picked: Picked[]): Picked[] {
  const v = s.view.view;
  const used = picked.flatMap((k) => k.values.flatMap(rangesOf));
  return picked.map((k) => {
    const c = k.values[0]!;
    const kind = k.param.info.kind;
    if (kind.type !== "string" || kind.enumValues || c.family !== "span" || c.quoted || c.start < 0) return k;
    const whole = commaCode(v.tokens, c.start, c.end, (r) => used.every((u) => !overlaps(r, u)));
    if (!whole) return k;
    const [a, b] = whole;
    used.push(whole);
    return { ...k, values: [{ family: "span", value: v.question.slice(v.tokens[a]!.start, v.tokens[b - 1]!.end), start: a, end: b, quoted: false }] };
  });
}

/** `picked` with empty optional text parameters given the units written after the call's numbers (unit-words.ts). */
/** The values of numbered siblings dealt one each from a joined list one of them holds (numbered-siblings.ts). */
function withSiblings(s: ScoredFunction, picked: Picked[]): Picked[] {
  const f = s.view;
  let out = picked;
  for (const g of siblingGroups(s.params.map((p) => ({ name: p.info.name, type: p.info.kind.type })))) {
    const members = g.map((i) => s.params[i]!);
    const held = members.map((p) => out.find((k) => k.param === p)?.values);
    // joined by commas or joiner words, or in the same frame ("a human and a chimp")
    const joined = (a: Candidate, b: Candidate) =>
      linkOf(f, placesOf(f, a), placesOf(f, b)) !== undefined || placesOf(f, a).some((r) => placesOf(f, b).some((q) => sameFrame(f, r, q)));
    const dealt = dealSiblings(held, joined);
    if (!dealt) continue;
    out = [...out.filter((k) => !members.includes(k.param)), ...members.map((p, i) => ({ param: p, values: dealt[i]! }))];
  }
  return out;
}

function withUnits(s: ScoredFunction, picked: Picked[], minRatio: number): Picked[] {
  const numeric = picked.filter((k) => k.values.every((v) => v.family === "number" && v.start >= 0));
  if (numeric.length === 0) return picked;
  const anchor = numeric.reduce((a, b) => (b.values.length > a.values.length ? b : a));
  const empty = s.params.filter((p) => !p.info.required && p.info.kind.type === "string" && !p.info.kind.enumValues && !picked.some((k) => k.param === p));
  // several calls only: one call's unit is as often left to the parameter's default (simple_python_107, 222 lost)
  if (empty.length === 0 || anchor.values.length < 2) return picked;
  const units = unitWords(
    s.view.view.tokens,
    anchor.values.map((v) => [v.start, v.end]),
    empty.map((p) => ({ candidates: p.info.candidates, probs: p.probs, pNull: p.pNull })),
    minRatio,
  );
  const taken = new Set<string>();
  const out = [...picked];
  units.forEach((u, i) => {
    // one parameter per unit word
    if (!u || taken.has(String(u[0]!.start))) return;
    taken.add(String(u[0]!.start));
    out.push({ param: empty[i]!, values: u });
  });
  return out;
}

/** A list parameter alone holding several lists, each joined to the next, holds them as one (joined-lists.ts). */
function withJoinedLists(f: FunctionView, picked: Picked[]): Picked[] {
  const several = picked.filter((k) => k.values.length > 1);
  if (several.length !== 1 || several[0]!.param.info.kind.type !== "array") return picked;
  const k = several[0]!;
  const one = joinedList(k.values, (a, b) => linkOf(f, placesOf(f, a), placesOf(f, b)) !== undefined);
  return one ? picked.map((x) => (x === k ? { param: k.param, values: [one] } : x)) : picked;
}

/**
 * Names listed, then values listed: each parameter of one family takes the value at its name's place (name-lists.ts).
 * A name word counts where it names one parameter alone and is no joiner and no everyday word (commoner than
 * NAME_LIST_COMMON in training questions: "of" in number_of_trials).
 */
function withNameLists(f: FunctionView, picked: Picked[]): Picked[] {
  const t = f.view.tokens;
  let out = picked;
  for (const family of ["number", "span"] as const) {
    const group = out.filter((k) => k.values[0]!.family === family && k.values[0]!.start >= 0 && !k.param.info.kind.enumValues);
    if (group.length < 2) continue;
    const mention = (i: number) => {
      const k = t[i]!;
      if (k.kind !== "word" || f.view.joiners.has(k.lower) || (f.stats.get(k.stem) ?? 0) >= NAME_LIST_COMMON) return -1;
      const at = group.flatMap((g, j) => (g.param.info.nameStems.has(k.stem) ? [j] : []));
      return at.length === 1 ? at[0]! : -1;
    };
    const order = namedOrder(t, f.view.joiners, group.map((g) => ({ start: g.values[0]!.start })), mention);
    if (!order) continue;
    const own = (k: Picked, c: Candidate) => k.param.info.candidates.find((d) => d.family === c.family && d.start === c.start && d.end === c.end);
    const next = group.map((g, j) => own(g, group[order[j]!]!.values[0]!));
    if (next.some((c) => c === undefined)) continue;
    out = out.map((k) => (group.includes(k) ? { param: k.param, values: [next[group.indexOf(k)]!] } : k));
  }
  return out;
}

/** With one call, a text parameter takes the option its description quotes that the question writes (described-options.ts). */
function withDescribedOptions(s: ScoredFunction, picked: Picked[]): Picked[] {
  const t = s.view.view.tokens;
  const chars = (k: Picked) => k.values.flatMap(rangesOf).map(([a, b]) => [t[a]!.start, t[b - 1]!.end] as [number, number]);
  let out = picked;
  for (const p of s.params) {
    if (p.info.kind.type !== "string" || p.info.kind.enumValues) continue;
    const options = describedOptions(String((p.info.schema as { description?: unknown }).description ?? ""));
    if (options.length === 0) continue;
    const held = out.find((k) => k.param === p);
    const spent = out.filter((k) => k !== held).flatMap(chars);
    const option = writtenOption(s.view.view.question, options, held?.values[0]!.value, spent);
    if (option === undefined) continue;
    const value: Candidate = { family: "span", value: option, start: -1, end: -1, quoted: false };
    out = held ? out.map((k) => (k === held ? { param: p, values: [value] } : k)) : [...out, { param: p, values: [value] }];
  }
  return out;
}

/**
 * The joint assignment's picks after value exchanges (value-exchanges.ts): `picked` and `used` rewritten in place;
 * picks with several values and those a named run took stay as they are.
 */
function exchangePicked(
  f: FunctionView,
  params: readonly ScoredParam[],
  picked: Picked[],
  fixed: ReadonlySet<Picked>,
  used: [number, number][],
  spent: (c: Candidate) => [number, number][],
  may: (p: ScoredParam, c: Candidate) => boolean,
  margin: number,
): void {
  const pickOf = params.map((p) => picked.find((k) => k.param === p));
  const slots = params.map((p, i) => {
    const k = pickOf[i];
    return {
      required: p.info.required,
      probs: p.probs,
      pNull: p.pNull,
      at: k && k.values.length === 1 ? p.info.candidates.indexOf(k.values[0]!) : -1,
      fixed: k !== undefined && (fixed.has(k) || k.values.length !== 1 || p.info.candidates.indexOf(k.values[0]!) < 0),
    };
  });
  const same = (a: Candidate, b: Candidate) => a.family === b.family && a.start === b.start && a.end === b.end && JSON.stringify(a.value) === JSON.stringify(b.value);
  const held = (at: readonly number[], skip: number) =>
    params.flatMap((p, i) => (i === skip ? [] : slots[i]!.fixed && pickOf[i] ? pickOf[i]!.values.flatMap(spent) : at[i]! >= 0 ? spent(p.info.candidates[at[i]!]!) : []));
  const at = exchangeValues(
    slots,
    {
      sameAs: (from, cand, to) => {
        const c = params[from]!.info.candidates[cand]!;
        return c.start < 0 ? -1 : params[to]!.info.candidates.findIndex((d) => same(c, d));
      },
      fits: (slot, cand, now) => {
        const c = params[slot]!.info.candidates[cand]!;
        if (!may(params[slot]!, c)) return false;
        const others = held(now, slot);
        return spent(c).every((r) => others.every((u) => !overlaps(r, u)));
      },
    },
    margin,
  );
  if (at.every((a, i) => a === slots[i]!.at)) return;
  params.forEach((p, i) => {
    if (slots[i]!.fixed || at[i] === slots[i]!.at) return;
    const k = pickOf[i];
    if (at[i]! < 0) {
      if (k) picked.splice(picked.indexOf(k), 1);
    } else if (k) k.values = [p.info.candidates[at[i]!]!];
    else picked.push({ param: p, values: [p.info.candidates[at[i]!]!] });
  });
  used.length = 0;
  for (const k of picked) for (const v of k.values) used.push(...spent(v));
}

/** Segment starts after clause breaks (segment-shape.ts), with `openers` moved back to sentence openers (opener-segments.ts). */
function shapedStarts(tokens: readonly QToken[], joiners: ReadonlySet<string>, places: readonly number[], openers: boolean): number[] {
  const starts = clauseStarts(tokens, joiners, places);
  return openers ? openerStarts(tokens, places, starts) : starts;
}
