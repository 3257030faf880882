import type { CatalogEntry, LabelledQuery } from "../../src/catalog/catalog.ts";

const TOPICS: Array<[string, string, string[]]> = [
  ["weather", "Forecast", ["rain", "forecast", "temperature"]],
  ["stocks", "Quote", ["stock", "shares", "ticker"]],
  ["movies", "Showtimes", ["movie", "cinema", "film"]],
  ["recipes", "Search", ["recipe", "cook", "dinner"]],
  ["flights", "Status", ["flight", "airline", "departure"]],
  ["hotels", "Book", ["hotel", "room", "stay"]],
  ["translate", "Text", ["translate", "spanish", "language"]],
  ["currency", "Convert", ["euros", "dollars", "exchange"]],
  ["news", "Headlines", ["news", "headlines", "breaking"]],
  ["music", "Lyrics", ["song", "lyrics", "singer"]],
  ["maps", "Directions", ["route", "directions", "drive"]],
  ["jobs", "Listings", ["job", "hiring", "career"]],
  ["fitness", "Workout", ["workout", "exercise", "gym"]],
  ["books", "Reviews", ["book", "novel", "author"]],
  ["crypto", "Price", ["bitcoin", "crypto", "coin"]],
  ["sports", "Scores", ["score", "match", "team"]],
  ["email", "Send", ["email", "inbox", "message"]],
  ["calendar", "Events", ["meeting", "calendar", "schedule"]],
  ["shopping", "Deals", ["discount", "deal", "buy"]],
  ["health", "Symptoms", ["symptom", "doctor", "fever"]],
];
const FRAMES = [
  "can you check the {0} {1} please",
  "i need the {1} for my {0}",
  "show me {2} and {0} now",
  "what {0} {2} is there",
  "help me with {1} {2} today",
];

/** A 20-tool catalog with 5 templated queries per tool, each tool with its own words. */
export function syntheticCatalog(): { entries: CatalogEntry[]; queries: LabelledQuery[] } {
  const entries: CatalogEntry[] = TOPICS.map(([tool, api, words]) => ({
    id: `${tool}&&${api}`,
    tool,
    api,
    category: "Synthetic",
    description: `${api} for ${tool}: ${words.join(", ")}.`,
    parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
    doc: {},
  }));
  const queries = TOPICS.flatMap(([tool, api, words]) =>
    FRAMES.map((f) => ({
      query: f.replace("{0}", words[0]!).replace("{1}", words[1]!).replace("{2}", words[2]!),
      relevant: [`${tool}&&${api}`],
    })),
  );
  return { entries, queries };
}
