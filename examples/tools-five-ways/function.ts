// Style 5: a plain exported function; the schema is read from its types and JSDoc (as Hugging Face's
// get_json_schema reads a Python docstring), so this file needs no toolgen import at all.

/**
 * Convert a temperature between Celsius and Fahrenheit.
 *
 * @param value The temperature to convert
 * @param to The unit to convert to
 */
export function convert_temperature(value: number, to: "celsius" | "fahrenheit"): number {
  return to === "celsius" ? (value - 32) / 1.8 : value * 1.8 + 32;
}
