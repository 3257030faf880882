import { tool } from "../../tools/define.ts";
import type { JsonSchema } from "../../tools/types.ts";
import { formatNumber } from "./expression.ts";
import { namesOf, valueNamed } from "./names.ts";

/**
 * Unit conversions and distances, defined with raw JSON Schema objects. Factors are to the first unit listed.
 * A unit or city may be given by any of its names (./names.ts: "miles", "kilometers per hour", "NYC"); results
 * give the unit's symbol and the city's name.
 */
const FACTORS: Record<string, Record<string, number>> = {
  length: { m: 1, km: 1000, cm: 0.01, mm: 0.001, mi: 1609.344, ft: 0.3048, in: 0.0254, yd: 0.9144 },
  mass: { kg: 1, g: 0.001, lb: 0.45359237, oz: 0.028349523125, t: 1000 },
  volume: { l: 1, ml: 0.001, gal: 3.785411784, cup: 0.2365882365, m3: 1000 },
  speed: { "m/s": 1, "km/h": 1 / 3.6, mph: 0.44704, knots: 0.514444 },
  data: { B: 1, KB: 1e3, MB: 1e6, GB: 1e9, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 },
  duration: { s: 1, min: 60, h: 3600, day: 86400, week: 604800 },
};

function unitSchema(kind: string, what: string): JsonSchema {
  return { type: "string", enum: namesOf(Object.keys(FACTORS[kind]!)), description: what };
}

function converter(kind: string, description: string) {
  return tool({
    name: `convert_${kind}`,
    description,
    inputSchema: {
      type: "object",
      properties: {
        value: { type: "number", description: "The amount to convert" },
        from_unit: unitSchema(kind, "The unit of the amount"),
        to_unit: unitSchema(kind, "The unit to convert to"),
      },
      required: ["value", "from_unit", "to_unit"],
    },
    execute: (args) => {
      const { value, ...units } = args as { value: number; from_unit: string; to_unit: string };
      const f = FACTORS[kind]!;
      const [from_unit, to_unit] = [units.from_unit, units.to_unit].map((u) => valueNamed(u, Object.keys(f)));
      return `${formatNumber(value)} ${from_unit} = ${formatNumber((value * f[from_unit]!) / f[to_unit]!)} ${to_unit}`;
    },
  });
}

/** Coordinates of the cities the distance tool knows (degrees). */
export const CITIES: Record<string, [number, number]> = {
  Lisbon: [38.7223, -9.1393],
  Madrid: [40.4168, -3.7038],
  Paris: [48.8566, 2.3522],
  London: [51.5074, -0.1278],
  Berlin: [52.52, 13.405],
  Rome: [41.9028, 12.4964],
  "New York": [40.7128, -74.006],
  "Los Angeles": [34.0522, -118.2437],
  Tokyo: [35.6762, 139.6503],
  Beijing: [39.9042, 116.4074],
  Sydney: [-33.8688, 151.2093],
  "São Paulo": [-23.5505, -46.6333],
  Cairo: [30.0444, 31.2357],
  Mumbai: [19.076, 72.8777],
  Toronto: [43.6532, -79.3832],
};

/** The temperature scales: Celsius, Fahrenheit, Kelvin. */
const SCALES = ["C", "F", "K"];

/** Great-circle distance on a sphere of the Earth's mean radius (haversine). */
function haversineKm(a: [number, number], b: [number, number]): number {
  const rad = Math.PI / 180;
  const dLat = (b[0] - a[0]) * rad;
  const dLon = (b[1] - a[1]) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[0] * rad) * Math.cos(b[0] * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}

export const unitTools = [
  converter(
    "length",
    "Convert a length or distance between metres, kilometres, miles, feet, inches and more",
  ),
  converter("mass", "Convert a weight or mass between kilograms, grams, pounds, ounces and tonnes"),
  converter("volume", "Convert a volume between litres, millilitres, gallons, cups and cubic metres"),
  converter("speed", "Convert a speed between metres per second, km/h, mph and knots"),
  converter("data", "Convert a data size between bytes, KB, MB, GB, KiB, MiB and GiB"),
  converter("duration", "Convert a duration between seconds, minutes, hours, days and weeks"),
  tool({
    name: "convert_temperature",
    description: "Convert a temperature between Celsius (C), Fahrenheit (F) and Kelvin (K)",
    inputSchema: {
      type: "object",
      properties: {
        value: { type: "number", description: "The temperature" },
        from_unit: { type: "string", enum: namesOf(SCALES), description: "Its scale" },
        to_unit: { type: "string", enum: namesOf(SCALES), description: "The scale to convert to" },
      },
      required: ["value", "from_unit", "to_unit"],
    },
    execute: (args) => {
      const { value, ...scales } = args as { value: number; from_unit: string; to_unit: string };
      const [from_unit, to_unit] = [scales.from_unit, scales.to_unit].map((u) => valueNamed(u, SCALES));
      const celsius = from_unit === "C" ? value : from_unit === "F" ? ((value - 32) * 5) / 9 : value - 273.15;
      const out = to_unit === "C" ? celsius : to_unit === "F" ? (celsius * 9) / 5 + 32 : celsius + 273.15;
      return `${formatNumber(value)} °${from_unit} = ${formatNumber(out)} °${to_unit}`.replace(/°K/g, "K");
    },
  }),
  tool({
    name: "distance_between_cities",
    description: "The great-circle distance in kilometres between two major cities",
    inputSchema: {
      type: "object",
      properties: {
        from_city: { type: "string", enum: namesOf(Object.keys(CITIES)), description: "The first city" },
        to_city: { type: "string", enum: namesOf(Object.keys(CITIES)), description: "The second city" },
      },
      required: ["from_city", "to_city"],
    },
    execute: (args) => {
      const names = args as { from_city: string; to_city: string };
      const [from_city, to_city] = [names.from_city, names.to_city].map((c) =>
        valueNamed(c, Object.keys(CITIES)),
      );
      const km = haversineKm(CITIES[from_city]!, CITIES[to_city]!);
      return `${from_city} to ${to_city}: ${Math.round(km)} km`;
    },
  }),
  tool({
    name: "distance_between_coordinates",
    description: "The great-circle distance in kilometres between two latitude/longitude points",
    inputSchema: {
      type: "object",
      properties: {
        lat1: { type: "number", description: "Latitude of the first point in degrees" },
        lon1: { type: "number", description: "Longitude of the first point in degrees" },
        lat2: { type: "number", description: "Latitude of the second point in degrees" },
        lon2: { type: "number", description: "Longitude of the second point in degrees" },
      },
      required: ["lat1", "lon1", "lat2", "lon2"],
    },
    execute: (args) => {
      const { lat1, lon1, lat2, lon2 } = args as Record<string, number>;
      return `${formatNumber(haversineKm([lat1!, lon1!], [lat2!, lon2!]))} km`;
    },
  }),
  tool({
    name: "body_mass_index",
    description: "Body mass index from a weight in kilograms and a height in metres",
    inputSchema: {
      type: "object",
      properties: {
        weight_kg: { type: "number", description: "Weight in kilograms" },
        height_m: { type: "number", description: "Height in metres" },
      },
      required: ["weight_kg", "height_m"],
    },
    execute: (args) => {
      const { weight_kg, height_m } = args as Record<string, number>;
      return `BMI = ${(weight_kg! / height_m! ** 2).toFixed(1)}`;
    },
  }),
];
