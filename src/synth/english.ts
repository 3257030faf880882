/**
 * The English surface policy of the question generator: knowledge written by hand, not learnt and not keyed to
 * any tool. Number words, month names, the courtesy people add to requests, the words that join two requests,
 * and a short list of verbs that tell a description's verb phrase ("Get the …") from a noun phrase
 * ("Weather forecast for …"). A generator for another language replaces this file.
 */
export { ONES, TENS, numberWords } from "../text/english-numbers.ts";

export const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

export const REQUEST_PREFIXES = [
  "please ",
  "can you ",
  "could you ",
  "pls ",
  "hey, ",
  "kindly ",
  "I need you to ",
];
export const REQUEST_SUFFIXES = [" please", " for me", " thanks", " pls", ", thank you"];
export const QUESTION_PREFIXES = ["hey, ", "quick question: ", "hi! ", "ok so "];
/** Wants: "I want to <verb phrase>". */
export const WANTS = ["I want to", "I need to", "I'd like to", "help me", "I have to", "let's"];
/** Asks: "can you <verb phrase>?". */
export const ASKS = ["can you", "could you", "would you", "is it possible to", "will you"];
/** Asking for a noun phrase: "show me <noun phrase>". */
export const NOUN_ASKS = ["show me", "I need", "get me", "I'd like", "give me", "find"];

/** Two requests in one question: first, joiner, second. */
export const JOINERS = [" and then ", ". Also, ", "; then ", ", and also ", " and ", ". After that, "];
/**
 * Marked links (SynthOptions.linkMarkShare): a link word set off by a mark before the next request, as people
 * write "…, and finally, can you …" or "…; also; …". Written so that a plain word sits right before a comma or
 * semicolon and is no value, where the plain JOINERS never put a mark after a word.
 */
export const LINK_LEADS = [" ", ", ", "; ", ". "];
export const LINK_WORDS = [
  "and then",
  "then",
  "and finally",
  "finally",
  "also",
  "and also",
  "after that",
  "next",
  "lastly",
  "additionally",
  "besides that",
  "on top of that",
];
export const LINK_MARKS = [", ", "; ", ": ", " - "];
/** What may follow a marked link before the request: nothing, or an ask. */
export const LINK_ASKS = ["", "", "can you ", "could you ", "please ", "I also need you to "];
/** Values set out before the requests that use them: "<opening> density 5.2 and mass 3. Compute the volume". */
export const SETUP_OPENINGS = ["Given ", "Suppose ", "I have ", "We have ", "Say ", "Take "];
export const SETUP_CLOSES = [". ", "; ", ", ", ". Now "];
/** A value said once for two requests, at the end ("… and the time, both for city X") or before them. */
export const SHARED_ENDS = [" for ", " with ", ", both for ", ", both with ", ", each for "];
export const SHARED_OPENINGS = ["For ", "With ", "Using ", "Both for "];
/** A later request pointing back to an earlier one's value: "… and then convert that amount". */
export const REFERENCES = ["for the same", "with the same", "using the same", "for that", "with that"];
export const REFERENCE_JOINERS = [", and then ", " and then ", ". Then ", ", then ", "; after that "];
/** The same tool again with other values. */
export const AGAIN = [", and again ", ", then the same ", "; also do it ", ", and once more "];

/**
 * Verbs a tool's description often starts with, in the base form. A description whose first word is one of these
 * (or its third-person form) is a verb phrase; otherwise it is read as a noun phrase.
 */
export const VERBS: ReadonlySet<string> = new Set(
  (
    "get fetch retrieve return search find list look lookup check calculate compute convert create add make " +
    "send post delete remove update set generate translate validate verify query provide give show display " +
    "obtain download upload extract analyze analyse detect predict estimate count track monitor book order " +
    "schedule cancel play read write open parse format compare recommend suggest summarize summarise identify " +
    "determine measure scan resolve load save store register subscribe shorten encode decode filter sort " +
    "access allow enable explore discover learn plan buy sell rate review locate map draw render classify " +
    "evaluate solve simulate forecast apply perform run execute fit train test conduct implement invoke " +
    "trigger request receive collect gather assess inspect explain describe tell answer design prepare " +
    "organize organise manage handle process reverse split merge join match rank score grade sum multiply " +
    "divide round simplify expand integrate differentiate approximate hash encrypt decrypt ping begin start stop chat talk meet speak play watch listen"
  ).split(" "),
);

/** What a user asks for where a description says what the tool does ("returns the weather" → "get the weather"). */
const USER_VERBS: Readonly<Record<string, string>> = { return: "get", provide: "get" };

/** A third-person verb ("retrieves", "searches", "queries") in its base form, or undefined if it is not one. */
export function baseVerb(word: string): string | undefined {
  const w = word.toLowerCase();
  const base = baseForm(w);
  return base === undefined ? undefined : (USER_VERBS[base] ?? base);
}

function baseForm(w: string): string | undefined {
  if (VERBS.has(w)) return w;
  const candidates = [
    w.endsWith("ies") ? `${w.slice(0, -3)}y` : undefined,
    w.endsWith("es") ? w.slice(0, -2) : undefined,
    w.endsWith("s") ? w.slice(0, -1) : undefined,
  ];
  return candidates.find((c) => c !== undefined && VERBS.has(c));
}

/** How a description opens before its verb ("This API returns …", "Use this endpoint to …"). */
export const DESCRIPTION_OPENINGS: readonly RegExp[] = [
  /^(?:use|call) (?:this|the) (?:api|endpoint|tool|function|method|service|plugin) (?:to|for) /i,
  /^(?:this|the|an?|our) (?:(?:web|rest|http|simple|main|search) )?(?:api|endpoint|tool|function|method|service|plugin|route|call|request)(?: (?:method|call))?(?: (?:will|can|that|which|is used to|can be used to|allows you to|allows users to|lets you|helps you|helps to|is for|to|simply|just))* /i,
  /^\w+ (?:endpoint|api|method|function|tool|route) (?:can be used to|is used to|will|that|which|lets you|allows you to) /i,
  /^(?:used to|allows you to|allows users to|lets you|helps you|helps to|you can|it|endpoint to|api to|will) /i,
];

/**
 * Words that put a value in a sentence without naming its parameter ("in Lisbon", "from 2 to 5", "of Apple"):
 * how people write most values (plainPhrasing).
 */
export const VALUE_PREPOSITIONS = [
  "in",
  "at",
  "from",
  "to",
  "on",
  "of",
  "for",
  "about",
  "by",
  "near",
  "under",
  "between",
];
/** The generator's own words around a parameter's name in a clause ("with city …", "where city is …"). */
export const CLAUSE_LEADS = ["with", "where", "setting", "using", "a", "the"];
export const CLAUSE_LINKS = ["is", "to", "of", "as"];
