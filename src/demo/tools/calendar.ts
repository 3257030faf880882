/**
 * Dates and time zones through Intl, as plain exported functions documented with JSDoc: `loadTools` reads
 * their schemas with the TypeScript compiler API (HF's get_json_schema). Dates are ISO `YYYY-MM-DD`.
 */

function parseDate(date: string): Date {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date))
    throw new Error(`expected a date as YYYY-MM-DD, got ${JSON.stringify(date)}`);
  const d = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== date)
    throw new Error(`no such date: ${date}`);
  return d;
}

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

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
 * @param date The date, as YYYY-MM-DD
 */
export function day_of_week(date: string): string {
  const day = new Intl.DateTimeFormat("en-US", { weekday: "long", timeZone: "UTC" }).format(parseDate(date));
  return `${date} is a ${day}`;
}

/**
 * The number of days between two dates.
 *
 * @param start The first date, as YYYY-MM-DD
 * @param end The second date, as YYYY-MM-DD
 */
export function days_between(start: string, end: string): string {
  const days = Math.round((parseDate(end).getTime() - parseDate(start).getTime()) / 86400000);
  return `${days} days from ${start} to ${end}`;
}

/**
 * Add a number of days to a date (negative to go back).
 *
 * @param date The date, as YYYY-MM-DD
 * @param days How many days to add
 */
export function add_days(date: string, days: number): string {
  const d = parseDate(date);
  d.setUTCDate(d.getUTCDate() + Math.trunc(days));
  return `${date} + ${days} days = ${isoDate(d)}`;
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
 * @param date The date, as YYYY-MM-DD
 * @param locale The language and region (choices: ["en-US", "en-GB", "pt-PT", "pt-BR", "fr-FR", "de-DE", "es-ES", "zh-CN", "ja-JP"])
 */
export function format_date(date: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "full", timeZone: "UTC" }).format(parseDate(date));
}

/**
 * The ISO 8601 week number of a date.
 *
 * @param date The date, as YYYY-MM-DD
 */
export function week_number(date: string): string {
  const d = parseDate(date);
  d.setUTCDate(d.getUTCDate() + 4 - (d.getUTCDay() || 7)); // the Thursday of this week decides the year
  const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((d.getTime() - yearStart) / 86400000 + 1) / 7);
  return `${date} is in ISO week ${week} of ${d.getUTCFullYear()}`;
}

/**
 * Convert a local date and time from one time zone to another (daylight saving included).
 *
 * @param datetime The local date and time, as YYYY-MM-DDTHH:MM
 * @param from_zone The time zone of the given time (choices: ["UTC", "Europe/Lisbon", "Europe/London", "Europe/Paris", "Europe/Berlin", "America/New_York", "America/Los_Angeles", "America/Sao_Paulo", "Asia/Tokyo", "Asia/Shanghai", "Asia/Kolkata", "Australia/Sydney"])
 * @param to_zone The time zone to convert to (choices: ["UTC", "Europe/Lisbon", "Europe/London", "Europe/Paris", "Europe/Berlin", "America/New_York", "America/Los_Angeles", "America/Sao_Paulo", "Asia/Tokyo", "Asia/Shanghai", "Asia/Kolkata", "Australia/Sydney"])
 */
export function convert_timezone(datetime: string, from_zone: string, to_zone: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})$/.exec(datetime);
  if (!m) throw new Error(`expected a date and time as YYYY-MM-DDTHH:MM, got ${JSON.stringify(datetime)}`);
  const wall = parseDate(m[1]!).getTime() + (Number(m[2]) * 60 + Number(m[3])) * 60000;
  // The instant whose wall time in from_zone is `wall` (one correction step covers DST edges).
  let instant = wall - zoneOffsetMinutes(from_zone, new Date(wall)) * 60000;
  instant = wall - zoneOffsetMinutes(from_zone, new Date(instant)) * 60000;
  const local = new Date(instant + zoneOffsetMinutes(to_zone, new Date(instant)) * 60000);
  return `${datetime} ${from_zone} = ${local.toISOString().slice(0, 16)} ${to_zone}`;
}

/**
 * The number of days in a month.
 *
 * @param year The year
 * @param month The month number, 1 to 12
 */
export function days_in_month(year: number, month: number): string {
  if (!Number.isInteger(month) || month < 1 || month > 12)
    throw new Error(`month must be 1 to 12, got ${month}`);
  const name = new Intl.DateTimeFormat("en-US", { month: "long", timeZone: "UTC" }).format(
    new Date(Date.UTC(year, month - 1, 1)),
  );
  return `${name} ${year} has ${new Date(Date.UTC(year, month, 0)).getUTCDate()} days`;
}
