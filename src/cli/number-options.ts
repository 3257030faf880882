import { ToolgenError } from "../errors.ts";

// A command-line option's text read as a number, one way for every command, with the same words in the error:
// `toolgen train: --batch-size must be an integer ≥ 1, got "0"`.

/** The option as an integer of at least `min`. */
export function integerOption(value: string, flag: string, min = 1): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new ToolgenError("invalid_option", `${flag} must be an integer ≥ ${min}, got "${value}"`);
  return n;
}

/** The option as an integer ≥ 1, said as "a positive integer". */
export function positiveIntegerOption(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new ToolgenError("invalid_option", `${flag} must be a positive integer, got "${value}"`);
  return n;
}

/** The option as a finite number above 0. */
export function positiveNumberOption(value: string, flag: string): number {
  const n = Number(value);
  if (!(n > 0 && Number.isFinite(n)))
    throw new ToolgenError("invalid_option", `${flag} must be a positive number, got "${value}"`);
  return n;
}

/** The option as a finite number. */
export function numberOption(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isFinite(n))
    throw new ToolgenError("invalid_option", `${flag} expects a number, got "${value}"`);
  return n;
}

/** The option as a comma-separated list of positive integers (`--k 1,5,10`). */
export function positiveIntegerListOption(value: string, flag: string): number[] {
  const values = value.split(",").map((s) => Number(s.trim()));
  if (values.length === 0 || !values.every((v) => Number.isInteger(v) && v > 0)) {
    throw new ToolgenError(
      "invalid_option",
      `${flag} expects positive integers separated by commas, got "${value}"`,
    );
  }
  return values;
}
