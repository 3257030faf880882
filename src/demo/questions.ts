import type { HandwrittenQuestion } from "./grading.ts";

/** What a demo question should get: the expected call and its real output, or null when it must be declined. */
export type DemoTruth = Omit<HandwrittenQuestion, "question"> | null;

export interface ShownQuestion {
  question: string;
  truth: DemoTruth;
}

/**
 * What `npm start` asks: seven questions of the hand-written held-out set (src/demo/held-out/handwritten.json, never
 * trained on) and one of its off-topic questions, which must be declined. Fixed on 2026-12-01 before the model
 * was retrained, and not to be edited after seeing its answers (test/demo/questions.test.ts checks they are the
 * fixture's entries).
 */
export const SHOWN_QUESTIONS: ShownQuestion[] = [
  {
    question: "What is 12 factorial?",
    truth: { tool: "factorial", arguments: { n: 12 }, answer: "12! = 479001600", key: "479001600" },
  },
  {
    question: "convert 5 km to miles",
    truth: {
      tool: "convert_length",
      arguments: { value: 5, from_unit: "km", to_unit: "mi" },
      answer: "5 km = 3.106856 mi",
      key: "3.106856 mi",
    },
  },
  {
    question: "What date is 30 days after January 1st, 2000?",
    truth: {
      tool: "add_days",
      arguments: { date: "2000-01-01", days: 30 },
      answer: "2000-01-01 + 30 days = 2000-01-31",
      key: "2000-01-31",
    },
  },
  {
    question: "sha256 of abc",
    truth: {
      tool: "sha256_hash",
      arguments: { text: "abc" },
      answer: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
      key: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    },
  },
  {
    question: 'how many words in "the early bird catches the worm"',
    truth: {
      tool: "word_count",
      arguments: { text: "the early bird catches the worm" },
      answer: "6 words",
      key: "6 words",
    },
  },
  {
    question: "Which row of sales.csv has the most revenue?",
    truth: {
      tool: "csv_column_max",
      arguments: { path: "sales.csv", column: "revenue" },
      answer: "max revenue = 3100 (north,feb,150,3100)",
      key: "3100 (north,feb,150,3100)",
    },
  },
  {
    question: "What is 25 °C in Fahrenheit?",
    truth: {
      tool: "convert_temperature",
      arguments: { value: 25, from_unit: "C", to_unit: "F" },
      answer: "25 °C = 77 °F",
      key: "77 °F",
    },
  },
  { question: "tell me a joke", truth: null },
];
