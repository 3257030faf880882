/**
 * The names people write for the values the demo's tools take: units by name, symbol or abbreviation, cities
 * and time zones by their common names, locales by language. Each tool's enum lists every name (the value
 * among them) and the tool reads any of them as its value, so a call may copy the word a question uses
 * ("miles", "Paris", "Spanish") instead of translating it. The demo's generator writes questions with these
 * names too (../surface.ts).
 */
export const NAMES: Readonly<Record<string, readonly string[]>> = {
  // length
  m: ["m", "metres", "meters", "metre", "meter"],
  km: ["km", "kilometres", "kilometers", "kilometre", "kms"],
  cm: ["cm", "centimetres", "centimeters", "centimeter"],
  mm: ["mm", "millimetres", "millimeters", "millimeter"],
  mi: ["mi", "miles", "mile"],
  ft: ["ft", "feet", "foot"],
  in: ["in", "inches", "inch"],
  yd: ["yd", "yards", "yard", "yds"],
  // mass
  kg: ["kg", "kilograms", "kilos", "kilogram"],
  g: ["g", "grams", "gram"],
  lb: ["lb", "lbs", "pounds", "pound"],
  oz: ["oz", "ounces", "ounce"],
  t: ["t", "tonnes", "tons", "metric tons", "tonne"],
  // volume
  l: ["l", "L", "litres", "liters", "litre", "liter"],
  ml: ["ml", "mL", "millilitres", "milliliters"],
  gal: ["gal", "gallons", "gallon"],
  cup: ["cups", "cup"],
  m3: ["m3", "m³", "cubic metres", "cubic meters"],
  // speed
  "m/s": ["m/s", "metres per second", "meters per second"],
  "km/h": ["km/h", "kph", "kmh", "kilometres per hour", "kilometers per hour"],
  mph: ["mph", "miles per hour", "miles an hour"],
  knots: ["knots", "kn", "knot"],
  // data
  B: ["B", "bytes", "byte"],
  KB: ["KB", "kB", "kilobytes"],
  MB: ["MB", "megabytes", "megs"],
  GB: ["GB", "gigabytes", "gigs"],
  KiB: ["KiB", "kibibytes"],
  MiB: ["MiB", "mebibytes"],
  GiB: ["GiB", "gibibytes"],
  // duration
  s: ["s", "seconds", "secs", "sec"],
  min: ["min", "minutes", "mins"],
  h: ["h", "hours", "hrs", "hour"],
  day: ["days", "day"],
  week: ["weeks", "week", "wks"],
  // temperature
  C: ["C", "°C", "celsius", "Celsius", "degrees Celsius", "centigrade"],
  F: ["F", "°F", "fahrenheit", "Fahrenheit", "degrees Fahrenheit"],
  K: ["K", "kelvin", "Kelvin"],
  // cities
  "New York": ["New York", "new york", "NYC", "New York City"],
  "Los Angeles": ["Los Angeles", "los angeles", "LA"],
  "São Paulo": ["São Paulo", "Sao Paulo", "sao paulo"],
  // time zones
  UTC: ["UTC", "GMT", "utc"],
  "Europe/Lisbon": ["Europe/Lisbon", "Lisbon", "Portugal"],
  "Europe/London": ["Europe/London", "London", "UK"],
  "Europe/Paris": ["Europe/Paris", "Paris", "France"],
  "Europe/Berlin": ["Europe/Berlin", "Berlin", "Germany"],
  "America/New_York": ["America/New_York", "New York", "NYC", "New York time"],
  "America/Los_Angeles": ["America/Los_Angeles", "Los Angeles", "LA", "California"],
  "America/Sao_Paulo": ["America/Sao_Paulo", "São Paulo", "Sao Paulo", "Brazil"],
  "Asia/Tokyo": ["Asia/Tokyo", "Tokyo", "Japan", "Tokyo time"],
  "Asia/Shanghai": ["Asia/Shanghai", "Shanghai", "China", "Beijing time"],
  "Asia/Kolkata": ["Asia/Kolkata", "Kolkata", "India", "Indian time"],
  "Australia/Sydney": ["Australia/Sydney", "Sydney", "Australia"],
  // locales
  "en-US": ["en-US", "American English", "US English", "the US style"],
  "en-GB": ["en-GB", "British English", "UK English", "the British style"],
  "pt-PT": ["pt-PT", "Portuguese", "European Portuguese"],
  "pt-BR": ["pt-BR", "Brazilian Portuguese"],
  "fr-FR": ["fr-FR", "French"],
  "de-DE": ["de-DE", "German"],
  "es-ES": ["es-ES", "Spanish"],
  "zh-CN": ["zh-CN", "Chinese"],
  "ja-JP": ["ja-JP", "Japanese"],
};

/** Every name of `values` (each value's names, the value among them): a tool's enum. */
export function namesOf(values: readonly string[]): string[] {
  const names = values.flatMap((v) => NAMES[v] ?? [v]);
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw new Error(`the name ${JSON.stringify(name)} stands for two values of one enum`);
    seen.add(name);
  }
  return names;
}

/** The value of `values` that `name` stands for (the name itself when it is one of them). */
export function valueNamed(name: string, values: readonly string[]): string {
  if (values.includes(name)) return name;
  const value = values.find((v) => NAMES[v]?.includes(name));
  if (value === undefined) throw new Error(`expected one of ${namesOf(values).join(", ")}, got ${name}`);
  return value;
}

/** The values an enum of names stands for (namesOf's inverse): its entries that are no other entry's name. */
export function valuesOf<T extends string | number>(names: readonly T[]): T[] {
  return names.filter((n) => !names.some((v) => v !== n && NAMES[String(v)]?.includes(String(n))));
}
