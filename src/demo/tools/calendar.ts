/**
 * Dates and time zones through Intl, as plain exported functions documented with JSDoc: `loadTools` reads
 * their schemas with the TypeScript compiler API (HF's get_json_schema). Dates may be written as people write
 * them (../dates.ts); results give them as ISO `YYYY-MM-DD`. A time zone or locale may be given by any of its
 * names (./names.ts: "Paris", "GMT", "Spanish"); the choices below list them all.
 */
import { isoDate, parseDate } from "../dates.ts";
import { valueNamed } from "./names.ts";

const ZONES = [
  "UTC",
  "Europe/Lisbon",
  "Europe/London",
  "Europe/Paris",
  "Europe/Berlin",
  "America/New_York",
  "America/Los_Angeles",
  "America/Sao_Paulo",
  "Asia/Tokyo",
  "Asia/Shanghai",
  "Asia/Kolkata",
  "Australia/Sydney",
];
const LOCALES = ["en-US", "en-GB", "pt-PT", "pt-BR", "fr-FR", "de-DE", "es-ES", "zh-CN", "ja-JP"];

/** The offset of a time zone from UTC at an instant, in minutes. */
function zoneOffsetMinutes(zone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
  }).formatToParts(at);
  const get = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  const wall = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"));
  return Math.round((wall - at.getTime()) / 60000);
}

/**
 * The day of the week of a date.
 *
 * @param date The date, e.g. 2024-03-15 or March 15, 2024
 */
export function day_of_week(date: string): string {
  const d = parseDate(date);
  const day = new Intl.DateTimeFormat("en-US", { weekday: "long", timeZone: "UTC" }).format(d);
  return `${isoDate(d)} is a ${day}`;
}

/**
 * The number of days between two dates.
 *
 * @param start The first date, e.g. 2024-03-15 or March 15, 2024
 * @param end The second date, e.g. 2024-03-15 or March 15, 2024
 */
export function days_between(start: string, end: string): string {
  const [a, b] = [parseDate(start), parseDate(end)];
  const days = Math.round((b.getTime() - a.getTime()) / 86400000);
  return `${days} days from ${isoDate(a)} to ${isoDate(b)}`;
}

/**
 * Add a number of days to a date (negative to go back).
 *
 * @param date The date, e.g. 2024-03-15 or March 15, 2024
 * @param days How many days to add
 */
export function add_days(date: string, days: number): string {
  const d = parseDate(date);
  const from = isoDate(d);
  d.setUTCDate(d.getUTCDate() + Math.trunc(days));
  return `${from} + ${days} days = ${isoDate(d)}`;
}

/**
 * Whether a year is a leap year in the Gregorian calendar.
 *
 * @param year The year
 */
export function is_leap_year(year: number): string {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return `${year} is ${leap ? "" : "not "}a leap year`;
}

/**
 * Write a date out in full the way a locale does.
 *
 * @param date The date, e.g. 2024-03-15 or March 15, 2024
 * @param locale The language and region (choices: ["en-US", "American English", "US English", "the US style", "en-GB", "British English", "UK English", "the British style", "pt-PT", "Portuguese", "European Portuguese", "pt-BR", "Brazilian Portuguese", "fr-FR", "French", "de-DE", "German", "es-ES", "Spanish", "zh-CN", "Chinese", "ja-JP", "Japanese"])
 */
export function format_date(date: string, locale: string): string {
  return new Intl.DateTimeFormat(valueNamed(locale, LOCALES), { dateStyle: "full", timeZone: "UTC" }).format(
    parseDate(date),
  );
}

/**
 * The ISO 8601 week number of a date.
 *
 * @param date The date, e.g. 2024-03-15 or March 15, 2024
 */
export function week_number(date: string): string {
  const d = parseDate(date);
  const iso = isoDate(d);
  d.setUTCDate(d.getUTCDate() + 4 - (d.getUTCDay() || 7)); // the Thursday of this week decides the year
  const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((d.getTime() - yearStart) / 86400000 + 1) / 7);
  return `${iso} is in ISO week ${week} of ${d.getUTCFullYear()}`;
}

/** A time of day: 09:30, 9:30, 3pm, 3 p.m., 10:15am (hours and minutes are matched by readTime). */
const TIME_OF_DAY = String.raw`\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?`;

/** The hour and minute of a time of day; a bare number ("9") is no time: it needs minutes or am/pm. */
function readTime(text: string): { hours: number; minutes: number } | undefined {
  const m = /^(\d{1,2})(?::(\d{2}))?\s*(?:([ap])\.?m\.?)?$/i.exec(text.trim());
  if (!m || (m[2] === undefined && m[3] === undefined)) return undefined;
  let hours = Number(m[1]);
  const minutes = Number(m[2] ?? 0);
  if (m[3] !== undefined) {
    if (hours < 1 || hours > 12) return undefined;
    hours = (hours % 12) + (m[3].toLowerCase() === "p" ? 12 : 0);
  }
  return hours > 23 || minutes > 59 ? undefined : { hours, minutes };
}

/**
 * Convert a local date and time from one time zone to another (daylight saving included).
 *
 * @param datetime The local date and time, e.g. 2024-03-15T09:30 or 2024-03-15 09:30
 * @param from_zone The time zone of the given time (choices: ["UTC", "GMT", "utc", "Europe/Lisbon", "Lisbon", "Portugal", "Europe/London", "London", "UK", "Europe/Paris", "Paris", "France", "Europe/Berlin", "Berlin", "Germany", "America/New_York", "New York", "NYC", "New York time", "America/Los_Angeles", "Los Angeles", "LA", "California", "America/Sao_Paulo", "São Paulo", "Sao Paulo", "Brazil", "Asia/Tokyo", "Tokyo", "Japan", "Tokyo time", "Asia/Shanghai", "Shanghai", "China", "Beijing time", "Asia/Kolkata", "Kolkata", "India", "Indian time", "Australia/Sydney", "Sydney", "Australia"])
 * @param to_zone The time zone to convert to (choices: ["UTC", "GMT", "utc", "Europe/Lisbon", "Lisbon", "Portugal", "Europe/London", "London", "UK", "Europe/Paris", "Paris", "France", "Europe/Berlin", "Berlin", "Germany", "America/New_York", "New York", "NYC", "New York time", "America/Los_Angeles", "Los Angeles", "LA", "California", "America/Sao_Paulo", "São Paulo", "Sao Paulo", "Brazil", "Asia/Tokyo", "Tokyo", "Japan", "Tokyo time", "Asia/Shanghai", "Shanghai", "China", "Beijing time", "Asia/Kolkata", "Kolkata", "India", "Indian time", "Australia/Sydney", "Sydney", "Australia"])
 */
export function convert_timezone(datetime: string, from_zone: string, to_zone: string): string {
  const [from, to] = [from_zone, to_zone].map((z) => valueNamed(z, ZONES)) as [string, string];
  // the date then the time, or the time first as people also say it ("09:00 on 2024-06-01", "3pm June 1 2025")
  const text = datetime.trim();
  const timeFirst = new RegExp(`^(${TIME_OF_DAY}),?\\s+(?:on\\s+)?(.+)$`, "i").exec(text);
  const dateFirst = new RegExp(`^(.+?)(?:T|,?\\s+(?:at\\s+)?)(${TIME_OF_DAY})$`, "i").exec(text);
  const [date, time] = timeFirst
    ? [timeFirst[2]!, timeFirst[1]!]
    : dateFirst
      ? [dateFirst[1]!, dateFirst[2]!]
      : [];
  const clock = time === undefined ? undefined : readTime(time);
  if (date === undefined || !clock)
    throw new Error(`expected a date and time such as 2024-03-15T09:30, got ${JSON.stringify(datetime)}`);
  const day = parseDate(date);
  const wall = day.getTime() + (clock.hours * 60 + clock.minutes) * 60000;
  const given = `${isoDate(day)}T${String(clock.hours).padStart(2, "0")}:${String(clock.minutes).padStart(2, "0")}`;
  // The instant whose wall time in the first zone is `wall` (one correction step covers DST edges).
  let instant = wall - zoneOffsetMinutes(from, new Date(wall)) * 60000;
  instant = wall - zoneOffsetMinutes(from, new Date(instant)) * 60000;
  const local = new Date(instant + zoneOffsetMinutes(to, new Date(instant)) * 60000);
  return `${given} ${from} = ${local.toISOString().slice(0, 16)} ${to}`;
}

/**
 * The number of days in a month.
 *
 * @param year The year
 * @param month The month number (choices: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
 */
export function days_in_month(year: number, month: number): string {
  if (!Number.isInteger(month) || month < 1 || month > 12)
    throw new Error(`month must be 1 to 12, got ${month}`);
  const name = new Intl.DateTimeFormat("en-US", { month: "long", timeZone: "UTC" }).format(
    new Date(Date.UTC(year, month - 1, 1)),
  );
  return `${name} ${year} has ${new Date(Date.UTC(year, month, 0)).getUTCDate()} days`;
}
