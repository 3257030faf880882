/**
 * A function that multiplies two numbers
 *
 * @param a The first number to multiply
 * @param b The second number to multiply
 */
export function multiply(a: number, b: number): number {
  return a * b;
}
