/**
 * The questions `toolgen demo` asks, with the call that answers each (the test checks the demo's answers
 * against these tools' real output). None of them is in the training data: the generator excludes them.
 */
export interface DemoQuestion {
  question: string;
  tool: string;
  arguments: Record<string, unknown>;
}

export const DEMO_QUESTIONS: DemoQuestion[] = [
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
