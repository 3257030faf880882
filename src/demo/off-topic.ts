import type { Rng } from "../nn/rng.ts";
import { madeUpName, madeUpWord } from "./made-up-names.ts";
import { pickOne } from "./surface.ts";

/**
 * Questions none of the demo's tools can answer, for training the decline (Finish with give_up_and_restart):
 * facts, news, opinions, chat, and actions in the world. Several name things the tools know about (cities,
 * numbers, quoted text, dates), so the model learns that a city or a number alone does not make a tool call.
 * None is a question of a hand-written set (test/demo/held-out-overlap.test.ts): "who painted the Mona Lisa"
 * and "how many moons does Jupiter have", questions of sets 3 and 2, were dropped on 2026-12-03.
 */
export const FIXED_OFF_TOPIC: readonly string[] = [
  "who wrote Hamlet?",
  "what is the tallest mountain in the world",
  "how tall is the Eiffel Tower?",
  "what's the best programming language?",
  "can you write me a short story",
  "sing me a song",
  "what should I cook for dinner tonight?",
  "give me a recipe for pancakes",
  "how do I fix a flat bike tyre",
  "what's the latest news",
  "who is going to win the election?",
  "call my mom",
  "text Ana that I'm on my way",
  "remind me to buy milk tomorrow",
  "schedule a meeting with Bob on Monday",
  "what is love?",
  "do you have feelings?",
  "what's your name?",
  "hi",
  "hello there",
  "good morning!",
  "thanks, bye",
  "what can you do?",
  "explain quantum physics simply",
  "why is the sky blue?",
  "who invented the telephone",
  "what is the speed of light",
  "how old is the universe?",
  "how many people live in Tokyo?",
  "what language do they speak in Brazil",
  "what's the exchange rate from dollars to euros",
  "how much is a bitcoin worth today",
  "open Spotify",
  "take a screenshot",
  "delete all my emails",
  "turn the volume up",
  "what's trending on twitter",
  "summarize the news for me",
  "is it going to rain today",
  "what's the traffic like on the way to work",
  "find me a cheap hotel",
  "what movies are playing tonight",
  "what's a good name for a dog",
  "tell me something interesting",
  "how do I learn to play guitar",
  "what is the best pizza topping",
  "who won the game last night",
  "what year did World War II end?",
  "how do airplanes fly",
  "describe the color blue",
  "what's 2 + 2 in binary", // a number question no tool answers
  "draw a picture of a horse",
  "how do I get to the airport",
  "write an essay about climate change",
  "what's the square footage of my house",
  "what does my horoscope say",
  "can you lend me some money",
  "how many calories are in a banana",
];

const WEATHER_PLACES = [
  "Paris",
  "London",
  "Tokyo",
  "New York",
  "Berlin",
  "Madrid",
  "Sydney",
  "Cairo",
  "Rome",
];
const COMBOS: ((rng: Rng) => string)[] = [
  (rng) =>
    `${pickOne(rng, ["what's the weather in", "weather forecast for", "will it rain in", "how cold is it in", "is it sunny in"])} ${pickOne(rng, WEATHER_PLACES)}${pickOne(rng, ["", "?", " today", " this weekend"])}`,
  (rng) =>
    `${pickOne(rng, ["book", "order", "buy", "reserve", "cancel"])} ${pickOne(rng, ["a table for two", "a taxi", "concert tickets", "a hotel room in Rome", "new shoes", "a train ticket to Madrid", "groceries", "a birthday cake"])}`,
  (rng) =>
    `${pickOne(rng, ["translate", "say", "how do you say"])} "${pickOne(rng, ["thank you", "where is the station", "I love you", "see you soon", "good night"])}" in ${pickOne(rng, ["French", "German", "Japanese", "Italian", "Portuguese"])}`,
  (rng) =>
    `${pickOne(rng, ["what is the capital of", "what is the population of", "what currency does", "who is the leader of", "what is the national dish of"])} ${pickOne(rng, ["Canada", "Kenya", "Peru", "Norway", "India", "Egypt", "Chile", "Japan"])}${pickOne(rng, ["", "?"])}`,
  (rng) =>
    `${pickOne(rng, ["tell me a", "write a", "make up a", "I want a"])} ${pickOne(rng, ["story", "poem", "riddle", "limerick", "fun fact", "haiku"])} about ${pickOne(rng, ["dragons", "the moon", "my cat", "coffee", "robots", "the ocean"])}`,
  (rng) =>
    `${pickOne(rng, ["what's the stock price of", "should I buy shares of", "how is", "latest news about"])} ${pickOne(rng, ["Tesla", "Google", "Amazon", "Microsoft", "Nvidia"])}${pickOne(rng, ["", "?"])}`,
  (rng) =>
    `${pickOne(rng, ["play", "put on", "stream"])} ${pickOne(rng, ["some rock music", "the latest episode", "a podcast", "classical music", "my workout playlist"])}`,
  (rng) =>
    `${pickOne(rng, ["turn off", "dim", "switch on", "lock"])} ${pickOne(rng, ["the kitchen lights", "the front door", "the heating", "the TV", "the fan"])}`,
  (rng) =>
    `${pickOne(rng, ["who is", "what do you know about", "tell me about", "when was"])} ${pickOne(rng, ["Albert Einstein", "Marie Curie", "the Roman Empire", "Shakespeare", "Napoleon", "Ada Lovelace"])}${pickOne(rng, ["", "?"])}`,
  (rng) =>
    `${pickOne(rng, ["what time is it", "what's today's date", "what day is it today", "what is the time"])}${pickOne(rng, ["", "?", " now", " in London"])}`,
];

const COUNTRIES = ["Mexico", "Vietnam", "Ghana", "Poland", "Argentina", "Sweden", "Kenya", "Thailand"];
const EVENTS = ["Olympics", "Super Bowl", "Tour de France", "Eurovision", "election", "chess final"];
const FOODS = ["sushi", "burgers", "noodles", "tacos", "salad", "coffee", "dumplings"];
const PEOPLE = ["my landlord", "Ana", "the team", "my sister", "Dr. Silva", "John"];
const COMMON_WORDS = ["ephemeral", "ubiquitous", "gregarious", "melancholy", "quixotic", "nostalgia"];
/** Someone, somewhere or something: a real name or one no tool could know. */
const place = (rng: Rng) => (rng.next() < 0.5 ? pickOne(rng, COUNTRIES) : madeUpName(rng));
const person = (rng: Rng) =>
  rng.next() < 0.5
    ? pickOne(rng, PEOPLE)
    : `${madeUpName(rng)}${rng.next() < 0.5 ? ` ${madeUpName(rng)}` : ""}`;
const hour = (rng: Rng) => `${1 + rng.int(12)}${pickOne(rng, ["", ":30", ":15", ":45"])}`;
/**
 * Questions that carry what tools take (numbers, years, times, a word) and still need none: a year or a time
 * alone is no date calculation, a word to define is no text tool.
 */
const WITH_VALUES: ((rng: Rng) => string)[] = [
  (rng) =>
    `${pickOne(rng, ["what is the capital of", "what is the population of", "who is the president of", "what language is spoken in", "how big is", "where is", "who rules"])} ${place(rng)}${pickOne(rng, ["", "?"])}`,
  (rng) =>
    `${pickOne(rng, ["who is", "how old is", "where does", "what is the job of", "is"])} ${person(rng)}${pickOne(rng, ["", "?", " married?", " famous"])}`,
  (rng) =>
    `${pickOne(rng, ["wake me up at", "remind me at", "set a reminder for", "book a table at"])} ${hour(rng)} ${pickOne(rng, ["am", "pm", "tomorrow", "tonight"])}`,
  (rng) =>
    `${pickOne(rng, ["set a timer for", "pause the music for", "remind me in", "call me back in"])} ${numberish(rng)} ${pickOne(rng, ["minutes", "hours", "seconds"])}`,
  (rng) =>
    `${pickOne(rng, ["who won the", "where was the", "who hosted the", "what happened at the"])} ${1950 + rng.int(75)} ${pickOne(rng, EVENTS)}${pickOne(rng, ["", "?"])}`,
  (rng) =>
    `${pickOne(rng, ["what happened in", "who was famous in", "what was invented in"])} ${1500 + rng.int(520)}?`,
  (rng) =>
    `${pickOne(rng, ["order", "get me", "deliver"])} ${pickOne(rng, ["a", "two", "3", "a large", "some"])} ${pickOne(rng, FOODS)}${pickOne(rng, ["", " to my house", " for lunch", " from " + madeUpName(rng)])}`,
  (rng) =>
    `${pickOne(rng, ["send an email to", "text", "message", "tell", "call"])} ${person(rng)} ${pickOne(rng, ["saying", "that", "about"])} ${pickOne(rng, ["I'm running behind", "the meeting moved", "dinner is ready", "happy birthday", "I'll call later"])}`,
  (rng) =>
    `${pickOne(rng, ["define", "what does", "give me a synonym for", "how do you pronounce", "use in a sentence:"])} ${pickOne(rng, ["the word ", ""])}${rng.next() < 0.5 ? pickOne(rng, COMMON_WORDS) : madeUpWord(rng)}${pickOne(rng, ["", " mean?", "?"])}`,
  (rng) =>
    `${pickOne(rng, ["what is the weather in", "find flights to", "best restaurants in", "hotels in", "what time does the museum open in"])} ${pickOne(rng, WEATHER_PLACES)}${pickOne(rng, ["", " on " + (2020 + rng.int(8)) + "-0" + (1 + rng.int(9)) + "-1" + rng.int(10), " next week"])}`,
];

/** A number as a person writes it in passing. */
function numberish(rng: Rng): string {
  return pickOne(rng, ["5", "10", "twenty", "15", "90", "2", "45", "three"]);
}

/** `count` distinct off-topic training questions (fixed ones first, then composed ones), never one of `exclude`. */
export function offTopicQuestions(count: number, rng: Rng, exclude: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (q: string) => {
    const key = normalizeQuestion(q);
    if (seen.has(key) || exclude.has(key)) return;
    seen.add(key);
    out.push(q);
  };
  for (const q of FIXED_OFF_TOPIC) if (out.length < count) add(q);
  // the older kinds and those carrying values, half and half
  for (let tries = 0; out.length < count && tries < count * 50; tries++)
    add(pickOne(rng, rng.next() < 0.5 ? COMBOS : WITH_VALUES)(rng));
  return out;
}

/** The form two questions are compared in: lower case, punctuation and spacing ignored. */
export function normalizeQuestion(q: string): string {
  return q
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}
