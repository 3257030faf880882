// Upstream MCP server 1: a weather service with two tools (fixed answers, offline).
import { serveTools } from "./serve-tools.mjs";

const city = { type: "string", description: "City name, e.g. Lisbon" };
await serveTools("weather", [
  {
    name: "get_forecast",
    description: "Weather forecast for a city: temperature and rain for the next days",
    inputSchema: {
      type: "object",
      properties: { city, days: { type: "integer", minimum: 1, maximum: 7 } },
      required: ["city"],
    },
    run: ({ city, days = 1 }) =>
      Array.from({ length: days }, (_, day) => ({
        city,
        day: day + 1,
        celsius: 18 + day,
        rain: day % 2 === 1,
      })),
  },
  {
    name: "get_air_quality",
    description: "Air quality index and pollen level in a city today",
    inputSchema: { type: "object", properties: { city }, required: ["city"] },
    run: ({ city }) => ({ city, aqi: 31, pollen: "low" }),
  },
]);
