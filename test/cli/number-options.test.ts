import { describe, expect, it } from "vitest";
import {
  integerOption,
  numberOption,
  positiveIntegerListOption,
  positiveIntegerOption,
  positiveNumberOption,
} from "../../src/cli/number-options.ts";
import { ToolgenError } from "../../src/errors.ts";

describe("number options", () => {
  it("read valid values", () => {
    expect(integerOption("0", "--seed", 0)).toBe(0);
    expect(integerOption("12", "--steps")).toBe(12);
    expect(positiveIntegerOption("3", "--top-k")).toBe(3);
    expect(positiveNumberOption("1e-3", "--lr")).toBe(0.001);
    expect(numberOption("-0.5", "--b")).toBe(-0.5);
    expect(positiveIntegerListOption("1, 5,10", "--k")).toEqual([1, 5, 10]);
  });

  it("refuse the rest with the flag, the rule and the text given", () => {
    expect(() => integerOption("0", "--batch-size")).toThrow('--batch-size must be an integer ≥ 1, got "0"');
    expect(() => integerOption("1.5", "--seed", 0)).toThrow('--seed must be an integer ≥ 0, got "1.5"');
    expect(() => positiveIntegerOption("0", "--top-k")).toThrow(
      '--top-k must be a positive integer, got "0"',
    );
    expect(() => positiveNumberOption("abc", "--lr")).toThrow('--lr must be a positive number, got "abc"');
    expect(() => positiveNumberOption("Infinity", "--lr")).toThrow(/positive number/);
    expect(() => numberOption("x", "--k1")).toThrow('--k1 expects a number, got "x"');
    expect(() => positiveIntegerListOption("1,0", "--k")).toThrow(
      '--k expects positive integers separated by commas, got "1,0"',
    );
  });

  it("throw invalid_option errors", () => {
    try {
      positiveIntegerOption("-1", "--gpus");
      expect.unreachable();
    } catch (error) {
      expect(ToolgenError.hasCode(error, "invalid_option")).toBe(true);
    }
  });
});
