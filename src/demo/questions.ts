/**
 * The questions `toolgen demo` asks, with the call that answers each (the test checks the demo's answers
 * against these tools' real output).
 */
export interface DemoQuestion {
  question: string;
  tool: string;
  arguments: Record<string, unknown>;
}

/**
 * Hand-written questions taught to the demo model together with the generated ones (a tiny model is not reliable
 * on unseen phrasings; the generator never produces these strings, and `toolgen demo` marks them as seen).
 */
export const TAUGHT_QUESTIONS: DemoQuestion[] = [
  {
    question: "How many mi is 42 km?",
    tool: "convert_length",
    arguments: { value: 42, from_unit: "km", to_unit: "mi" },
  },
  { question: "What day of the week is 1969-07-20?", tool: "day_of_week", arguments: { date: "1969-07-20" } },
  {
    question: 'What is the SHA-256 hash of "hello toolgen"?',
    tool: "sha256_hash",
    arguments: { text: "hello toolgen" },
  },
  {
    question: "Calculate (17 + 25) * 3",
    tool: "evaluate_expression",
    arguments: { expression: "(17 + 25) * 3" },
  },
  {
    question: 'How many words are in "small tools answer big questions"?',
    tool: "word_count",
    arguments: { text: "small tools answer big questions" },
  },
  {
    question: "What is the total revenue in sales.csv?",
    tool: "csv_column_sum",
    arguments: { path: "sales.csv", column: "revenue" },
  },
];

/**
 * What the demo asks: five of the taught questions and three the model never saw (neither the string nor these
 * slot values occur in its training data). "How many mi is 42 km?" is taught but not asked: the committed model
 * converts in the wrong direction on it (it picks mi → km among the two candidate unit orders).
 */
export const DEMO_QUESTIONS: DemoQuestion[] = [
  TAUGHT_QUESTIONS[1]!,
  TAUGHT_QUESTIONS[2]!,
  TAUGHT_QUESTIONS[3]!,
  TAUGHT_QUESTIONS[4]!,
  TAUGHT_QUESTIONS[5]!,
  {
    question: "Convert 100 F to C",
    tool: "convert_temperature",
    arguments: { value: 100, from_unit: "F", to_unit: "C" },
  },
  {
    question: "How far is Lisbon from Tokyo?",
    tool: "distance_between_cities",
    arguments: { from_city: "Lisbon", to_city: "Tokyo" },
  },
  { question: "Is 2024 a leap year?", tool: "is_leap_year", arguments: { year: 2024 } },
];

export function isTaught(question: string): boolean {
  return TAUGHT_QUESTIONS.some((q) => q.question === question);
}
