import { describe, expect, it } from "vitest";
import { bfclCategories, readBfclAnswers, readBfclCategory } from "../../src/catalog/import/bfcl.ts";
import { checkBfclItem } from "../../src/eval/bfcl-checker.ts";
import { sharedData } from "../helpers/shared-data.ts";
import { variantsOf } from "./bfcl-variants.ts";

/** Classes every full copy of the shared data must exercise, with the least number of items each applies to. */
const MINIMUM: Record<string, number> = {
  answer: 1000,
  omit_optional: 300,
  other_allowed_value: 300,
  dropped_required: 1000,
  extra_parameter: 1000,
  wrong_name: 1000,
  extra_call: 1000,
  no_call: 1000,
  dropped_call: 300,
  reordered_calls: 300,
  underscored_name: 300,
  null_optional: 300,
  empty_optional_string: 100,
  blank_optional_string: 100,
  empty_optional_list: 10,
  empty_required_string: 300,
  empty_required_list: 30,
  restyled_string: 300,
  wrong_string: 300,
  wrong_number: 300,
  number_as_text: 300,
  deviation_nested_true_as_1: 1,
  irrelevance_no_call: 200,
  irrelevance_unnamed_call: 200,
  irrelevance_call: 200,
};

const bfclDir =
  process.env.TOOLGEN_BFCL_DATA ?? (sharedData("bfcl/BFCL_v4_simple_python.json") && sharedData("bfcl"));

describe.skipIf(!bfclDir)(
  "BFCL checker against the leaderboard's rules, every item of the shared data",
  () => {
    it("gives each generated variant the verdict its class has", () => {
      const dir = bfclDir as string;
      const tally: Record<string, { applied: number; agree: number }> = {};
      const disagreements: string[] = [];
      for (const category of bfclCategories(dir)) {
        const answers = readBfclAnswers(dir, category);
        for (const item of readBfclCategory(dir, category)) {
          const expected = answers.get(item.id) ?? [];
          for (const variant of variantsOf({ category, docs: item.docs, expected })) {
            const result = checkBfclItem(category, item.docs, variant.calls, expected);
            const t = (tally[variant.kind] ??= { applied: 0, agree: 0 });
            t.applied++;
            if (result.valid === variant.valid) t.agree++;
            else
              disagreements.push(
                `${item.id} ${variant.kind}: expected ${variant.valid ? "pass" : "fail"}, got ${result.errorType ?? "pass"} ${JSON.stringify(variant.calls)}`,
              );
          }
        }
      }
      console.log(
        "BFCL differential:",
        Object.entries(tally)
          .map(([k, t]) => `${k} ${t.agree}/${t.applied}`)
          .join(", "),
      );
      expect(disagreements.slice(0, 20)).toEqual([]);
      for (const [kind, least] of Object.entries(MINIMUM)) {
        expect(tally[kind]?.applied ?? 0, kind).toBeGreaterThanOrEqual(least);
      }
    });
  },
);
