import { describe, expect, it } from "vitest";
import { demoTools } from "../../src/demo/catalog.ts";
import { isoDate, parseDate, parseDateText } from "../../src/demo/dates.ts";
import { executeToolCall } from "../../src/tools/execute.ts";

const iso = (t: string) => {
  const d = parseDateText(t);
  return d ? isoDate(d) : undefined;
};

describe("dates as people type them", () => {
  it("reads ISO, numeric and month-name forms", () => {
    for (const t of [
      "2000-01-01",
      "2000/1/1",
      "January 1st, 2000",
      "1 January 2000",
      "Jan 1 2000",
      "the 1st of January 2000",
      "1/1/2000",
      "01.01.2000",
    ])
      expect(iso(t), t).toBe("2000-01-01");
    expect(iso("25/12/2025")).toBe("2025-12-25");
    expect(iso("3/4/2025")).toBe("2025-03-04"); // month first when both could be the month
    expect(iso("Sept 9, 1999")).toBe("1999-09-09");
  });

  it("refuses what is not a date, with a clear error", () => {
    for (const t of ["", "February 30, 2024", "2024-13-01", "tomorrow", "March 2024", "12 13 14 2024"])
      expect(iso(t), t).toBeUndefined();
    expect(() => parseDate("soon")).toThrow(/expected a date such as 2024-03-15/);
  });

  it("the calendar tools take them and answer in ISO", async () => {
    const tools = await demoTools();
    const run = async (name: string, args: Record<string, unknown>) => {
      const r = await executeToolCall(
        { id: "t", type: "function", function: { name, arguments: args } },
        tools,
      );
      return r.ok ? r.content : r.error.message;
    };
    expect(await run("add_days", { date: "January 1st, 2000", days: 30 })).toBe(
      "2000-01-01 + 30 days = 2000-01-31",
    );
    expect(await run("day_of_week", { date: "July 4, 1776" })).toBe("1776-07-04 is a Thursday");
    expect(await run("days_between", { start: "March 1 2020", end: "1 March 2021" })).toBe(
      "365 days from 2020-03-01 to 2021-03-01",
    );
    expect(
      await run("convert_timezone", {
        datetime: "2024-06-01 9:00",
        from_zone: "America/New_York",
        to_zone: "Asia/Tokyo",
      }),
    ).toBe("2024-06-01T09:00 America/New_York = 2024-06-01T22:00 Asia/Tokyo");
    // the time after the date or before it, with am/pm as people write it
    for (const datetime of ["June 1 2024 9am", "9:00 a.m. on June 1 2024", "2024-06-01 9:00am"])
      expect(
        await run("convert_timezone", { datetime, from_zone: "New York", to_zone: "Tokyo" }),
        datetime,
      ).toBe("2024-06-01T09:00 America/New_York = 2024-06-01T22:00 Asia/Tokyo");
    expect(
      await run("convert_timezone", { datetime: "2024-06-01 12pm", from_zone: "UTC", to_zone: "UTC" }),
    ).toBe("2024-06-01T12:00 UTC = 2024-06-01T12:00 UTC");
    expect(
      await run("convert_timezone", { datetime: "2024-06-01 9", from_zone: "UTC", to_zone: "UTC" }),
    ).toMatch(/expected a date and time/);
  });
});
