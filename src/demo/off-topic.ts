import type { Rng } from "../nn/rng.ts";
import { pickOne } from "./surface.ts";

/**
 * Questions none of the demo's tools can answer, for training the decline (Finish with give_up_and_restart):
 * facts, news, opinions, chat, and actions in the world. Several name things the tools know about (cities,
 * numbers, quoted text, dates), so the model learns that a city or a number alone does not make a tool call.
 */
const FIXED = [
  "who wrote Hamlet?",
  "what is the tallest mountain in the world",
  "how tall is the Eiffel Tower?",
  "who painted the Mona Lisa",
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
  "how many moons does Jupiter have",
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
  for (const q of FIXED) if (out.length < count) add(q);
  for (let tries = 0; out.length < count && tries < count * 50; tries++) add(pickOne(rng, COMBOS)(rng));
  return out;
}

/** The form two questions are compared in: lower case, punctuation and spacing ignored. */
export function normalizeQuestion(q: string): string {
  return q
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}
