/**
 * Code identifiers a function's own documentation writes: the parts of its dotted name ("clear001a.runIt" →
 * "runIt") and the identifiers with a capital inside that its description and its parameters' descriptions
 * write ("the PrintStream to which ...", "an InvokePolymorphicNode"). Such a word names the function or a type
 * it works with; a question that repeats it ("execute the `runIt` method", "a `PrintStream` object `logStream`")
 * writes the value elsewhere. A shape of code names (camelCase), no word list.
 */
import type { JsonSchema } from "../../tools/types.ts";
import type { FunctionView } from "./features.ts";
import { tokenize } from "./text.ts";

const CODE_NAME = /\p{Ll}\p{Lu}/u;

export function docIdentifiers(f: FunctionView): Set<string> {
  const out = new Set<string>();
  const name = f.tool.function.name;
  for (const part of name.split(".")) if (CODE_NAME.test(part)) out.add(part);
  const texts = [f.tool.function.description ?? "", ...f.params.map((p) => (p.schema as JsonSchema).description)];
  for (const text of texts) {
    if (typeof text !== "string") continue;
    for (const t of tokenize(text)) if (t.kind === "word" && CODE_NAME.test(t.text)) out.add(t.text);
  }
  return out;
}
