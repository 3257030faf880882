import { describe, expect, it } from "vitest";
import { CopySource } from "../../src/constrain/copy.ts";
import { englishPolicy, neutralPolicy, policyFrom } from "../../src/constrain/policy.ts";

const question = "what date is twenty days before July 11th, 2025? open notes.txt, 82 kg";

describe("language policies of the copy constraint", () => {
  it("english (the default) reads number words, negations, dates, months and file names", () => {
    for (const copy of [new CopySource([question]), new CopySource([question], { policy: englishPolicy })]) {
      expect(copy.numbers).toContain(20);
      expect(copy.signedNumbers).toContain(-20);
      expect(copy.dates).toEqual(["July 11th, 2025"]);
      expect(copy.months).toEqual([7]);
      expect(copy.fileNames).toEqual(["notes.txt"]);
      expect(copy.takesFileName(["path"])).toBe(true);
      expect(copy.takesDateTime(["datetime"])).toBe(true);
      expect(copy.numbersBeside(["weight", "kg"])).toEqual([82]);
      expect(copy.monthEnum).toBe(true);
    }
  });

  it("neutral reads digits only: no number words, no negation, no dates or months, no property-name rules", () => {
    const copy = new CopySource([question], { policy: neutralPolicy });
    expect(copy.numbers).not.toContain(20);
    expect(copy.numbers).toEqual(expect.arrayContaining([11, 2025, 82]));
    expect(copy.signedNumbers.every((n) => n >= 0)).toBe(true);
    expect(copy.dates).toEqual([]);
    expect(copy.months).toEqual([]);
    expect(copy.fileNames).toEqual([]);
    expect(copy.takesFileName(["path"])).toBe(false);
    expect(copy.takesDateTime(["datetime"])).toBe(false);
    expect(copy.numbersBeside(["weight", "kg"])).toEqual([]);
    expect(copy.monthEnum).toBe(false);
  });

  it("names families added to neutral or taken from english, and refuses unknown ones", () => {
    expect(policyFrom("neutral+numbers").numberWords).toBe(englishPolicy.numberWords);
    expect(policyFrom("neutral+numbers").dates).toBeUndefined();
    expect(policyFrom("english-dates").dates).toBeUndefined();
    expect(policyFrom("english-dates").pointing).toBe(englishPolicy.pointing);
    expect(policyFrom("neutral+dates+properties").propertyNames).toBe(englishPolicy.propertyNames);
    expect(policyFrom("english").name).toBe("english");
    expect(() => policyFrom("english-verbs")).toThrow(/families/);
    expect(() => policyFrom("french")).toThrow(/english or neutral/);
  });
});
