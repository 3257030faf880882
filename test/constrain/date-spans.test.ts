import { describe, expect, it } from "vitest";
import { CopySource, JsonSchemaAutomaton } from "../../src/constrain/index.ts";
import { dateSpans, joinedDateTime, timeSpans } from "../../src/constrain/date-spans.ts";

const spans = (t: string) => dateSpans(t).map((s) => t.slice(s.start, s.end));

describe("dates a person wrote out", () => {
  it("finds month-name, ISO and numeric dates with their day and year, and times glued to ISO dates", () => {
    expect(spans("which day is 193 days later than July 11th, 2025")).toEqual(["July 11th, 2025"]);
    expect(spans("days from 24/2/1998 until Apr 2 1978")).toEqual(["24/2/1998", "Apr 2 1978"]);
    expect(spans("format 9th of December 1951 in Chinese")).toEqual(["9th of December 1951"]);
    expect(spans("was 1 jan 2000 a saturday?")).toEqual(["1 jan 2000"]);
    expect(spans("convert 2025-11-20 18:45 from Kolkata")).toEqual(["2025-11-20 18:45"]);
    expect(spans("the time 2007-11-13T20:00 France")).toEqual(["2007-11-13T20:00"]);
    expect(spans("days in feb 2028")).toEqual(["feb 2028"]);
  });

  it("takes no month name alone, no fraction and no plain numbers", () => {
    expect(spans("may I have 5 apples")).toEqual([]);
    expect(spans("what's 3/4 of 12")).toEqual([]);
    expect(spans("order 66 shipped 3 boxes, 1,250 plus 3,475")).toEqual([]);
    expect(spans("marchers and decks")).toEqual([]);
  });

  it("are copied whole or not at all, and stay whole when the question is cut at the start", () => {
    const a = JsonSchemaAutomaton.fromSchema(
      { type: "object", properties: { d: { type: "string" } }, required: ["d"] },
      { copy: new CopySource(["Dec 28 2018 in ja-JP"]) },
    );
    for (const ok of ["Dec 28 2018", "in ja-JP", "ja-JP"])
      expect(a.accepts(JSON.stringify({ d: ok })), ok).toBe(true);
    for (const bad of ["28 2018", "Dec 28", "2018 in ja-JP", "Dec 28 2018 in"])
      expect(a.accepts(JSON.stringify({ d: bad })), bad).toBe(false);
  });

  it("under quotesFirst, are each written once: two dates for two string leaves", () => {
    const a = JsonSchemaAutomaton.fromSchema(
      {
        type: "object",
        properties: { start: { type: "string" }, end: { type: "string" } },
        required: ["start", "end"],
      },
      {
        copy: new CopySource(["how many days from August 17th, 1994 to Aug 19 2004"], { quotesFirst: true }),
      },
    );
    expect(a.accepts(JSON.stringify({ start: "August 17th, 1994", end: "Aug 19 2004" }))).toBe(true);
    expect(a.accepts(JSON.stringify({ start: "Aug 19 2004", end: "August 17th, 1994" }))).toBe(true);
    expect(a.accepts(JSON.stringify({ start: "August 17th, 1994", end: "August 17th, 1994" }))).toBe(false);
    expect(a.accepts(JSON.stringify({ start: "August 17th, 1994", end: "how many days" }))).toBe(false);
  });

  it("leave a date in a file name alone", () => {
    expect(spans("read 2021-05-05.txt please")).toEqual([]);
  });

  it("joins a date and a time written apart, for a property that takes a date and time", () => {
    const times = (t: string) => timeSpans(t).map((s) => t.slice(s.start, s.end));
    expect(times("at 9:30, 3pm, 10:15 a.m. or 18:45:10, not 1.5 or 12:3")).toEqual([
      "9:30",
      "3pm",
      "10:15 a.m.",
      "18:45:10",
    ]);
    expect(joinedDateTime("if it's 9:30 in New York on 2026-03-10, what time is it in London")).toEqual({
      value: "2026-03-10 9:30",
      date: "2026-03-10",
    });
    expect(joinedDateTime("3pm Tokyo time on June 1 2025, what's that in UTC?")?.value).toBe(
      "June 1 2025 3pm",
    );
    // a date with its own time, two times, or no date: nothing to join
    expect(joinedDateTime("convert 2025-11-20 18:45 from Kolkata at 9:30")).toBeUndefined();
    expect(joinedDateTime("9:30 or 10:30 on 2026-03-10")).toBeUndefined();
    expect(joinedDateTime("9:30 in Tokyo")).toBeUndefined();
    const schema = {
      type: "object",
      properties: { datetime: { type: "string" }, note: { type: "string" } },
      required: ["datetime"],
    };
    const a = JsonSchemaAutomaton.fromSchema(schema, {
      copy: new CopySource(["if it's 9:30 in New York on 2026-03-10"], { quotesFirst: true }),
    });
    expect(a.accepts('{"datetime":"2026-03-10 9:30"}')).toBe(true);
    expect(a.accepts('{"datetime":"2026-03-10"}')).toBe(false);
    // the date is spent by the joined value: the next string leaf does not have to write it
    expect(a.accepts('{"datetime":"2026-03-10 9:30","note":"New York"}')).toBe(true);
    // a property that takes a date alone still takes the date
    const d = JsonSchemaAutomaton.fromSchema(
      { type: "object", properties: { date: { type: "string" } }, required: ["date"] },
      { copy: new CopySource(["if it's 9:30 in New York on 2026-03-10"], { quotesFirst: true }) },
    );
    expect(d.accepts('{"date":"2026-03-10"}')).toBe(true);
  });
});
