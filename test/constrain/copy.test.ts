/**
 * The copy constraint (src/constrain/copy.ts): string leaves spell a substring of the conversation's texts,
 * number leaves a number the texts state. Property: random schemas × random texts × random logits → the
 * output parses, validates, and every copied leaf comes from the texts.
 */
import { Ajv } from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CopySource,
  jsonSchemaConstraint,
  JsonSchemaAutomaton,
  normaliseSchema,
  numbersIn,
  quotedSpans,
  type SchemaNode,
} from "../../src/constrain/index.ts";
import { pickToken } from "../../src/nn/infer/decode.ts";
import { Rng } from "../../src/nn/rng.ts";
import { Tokenizer } from "../../src/nn/tokenizer/index.ts";
import type { JsonSchema } from "../../src/tools/types.ts";
import { fractionOnly, schema } from "./schemas.ts";
import { introducedSpan } from "../../src/constrain/quotes.ts";
import { fileNames } from "../../src/constrain/file-names.ts";
import { cueWords } from "../../src/constrain/cue-words.ts";

const introduced = (t: string) => {
  const s = introducedSpan(t);
  return s && t.slice(s.start, s.end);
};

const demo = Tokenizer.load("models/demo");
const endId = (demo.tokenToId("<|im_end|>") ?? demo.tokenToId("<|eot_id|>"))!;
const ajv = new Ajv({ strict: false });

describe("copy constraint", () => {
  const texts = ['What is 1234 plus 4321? say "hi"\nZürich, seventeen', "12! = 479001600"];
  const source = new CopySource(texts);
  const a = JsonSchemaAutomaton.fromSchema(
    {
      type: "object",
      properties: {
        a: { type: "number" },
        b: { type: "string" },
        c: { type: "integer", minimum: 20 },
        u: { enum: ["km", "mi"] },
      },
      required: ["a", "b"],
    },
    { copy: source },
  );

  it("reads the numbers the texts state, as digits and as words", () => {
    expect(source.numbers).toEqual([1234, 4321, 17, 12, 479001600]);
    expect(numbersIn("from 23..349 or .5")).toEqual([23, 349, 0.5]);
    // "10-3": the minus may be an operator; "-7.5" after a space is the number's sign
    expect(numbersIn("10-3 and minus 2, -7.5, 1,000, twenty-one")).toEqual([10, -3, 3, 2, -7.5, 1000, 21]);
    expect(new CopySource(["what's -40 degrees Celsius in Fahrenheit"]).signedNumbers).toEqual([-40]);
    expect(new CopySource(["10 days before"]).signedNumbers).toEqual([10, -10]);
  });

  it("takes substrings of one text (escaped as JSON.stringify writes them) and stated numbers only", () => {
    for (const ok of [
      '{"a":1234,"b":"plus 4321"}',
      '{"a":1234,"b":"Zürich"}',
      '{"a":12,"b":"hi"}', // a quoted span, whole
      '{"a":17,"b":"479001600","c":4321}',
      '{"a":17,"b":"= 479001600","u":"mi"}',
      '{"a":17,"b":"is 1234"}', // a copy may start and end between words
    ])
      expect(a.accepts(ok), ok).toBe(true);
    for (const bad of [
      '{"a":1235,"b":"x"}', // not stated
      '{"a":-1235,"b":"x"}', // not stated either way
      '{"a":-17,"b":"hi"}', // no word says a number counts down
      '{"a":12,"b":""}', // an empty copy copies nothing
      '{"a":17,"b":"Zur"}', // not in the texts
      '{"a":17,"b":"seventeen12!"}', // straddles the two texts
      '{"a":17,"b":"600","c":17}', // stated, but below the minimum
      '{"a":17,"b":"hi","u":"m"}', // enums stay enums
      '{"a":17,"b":"600"}', // starts inside a number
      '{"a":17,"b":"12! = 4790"}', // ends inside one
      '{"a":17,"b":"\\nZü"}', // ends inside a word
      '{"a":12,"b":"say \\"hi\\"\\nZürich"}', // takes in a quoted span
      '{"a":17,"b":"eventeen"}', // starts inside one
      '{"a":12,"b":"\\nZürich"}', // starts on a space
      '{"a":17,"b":"! ="}', // starts inside a run of non-space characters after a word ("12!")
    ])
      expect(a.accepts(bad), bad).toBe(false);
  });

  it("negates a number written without sign only where a word says so", () => {
    const days = { type: "integer" };
    const negated = (text: string) =>
      JsonSchemaAutomaton.fromSchema(days, { copy: new CopySource([text]) }).accepts("-14");
    expect(negated("what date was 14 days before 2026-06-30")).toBe(true);
    expect(negated("14 degrees below zero")).toBe(true);
    expect(negated("add 14 days to 30/06/2026")).toBe(false);
    expect(negated("distance from (14, 2.35) to (45.76, 4.84)")).toBe(false);
    expect(negated("what is -14 plus 3")).toBe(true); // written with its sign
  });

  it("ends a copy after a symbol only where a run of non-space characters ends", () => {
    const expr = JsonSchemaAutomaton.fromSchema(
      { type: "object", properties: { e: { type: "string" } }, required: ["e"] },
      { copy: new CopySource(["calc 2^10 - 3*(7+5) in sales.csv?"]) },
    );
    for (const ok of ["2^10 - 3*(7+5)", "2^10 -", "sales.csv", "sales.csv?"])
      expect(expr.accepts(JSON.stringify({ e: ok })), ok).toBe(true);
    // "3*(7+5" ends inside the bracket its run opened; "2^10" where the expression goes on
    for (const bad of ["2^", "3*(", "2^10 - 3*", "calc 2^10 ", "3*(7+5", "2^10"])
      expect(expr.accepts(JSON.stringify({ e: bad })), bad).toBe(false);
    // a unit glued to its number is written out: "400m" states m
    expect(new CopySource(["how many yards is 400m"]).states("m")).toBe(true);
    expect(new CopySource(["I'm here"]).states("m")).toBe(false);
  });

  it("ends no copy where an arithmetic expression goes on", () => {
    const expr = JsonSchemaAutomaton.fromSchema(
      { type: "object", properties: { e: { type: "string" } }, required: ["e"] },
      { copy: new CopySource(["evaluate (18 + 6) * 3 - 4 / 2 then 5 - done"]) },
    );
    for (const ok of ["(18 + 6) * 3 - 4 / 2", "18 + 6", "4 / 2", "5 - done"])
      expect(expr.accepts(JSON.stringify({ e: ok })), ok).toBe(true);
    // "18" and "3" are followed by an operator and a number: the expression goes on ("- done" does not)
    for (const bad of ["(18 + 6) * 3", "(18", "(18 + 6) * 3 - 4"])
      expect(expr.accepts(JSON.stringify({ e: bad })), bad).toBe(false);
  });

  it("ends a copy after a word only where its run ends or only punctuation is left of the run", () => {
    const dates = JsonSchemaAutomaton.fromSchema(
      { type: "object", properties: { d: { type: "string" } }, required: ["d"] },
      { copy: new CopySource(["days between 14.02.2024 and July 11th, 2025 in New York's 1,250 files?"]) },
    );
    for (const ok of ["14.02.2024", "July 11th, 2025", "New York", "1,250 files", "files?"])
      expect(dates.accepts(JSON.stringify({ d: ok })), ok).toBe(true);
    // a date written out is copied whole (date-spans.ts): "July 11th" and "11th, 2025" are parts of one
    for (const bad of ["14.02", "14", "1", "Yo", "New York's 1", "July 11th", "11th, 2025", "2025 in"])
      expect(dates.accepts(JSON.stringify({ d: bad })), bad).toBe(false);
  });

  it("reads a month leaf (a number enum of 1 to 12) from the month's name too", () => {
    const months = { type: "integer", enum: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] };
    const feb = JsonSchemaAutomaton.fromSchema(months, { copy: new CopySource(["days in feb 2028?"]) });
    expect(feb.accepts("2")).toBe(true);
    expect(feb.accepts("1")).toBe(false);
    const sept = JsonSchemaAutomaton.fromSchema(months, { copy: new CopySource(["Sept. or March 3"]) });
    expect([1, 3, 9].map((m) => sept.accepts(String(m)))).toEqual([false, true, true]);
    // an enum that is not a month reads no month names
    const other = JsonSchemaAutomaton.fromSchema({ enum: [1, 2, 3] }, { copy: new CopySource(["feb, 3"]) });
    expect(other.accepts("2")).toBe(false);
  });

  it("narrows a small integer range (written out as values) to the numbers stated in it", () => {
    const range = { type: "integer", minimum: 0, maximum: 170 };
    const copying = JsonSchemaAutomaton.fromSchema(range, {
      copy: new CopySource(["What is 12 factorial?"]),
    });
    expect(copying.accepts("12")).toBe(true);
    expect(copying.accepts("4")).toBe(false);
    const none = JsonSchemaAutomaton.fromSchema(range, { copy: new CopySource(["factorial of 500"]) });
    expect(none.accepts("4")).toBe(true);
  });

  it("leaves a leaf free when there is nothing to copy", () => {
    const empty = JsonSchemaAutomaton.fromSchema(
      { type: "object", properties: { n: { type: "integer" }, s: { type: "string" } }, required: ["n", "s"] },
      { copy: new CopySource(["no digits"]) },
    );
    expect(empty.accepts('{"n":99,"s":"digits"}')).toBe(true);
    expect(empty.accepts('{"n":99,"s":"other"}')).toBe(false);
    const none = JsonSchemaAutomaton.fromSchema({ type: "string" }, { copy: new CopySource([""]) });
    expect(none.accepts('"anything"')).toBe(true);
  });

  it("copies quoted text whole or not at all, and the text around it as before", () => {
    const question = `how many words in "the early bird" and 'a b' (don't split it's “c d”)`;
    expect(quotedSpans(question).map((q) => question.slice(q.start, q.end))).toEqual([
      "the early bird",
      "a b",
      "c d",
    ]);
    const quoted = JsonSchemaAutomaton.fromSchema({ type: "string" }, { copy: new CopySource([question]) });
    for (const ok of ["the early bird", "a b", "c d", "how many words", "don't split it's"])
      expect(quoted.accepts(JSON.stringify(ok)), ok).toBe(true);
    for (const bad of ["the early", "early bird", "bird", "a", 'in "the', "(don't split it's “c d"])
      expect(quoted.accepts(JSON.stringify(bad)), bad).toBe(false);
    // a quoted span longer than maxLength is left out; the text outside quotes stays
    const short = JsonSchemaAutomaton.fromSchema(
      { type: "string", maxLength: 5 },
      { copy: new CopySource(['say "far too long"']) },
    );
    expect(short.accepts('"say"')).toBe(true);
    expect(short.accepts('"far too long"')).toBe(false);
  });

  it("reads quotes as whole values only in the texts a person typed, not in a tool's result", () => {
    const source = new CopySource(['is "abba" a palindrome?', '"abba" is a palindrome'], {
      quotesWhole: [true, false],
    });
    const a = JsonSchemaAutomaton.fromSchema({ type: "string" }, { copy: source });
    for (const ok of ['"abba" is a palindrome', "abba", "a palindrome?"])
      expect(a.accepts(JSON.stringify(ok)), ok).toBe(true);
    expect(a.accepts(JSON.stringify('is "abba'))).toBe(false);
  });

  it("spends each stated number once, unless a leaf has nothing else left", () => {
    const pair = {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    };
    const check = (text: string, ok: string[], bad: string[]) => {
      const a = JsonSchemaAutomaton.fromSchema(pair, { copy: new CopySource([text]) });
      for (const o of ok) expect(a.accepts(o), `${text}: ${o}`).toBe(true);
      for (const b of bad) expect(a.accepts(b), `${text}: ${b}`).toBe(false);
    };
    check("multiply six by seven", ['{"a":6,"b":7}', '{"a":7,"b":6}'], ['{"a":6,"b":6}', '{"a":7,"b":7}']);
    check(
      "subtract 45 from 300",
      ['{"a":300,"b":45}', '{"a":-45,"b":300}'],
      ['{"a":45,"b":45}', '{"a":45,"b":-45}'],
    );
    check("5 times five", ['{"a":5,"b":5}'], []); // stated twice: spent twice
    check("roll 6d6 with seed 98", ['{"a":6,"b":6}', '{"a":6,"b":98}'], ['{"a":98,"b":98}']);
    // a leaf whose own numbers are all spent takes them again; the spent set crosses nested objects
    const bounded = JsonSchemaAutomaton.fromSchema(
      {
        type: "object",
        properties: {
          p: {
            type: "object",
            properties: { x: { type: "integer", minimum: 0, maximum: 10 } },
            required: ["x"],
          },
          y: { type: "integer", minimum: 0, maximum: 10 },
          z: { type: "integer" },
        },
        required: ["p", "y", "z"],
      },
      { copy: new CopySource(["7 and 100"]) },
    );
    expect(bounded.accepts('{"p":{"x":7},"y":7,"z":100}')).toBe(true);
    expect(bounded.accepts('{"p":{"x":7},"y":7,"z":7}')).toBe(false);
    // the fewest bytes become an upper bound: 100 may be all that is left for z
    // (the shortest stated value, 7, would promise 25 bytes and leave a decoder short of budget)
    expect(bounded.minBytesToComplete(bounded.start())).toBeGreaterThanOrEqual(
      '{"p":{"x":7},"y":7,"z":100}'.length,
    );
  });

  it("spends a string enum's value once written: a later leaf with the same values takes another", () => {
    const units = { type: "string", enum: ["km", "mi", "m"] };
    const convert = JsonSchemaAutomaton.fromSchema(
      {
        type: "object",
        properties: { value: { type: "number" }, from: units, to: units },
        required: ["value", "from", "to"],
      },
      { copy: new CopySource(["convert 5 kilometres to miles"]) },
    );
    expect(convert.accepts('{"value":5,"from":"km","to":"mi"}')).toBe(true);
    expect(convert.accepts('{"value":5,"from":"mi","to":"km"}')).toBe(true);
    expect(convert.accepts('{"value":5,"from":"km","to":"km"}')).toBe(false);
    // once every value is spent, a leaf takes any of them again
    const many = JsonSchemaAutomaton.fromSchema(
      { type: "array", items: { type: "string", enum: ["a", "b"] }, maxItems: 3 },
      { copy: new CopySource(["x"]) },
    );
    expect(many.accepts('["a","b","a"]')).toBe(true);
    expect(many.accepts('["a","a"]')).toBe(false);
    // without the copy constraint an enum is only an enum
    expect(JsonSchemaAutomaton.fromSchema(units).accepts('"km"')).toBe(true);
  });

  it("spends the values the question writes at one place together, and the values it writes first", () => {
    const cities = { type: "string", enum: ["New York", "New York City", "NYC", "Berlin", "Rome"] };
    const distance = JsonSchemaAutomaton.fromSchema(
      { type: "object", properties: { from: cities, to: cities }, required: ["from", "to"] },
      { copy: new CopySource(["How many km from New York City to Berlin?"]) },
    );
    expect(distance.accepts('{"from":"New York","to":"Berlin"}')).toBe(true);
    expect(distance.accepts('{"from":"New York City","to":"Berlin"}')).toBe(true);
    // "New York" is written inside "New York City": one place, one city
    expect(distance.accepts('{"from":"New York","to":"New York City"}')).toBe(false);
    // an enum longer than the 31 bits: the values written out get theirs first and are still spent
    const units = {
      type: "string",
      enum: [...Array.from({ length: 40 }, (_, i) => `unit${i}`), "yds", "metre"],
    };
    const convert = JsonSchemaAutomaton.fromSchema(
      { type: "object", properties: { from: units, to: units }, required: ["from", "to"] },
      { copy: new CopySource(["How many yds is fifteen metre"]) },
    );
    expect(convert.accepts('{"from":"yds","to":"metre"}')).toBe(true);
    expect(convert.accepts('{"from":"yds","to":"yds"}')).toBe(false);
  });

  it("takes the unit written right after a number first, for an enum right after a number property", () => {
    const units = { type: "string", enum: ["ft", "feet", "mi", "mile", "m", "metre", "yds"] };
    const convert = (question: string, order = ["value", "from", "to"]) =>
      JsonSchemaAutomaton.fromSchema(
        {
          type: "object",
          properties: Object.fromEntries(
            order.map((k) => [k, k === "value" ? { type: "number" } : units] as const),
          ),
          required: order,
        },
        { copy: new CopySource([question]) },
      );
    // the value's unit first, whichever is written first in the question
    expect(convert("119 feet to mile").accepts('{"value":119,"from":"feet","to":"mile"}')).toBe(true);
    expect(convert("119 feet to mile").accepts('{"value":119,"from":"mile","to":"feet"}')).toBe(false);
    const howMany = convert("How many yds is fifteen metre");
    expect(howMany.accepts('{"value":15,"from":"metre","to":"yds"}')).toBe(true);
    expect(howMany.accepts('{"value":15,"from":"yds","to":"metre"}')).toBe(false);
    // no unit after the number: the values written out come first, in the order written
    expect(convert("feet to mile, 119 of them").accepts('{"value":119,"from":"feet","to":"mile"}')).toBe(
      true,
    );
    expect(convert("feet to mile, 119 of them").accepts('{"value":119,"from":"mile","to":"feet"}')).toBe(
      false,
    );
    // an enum that does not follow the number property takes no unit first
    expect(
      convert("how many mile is 119 feet", ["from", "to", "value"]).accepts(
        '{"from":"mile","to":"feet","value":119}',
      ),
    ).toBe(true);
    // a short value counts as written out after a number, or after "to", "into", "in" or "as": "into m"
    const into = convert("convert 20 feet into m");
    expect(into.accepts('{"value":20,"from":"feet","to":"m"}')).toBe(true);
    for (const to of ["mi", "mile", "ft", "yds"])
      expect(into.accepts(`{"value":20,"from":"feet","to":"${to}"}`), to).toBe(false);
    expect(new CopySource(["convert 20 feet into m"]).statedAt("m")).toHaveLength(1);
    expect(new CopySource(["I'm a m dash"]).statedAt("m")).toHaveLength(0);
    expect(new CopySource(["it is 25 °C", "one two"]).followsNumber({ text: 0, start: 9 })).toBe(true);
    expect(new CopySource(["twenty metres"]).followsNumber({ text: 0, start: 7 })).toBe(true);
    expect(new CopySource(["someone metres"]).followsNumber({ text: 0, start: 8 })).toBe(false);
  });

  it("takes a number written beside a word of its property's name first", () => {
    const bmi = JsonSchemaAutomaton.fromSchema(
      {
        type: "object",
        properties: { weight_kg: { type: "number" }, height_m: { type: "number" } },
        required: ["weight_kg", "height_m"],
      },
      { copy: new CopySource(["I'm 1.78 m tall and weigh 82 kg, what's my BMI"]) },
    );
    expect(bmi.accepts('{"weight_kg":82,"height_m":1.78}')).toBe(true);
    expect(bmi.accepts('{"weight_kg":1.78,"height_m":82}')).toBe(false);
    const dice = JsonSchemaAutomaton.fromSchema(
      {
        type: "object",
        properties: { seed: { type: "integer" }, count: { type: "integer" } },
        required: ["seed", "count"],
      },
      { copy: new CopySource(["roll 4 dice, seed 1405"]) },
    );
    expect(dice.accepts('{"seed":1405,"count":4}')).toBe(true);
    expect(dice.accepts('{"seed":4,"count":1405}')).toBe(false);
    // a number beside another number property's name is left to it ("four-sided" names no number)
    const sides = JsonSchemaAutomaton.fromSchema(
      {
        type: "object",
        properties: { count: { type: "integer" }, sides: { type: "integer" }, seed: { type: "integer" } },
        required: ["count", "sides", "seed"],
      },
      { copy: new CopySource(["roll 4 four-sided dice, seed 1405"]) },
    );
    expect(sides.accepts('{"count":4,"sides":4,"seed":1405}')).toBe(true);
    expect(sides.accepts('{"count":4,"sides":1405,"seed":4}')).toBe(false);
    // glued units count; a one-letter name ("a", "x") is no word to look for
    expect(new CopySource(["bmi 55kg 1.61m"]).numbersBeside(["height", "m"])).toEqual([1.61]);
  });

  it("gives a property that names a file a file name the question writes, when it writes any", () => {
    const write = {
      type: "object",
      properties: { path: { type: "string" }, content: { type: "string" } },
      required: ["path", "content"],
    };
    const auto = (question: string) =>
      JsonSchemaAutomaton.fromSchema(write, { copy: new CopySource([question], { quotesFirst: true }) });
    const named = auto("store abracadabra in a file named out.txt");
    expect(named.accepts('{"path":"out.txt","content":"abracadabra"}')).toBe(true);
    expect(named.accepts('{"path":"abracadabra","content":"abracadabra"}')).toBe(false);
    expect(named.accepts('{"path":"named out.txt","content":"abracadabra"}')).toBe(false);
    // a quoted text is still written, and by the content
    const quoted = auto('write "green tea" into memo.txt');
    expect(quoted.accepts('{"path":"memo.txt","content":"green tea"}')).toBe(true);
    expect(quoted.accepts('{"path":"green tea","content":"memo.txt"}')).toBe(false);
    // a quoted file name is one too; without any file name the path copies as before
    expect(auto("save 'hi' to 'my notes.txt'").accepts('{"path":"my notes.txt","content":"hi"}')).toBe(true);
    expect(auto("save hi to notes").accepts('{"path":"notes","content":"hi"}')).toBe(true);
    expect(fileNames("open notes.txt, then logs/app.log and 1.61m or e.g. 3.5", [])).toEqual([
      "notes.txt",
      "logs/app.log",
    ]);
  });

  it("gives a property the quoted span written after the word its tool's description puts before its name", () => {
    const count = {
      type: "object",
      properties: { text: { type: "string" }, word: { type: "string" } },
      required: ["text", "word"],
    };
    const question = 'how often does "gold" appear in "all that glitters is not gold"';
    const cued = JsonSchemaAutomaton.fromSchema(count, {
      copy: new CopySource([question], {
        quotesFirst: true,
        description: "Count how many times a word occurs in a text",
      }),
    });
    expect(cued.accepts('{"text":"all that glitters is not gold","word":"gold"}')).toBe(true);
    expect(cued.accepts('{"text":"gold","word":"all that glitters is not gold"}')).toBe(false);
    // without the description, either order
    const plain = JsonSchemaAutomaton.fromSchema(count, {
      copy: new CopySource([question], { quotesFirst: true }),
    });
    expect(plain.accepts('{"text":"gold","word":"all that glitters is not gold"}')).toBe(true);
    expect(cueWords("Replace every match of a regular expression in a text", ["text"])).toEqual(["in"]);
  });

  it("takes the enum values the question writes out first, in the order written, as whole words", () => {
    const units = { type: "string", enum: ["km", "mi", "m", "in"] };
    const cities = { type: "string", enum: ["Paris", "Berlin", "Rome"] };
    const convert = (question: string) =>
      JsonSchemaAutomaton.fromSchema(
        {
          type: "object",
          properties: { from: units, to: units, a: cities, b: cities },
          required: ["from", "to", "a", "b"],
        },
        { copy: new CopySource([question, "km mi Rome"], { quotesWhole: [true, false] }) },
      );
    const said = convert("5 km in 2 mi, from paris to berlin");
    expect(said.accepts('{"from":"km","to":"mi","a":"Paris","b":"Berlin"}')).toBe(true);
    expect(said.accepts('{"from":"mi","to":"km","a":"Berlin","b":"Paris"}')).toBe(false);
    // "in" is a word, not inches (short values match in their own case only); a tool's text states nothing
    expect(said.accepts('{"from":"in","to":"km","a":"Paris","b":"Berlin"}')).toBe(false);
    expect(said.accepts('{"from":"km","to":"mi","a":"Rome","b":"Berlin"}')).toBe(false);
    // once the stated values are spent, the others open; "kmh" states no km (inside a word)
    const one = convert("5 km to miles between Paris and Rome");
    expect(one.accepts('{"from":"km","to":"mi","a":"Paris","b":"Rome"}')).toBe(true);
    expect(one.accepts('{"from":"mi","to":"km","a":"Paris","b":"Rome"}')).toBe(false);
    expect(convert("5 kmh").accepts('{"from":"in","to":"m","a":"Rome","b":"Paris"}')).toBe(true);
    // a symbol before a value is no letter: "25 °C" states C
    const scale = { type: "string", enum: ["C", "F", "K"] };
    const temp = JsonSchemaAutomaton.fromSchema(
      { type: "object", properties: { from: scale, to: scale }, required: ["from", "to"] },
      { copy: new CopySource(["What is 25 °C in Fahrenheit?"]) },
    );
    expect(temp.accepts('{"from":"C","to":"F"}')).toBe(true);
    expect(temp.accepts('{"from":"F","to":"C"}')).toBe(false);
  });

  it("under quotesFirst, every quoted span is written: a string leaf copies other text only while later ones can take the spans left", () => {
    const pair = {
      type: "object",
      properties: { label: { type: "string" }, body: { type: "string" } },
      required: ["label", "body"],
    };
    const question = 'how many times does "the" appear in "the cat and the hat"?';
    const first = JsonSchemaAutomaton.fromSchema(pair, {
      copy: new CopySource([question], { quotesFirst: true }),
    });
    expect(first.accepts('{"label":"the cat and the hat","body":"the"}')).toBe(true);
    expect(first.accepts('{"label":"the","body":"the cat and the hat"}')).toBe(true);
    expect(first.accepts('{"label":"how many times","body":"the"}')).toBe(false);
    expect(first.accepts('{"label":"the","body":"the"}')).toBe(false);
    // without quotesFirst the text outside quotes stays open
    const plain = JsonSchemaAutomaton.fromSchema(pair, { copy: new CopySource([question]) });
    expect(plain.accepts('{"label":"how many times","body":"the"}')).toBe(true);
    // one quoted span, two leaves: either may take it, but one must; the other copies freely
    const one = JsonSchemaAutomaton.fromSchema(pair, {
      copy: new CopySource(['save "buy eggs" to shopping.txt'], { quotesFirst: true }),
    });
    expect(one.accepts('{"label":"buy eggs","body":"shopping.txt"}')).toBe(true);
    expect(one.accepts('{"label":"shopping.txt","body":"buy eggs"}')).toBe(true);
    expect(one.accepts('{"label":"shopping.txt","body":"save"}')).toBe(false);
    expect(one.accepts('{"label":"save","body":"shopping.txt"}')).toBe(false);
    // the fewest bytes stay an upper bound: the longest span may be all that is left
    expect(one.minBytesToComplete(one.start())).toBeGreaterThanOrEqual(
      '{"label":"buy eggs","body":"save"}'.length,
    );
  });

  it("never copies the request's words (the called tool's name) from what a person typed", () => {
    const hash = JsonSchemaAutomaton.fromSchema(
      { type: "string" },
      { copy: new CopySource(["SHA256 of abc, please"], { requestWords: ["sha256", "hash"] }) },
    );
    for (const ok of ["abc", "of abc", "please"]) expect(hash.accepts(JSON.stringify(ok)), ok).toBe(true);
    for (const bad of ["SHA256", "SHA256 of abc"]) expect(hash.accepts(JSON.stringify(bad)), bad).toBe(false);
    // inside quotes it is data, and a word that merely contains it is another word
    const quoted = JsonSchemaAutomaton.fromSchema(
      { type: "string" },
      { copy: new CopySource(['hash "hash browns" and hashes'], { requestWords: ["hash"] }) },
    );
    for (const ok of ["hash browns", "and hashes"]) expect(quoted.accepts(JSON.stringify(ok)), ok).toBe(true);
  });

  it("starts or ends no copy from what a person typed on an edge word, but copies through one", () => {
    const a = JsonSchemaAutomaton.fromSchema(
      { type: "string" },
      {
        copy: new CopySource(["count the vowels in the word onomatopoeia", "the tool's own words"], {
          edgeWords: ["the", "word", "in"],
          quotesWhole: [true, false],
        }),
      },
    );
    for (const ok of [
      "onomatopoeia",
      "vowels in the word onomatopoeia",
      "count the vowels",
      "the tool's own",
      "the tool's own words", // not what a person typed
    ])
      expect(a.accepts(JSON.stringify(ok)), ok).toBe(true);
    for (const bad of [
      "the word onomatopoeia",
      "word onomatopoeia",
      "in the word",
      "the vowels",
      "count the vowels in", // ends on one
      "count the",
    ])
      expect(a.accepts(JSON.stringify(bad)), bad).toBe(false);
    // "in" ends no copy, wherever it stands; a regular expression may end on its "+"
    const b = JsonSchemaAutomaton.fromSchema(
      { type: "string" },
      { copy: new CopySource(["find \\d+ in order in"], { edgeWords: ["in"] }) },
    );
    expect(b.accepts(JSON.stringify("\\d+"))).toBe(true);
    expect(b.accepts(JSON.stringify("\\d+ in order"))).toBe(true);
    expect(b.accepts(JSON.stringify("\\d+ in"))).toBe(false);
    expect(b.accepts(JSON.stringify("order in"))).toBe(false);
    // nor inside a bracket its run of non-spaces opened
    const c = JsonSchemaAutomaton.fromSchema(
      { type: "string" },
      { copy: new CopySource(["calc 2^10 - 3*(7+5) now"]) },
    );
    expect(c.accepts(JSON.stringify("2^10 - 3*(7+5)"))).toBe(true);
    expect(c.accepts(JSON.stringify("2^10 - 3*(7+5"))).toBe(false);
    expect(c.accepts(JSON.stringify("2^10 - 3*(7"))).toBe(false);
  });

  it("takes text introduced after a pointing colon whole, like a quotation", () => {
    expect(introduced("rot13 this: Uryyb Jbeyq")).toBe("Uryyb Jbeyq");
    expect(introduced("count the words in this sentence: the early bird catches the worm.")).toBe(
      "the early bird catches the worm",
    );
    // no pointing word before the colon, or a colon inside a time: nothing introduced
    for (const t of ["quick question: how tall is it", "if it's 9:30 in New York"])
      expect(introduced(t), t).toBeUndefined();
    const a = JsonSchemaAutomaton.fromSchema(
      { type: "string" },
      { copy: new CopySource(["make this all caps: please do not disturb"]) },
    );
    for (const ok of ["please do not disturb", "make this all caps"])
      expect(a.accepts(JSON.stringify(ok)), ok).toBe(true);
    for (const bad of ["please", "do not disturb", "caps: please"])
      expect(a.accepts(JSON.stringify(bad)), bad).toBe(false);
  });

  it("copies a `whole` text whole or not at all", () => {
    const answer = JsonSchemaAutomaton.fromSchema(
      { type: "string" },
      { copy: new CopySource(['make "shout this" uppercase', "SHOUT THIS!"], { whole: [false, true] }) },
    );
    for (const ok of ["SHOUT THIS!", "shout this", "uppercase"])
      expect(answer.accepts(JSON.stringify(ok)), ok).toBe(true);
    for (const bad of ["SHOUT", "SHOUT THIS", "THIS", "THIS!", "SHOU", "SHOUT TH"])
      expect(answer.accepts(JSON.stringify(bad)), bad).toBe(false);
    // the budget still holds: the shortest value is a question span ("make": a copy starts on no space)
    expect(answer.minBytesToComplete(answer.start())).toBe('"make"'.length);
    const only = JsonSchemaAutomaton.fromSchema(
      { type: "string" },
      { copy: new CopySource(["SHOUT THIS!"], { whole: [true] }) },
    );
    expect(only.minBytesToComplete(only.start())).toBe('"SHOUT THIS!"'.length);
    // longer than the leaf may be: its longest beginning that fits and ends where a word ends
    const short = JsonSchemaAutomaton.fromSchema(
      { type: "string", maxLength: 8 },
      { copy: new CopySource(["SHOUT THIS!"], { whole: [true] }) },
    );
    expect(short.accepts('"SHOUT"')).toBe(true);
    for (const bad of ["SHOUT THIS!", "SHOUT ", "SHOUT TH"])
      expect(short.accepts(JSON.stringify(bad)), bad).toBe(false);
    // quotesOnly: the question gives only what it quotes
    const reported = JsonSchemaAutomaton.fromSchema(
      { type: "string" },
      {
        copy: new CopySource(['make "shout this" uppercase', "SHOUT THIS!"], {
          whole: [false, true],
          quotesOnly: [true, false],
        }),
      },
    );
    for (const ok of ["SHOUT THIS!", "shout this"])
      expect(reported.accepts(JSON.stringify(ok)), ok).toBe(true);
    for (const bad of ["make", "uppercase", " "])
      expect(reported.accepts(JSON.stringify(bad)), bad).toBe(false);
  });

  it("counts the fewest bytes to a completion exactly (multi-byte and escaped characters)", () => {
    const only = JsonSchemaAutomaton.fromSchema(
      { type: "string", minLength: 2 },
      {
        copy: new CopySource(["日本\n語"]),
      },
    );
    // "本\n語" would be 10 bytes but starts inside the word 日本; the fewest is "日本", 8 bytes with its quotes
    expect(only.minBytesToComplete(only.start())).toBe(Buffer.byteLength('"日本"'));
    expect(only.accepts('"日本"')).toBe(true);
    expect(only.accepts('"日本\\n語"')).toBe(true);
    // no copy ends on a space, a newline among them
    expect(only.accepts('"日本\\n"')).toBe(false);
    expect(only.accepts('"本\\n語"')).toBe(false);
    expect(only.accepts('"日"')).toBe(false);
  });
});

/** Word characters (letters, digits, non-ASCII) or not: a copy may not cut a run of word characters. */
function charClass(ch: string | undefined): string {
  if (ch === undefined) return "none";
  if (/[0-9A-Za-z]/.test(ch) || ch.charCodeAt(0) > 0x7f) return "word";
  return "other";
}

/** Is `value` a substring of `text` that starts and ends on word boundaries? */
function copiedWhole(text: string, value: string): boolean {
  for (let i = text.indexOf(value); i >= 0; i = text.indexOf(value, i + 1)) {
    const [first, last] = [charClass(text[i]), charClass(text[i + value.length - 1])];
    const startOk = first === "other" || charClass(text[i - 1]) !== first;
    const endOk = last === "other" || charClass(text[i + value.length]) !== last;
    if (startOk && endOk) return true;
  }
  return false;
}

/** Does `value` keep to the copy rules of `node`: copied strings are substrings, numbers stated? */
function copied(node: SchemaNode, value: unknown, texts: string[], numbers: number[], depth = 0): boolean {
  if (depth > 8) return true;
  const deeper = (n: SchemaNode, v: unknown) => copied(n, v, texts, numbers, depth + 1);
  switch (node.kind) {
    case "literal": {
      const stated = node.range ? node.values.filter((v) => numbers.includes(v as number)) : [];
      if (stated.length > 0) return stated.includes(value);
      return node.values.some((v) => JSON.stringify(v) === JSON.stringify(value));
    }
    case "string":
      return typeof value === "string" && value.length > 0 && texts.some((t) => copiedWhole(t, value));
    case "number": {
      if (typeof value !== "number") return false;
      const b = node.bounds;
      const fits = numbers.filter(
        (v) =>
          (!node.integer || Number.isInteger(v)) &&
          (b.minimum === undefined || v >= b.minimum) &&
          (b.maximum === undefined || v <= b.maximum) &&
          (b.exclusiveMinimum === undefined || v > b.exclusiveMinimum) &&
          (b.exclusiveMaximum === undefined || v < b.exclusiveMaximum),
      );
      return fits.length === 0 || fits.includes(value);
    }
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value) && value.every((v) => deeper(node.items, v));
    case "object": {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
      const props = new Map(node.properties.map((p) => [p.key, p.value]));
      return Object.entries(value).every(([k, v]) => props.has(k) && deeper(props.get(k)!, v));
    }
    case "map":
      return (
        typeof value === "object" &&
        value !== null &&
        !Array.isArray(value) &&
        Object.values(value).every((v) => deeper(node.values, v))
      );
    case "union":
      return node.options.some((o) => deeper(o, value));
    case "any":
      return true;
    case "ref":
      return deeper(node.target(), value);
  }
}

const fragment = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom(
    "Zürich",
    "12",
    "-3.5",
    "seventeen",
    "twenty-one",
    'say "hi"',
    "back\\slash",
    "line\nbreak",
  ),
  fc.constantFrom("😀", "1,234", "\t", "日本語", "0.25", "a\rb"),
);
// "abc def" first: every string leaf of the schemas (minLength ≤ 3) has something to copy
const texts = fc.array(
  fc.array(fragment, { maxLength: 6 }).map((parts) => `abc def ${parts.join(" ")}`),
  { minLength: 1, maxLength: 2 },
);

describe("copy constraint (property)", () => {
  it("random schemas × random texts × random logits: valid JSON whose free leaves are copied", () => {
    fc.assert(
      fc.property(
        schema,
        texts,
        fc.nat(1_000_000),
        fc.nat(40),
        fc.constantFrom(0, 1, 3),
        fc.boolean(),
        (s: JsonSchema, ts, seed, slack, temperature, quotesFirst) => {
          if (fractionOnly(s)) return;
          let valid: ReturnType<Ajv["compile"]>;
          try {
            valid = ajv.compile(s);
          } catch {
            return;
          }
          // with quotesFirst, also the first text copied only from its start (an answer quoting a result)
          const source = new CopySource(ts, {
            quotesFirst,
            whole: ts.map((_, i) => quotesFirst && i === 0),
          });
          let c;
          try {
            c = jsonSchemaConstraint(s, demo, [endId], {
              maxStringLength: 16,
              maxItems: 4,
              maxProperties: 3,
              copy: source,
            });
          } catch (error) {
            expect((error as Error).message).toMatch(
              /accepts no|no value|no integer|no number|accepts nothing/,
            );
            return;
          }
          const maxTokens = c.bytesToComplete + slack;
          const rng = new Rng(seed);
          const pickRng = new Rng(seed + 1);
          const logits = new Float32Array(demo.vocabSize);
          const ids: number[] = [];
          while (ids.length < maxTokens) {
            for (let i = 0; i < logits.length; i++) logits[i] = rng.next() * 8;
            const allowed = c.allowed(maxTokens - ids.length);
            if (allowed.length === 0) break;
            const id = pickToken(logits, { temperature }, pickRng, allowed);
            if (!c.accept(id)) break;
            ids.push(id);
          }
          expect(c.complete).toBe(true);
          const out = demo.decode(ids);
          const value: unknown = JSON.parse(out);
          expect(valid(value), `${JSON.stringify(s)}\n${out}\n${ajv.errorsText(valid.errors)}`).toBe(true);
          expect(
            copied(normaliseSchema(s), value, ts, [...source.signedNumbers]),
            `${JSON.stringify(s)}\n${out}`,
          ).toBe(true);
        },
      ),
      { numRuns: 150, seed: 23 },
    );
  });
});
