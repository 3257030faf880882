// A small catalog (12 tools) with four training questions each and one held-out question each.
import type { CatalogEntry, LabelledQuery } from "toolgen";

const TOOLS: Array<[name: string, description: string, train: string[], heldOut: string]> = [
  [
    "get_weather",
    "Current weather and temperature in a city",
    [
      "what is the weather in paris",
      "is it cold in oslo today",
      "temperature in rome now",
      "how warm is it in madrid",
    ],
    "weather in berlin please",
  ],
  [
    "convert_currency",
    "Convert money between currencies at today's exchange rate",
    [
      "how many euros is 50 dollars",
      "convert 100 pounds to yen",
      "exchange rate dollar to euro",
      "change 20 francs into dollars",
    ],
    "convert 10 euros to pounds",
  ],
  [
    "translate_text",
    "Translate text into another language",
    [
      "translate hello into spanish",
      "how do you say thanks in german",
      "translate this sentence to french",
      "what is cat in italian",
    ],
    "translate good night into spanish",
  ],
  [
    "set_alarm",
    "Set an alarm clock for a time",
    ["wake me up at 7", "set an alarm for 6 30", "alarm at noon please", "set my alarm for tomorrow 8 am"],
    "set an alarm for 5 am",
  ],
  [
    "send_email",
    "Send an email to a contact",
    [
      "email bob about the meeting",
      "send a mail to alice",
      "write an email to my boss",
      "send an email saying i am late",
    ],
    "send an email to carol",
  ],
  [
    "play_music",
    "Play a song, artist or playlist",
    ["play some jazz", "put on the beatles", "play my running playlist", "i want to hear a song by adele"],
    "play some music by queen",
  ],
  [
    "book_flight",
    "Book a flight between two airports",
    [
      "book a flight to london",
      "fly from paris to new york",
      "i need a plane ticket to tokyo",
      "reserve a flight for monday",
    ],
    "book a flight to rome",
  ],
  [
    "find_recipe",
    "Find a recipe for a dish",
    ["how do i cook lasagna", "recipe for pancakes", "what can i cook with eggs", "find a soup recipe"],
    "a recipe for chocolate cake",
  ],
  [
    "stock_price",
    "Latest stock price of a company",
    [
      "price of apple stock",
      "how is tesla trading",
      "share price of microsoft",
      "what is the nvidia stock at",
    ],
    "amazon stock price",
  ],
  [
    "calculate",
    "Evaluate an arithmetic expression",
    ["what is 12 times 7", "compute 3 plus 4", "calculate 100 divided by 8", "square root of 81"],
    "what is 9 times 9",
  ],
  [
    "news_headlines",
    "Today's news headlines on a topic",
    [
      "latest news about football",
      "what happened in politics today",
      "show me tech headlines",
      "any breaking news",
    ],
    "news about science today",
  ],
  [
    "find_restaurant",
    "Find restaurants near a place",
    [
      "where can i eat sushi nearby",
      "italian restaurant near me",
      "a good place for dinner downtown",
      "find a cheap pizza place",
    ],
    "restaurants near the station",
  ],
];

export const CATALOG: CatalogEntry[] = TOOLS.map(([name, description]) => ({
  id: name,
  tool: name,
  api: name,
  description,
  parameters: { type: "object", properties: {} },
  doc: { name, description },
}));
const labelled = (pick: (t: (typeof TOOLS)[number]) => string[]): LabelledQuery[] =>
  TOOLS.flatMap((t) => pick(t).map((query) => ({ query, relevant: [t[0]] })));
export const TRAIN_QUERIES = labelled((t) => t[2]);
export const HELD_OUT = labelled((t) => [t[3]]);
