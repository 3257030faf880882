import { createHash } from "node:crypto";
import { mulberry32 as seeded } from "../../eval/split.ts";
import { P, toolMethod } from "../../tools/decorators.ts";

const TEXT = P("text", "string", "The text");
const SEED = P("seed", "integer", "The random seed; the same seed gives the same result");

/** Hashing, encodings and seeded randomness, defined as decorated class methods. */
export class CodecTools {
  @toolMethod("The SHA-256 hash of a text, in hex", TEXT)
  sha256_hash(text: string): string {
    return createHash("sha256").update(text).digest("hex");
  }

  @toolMethod("The MD5 hash of a text, in hex", TEXT)
  md5_hash(text: string): string {
    return createHash("md5").update(text).digest("hex");
  }

  @toolMethod("The SHA-1 hash of a text, in hex", TEXT)
  sha1_hash(text: string): string {
    return createHash("sha1").update(text).digest("hex");
  }

  @toolMethod("Encode a text as Base64", TEXT)
  base64_encode(text: string): string {
    return Buffer.from(text, "utf8").toString("base64");
  }

  @toolMethod("Decode a Base64 string back to text", P("data", "string", "The Base64 string"))
  base64_decode(data: string): string {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data)) throw new Error(`${JSON.stringify(data)} is not Base64`);
    return Buffer.from(data, "base64").toString("utf8");
  }

  @toolMethod("Percent-encode a text for use in a URL", TEXT)
  url_encode(text: string): string {
    return encodeURIComponent(text);
  }

  @toolMethod("Decode a percent-encoded URL component", TEXT)
  url_decode(text: string): string {
    return decodeURIComponent(text);
  }

  @toolMethod("The hexadecimal bytes of a text (UTF-8)", TEXT)
  hex_encode(text: string): string {
    return Buffer.from(text, "utf8").toString("hex");
  }

  @toolMethod("Apply the ROT13 letter substitution cipher to a text", TEXT)
  rot13(text: string): string {
    return text.replace(/[a-z]/gi, (c) => {
      const base = c <= "Z" ? 65 : 97;
      return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
    });
  }

  @toolMethod(
    "A seeded random whole number between a minimum and a maximum, both included",
    P("min", "integer", "The smallest value"),
    P("max", "integer", "The largest value"),
    SEED,
  )
  random_integer(min: number, max: number, seed: number): string {
    if (max < min) throw new Error(`max (${max}) is below min (${min})`);
    return String(min + Math.floor(seeded(seed)() * (max - min + 1)));
  }

  @toolMethod(
    "Roll dice with a seed: how many dice and how many sides each",
    P("count", "integer", "How many dice"),
    P("sides", "integer", "Sides per die"),
    SEED,
  )
  roll_dice(count: number, sides: number, seed: number): string {
    const next = seeded(seed);
    const rolls = Array.from(
      { length: Math.min(Math.max(count, 1), 100) },
      () => 1 + Math.floor(next() * sides),
    );
    return `rolled ${rolls.join(", ")} (total ${rolls.reduce((s, r) => s + r, 0)})`;
  }

  @toolMethod("Shuffle the words of a text with a seed", TEXT, SEED)
  shuffle_words(text: string, seed: number): string {
    const next = seeded(seed);
    const w = text.split(/\s+/).filter(Boolean);
    for (let i = w.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [w[i], w[j]] = [w[j]!, w[i]!];
    }
    return w.join(" ");
  }

  @toolMethod(
    "A seeded random password of a given length",
    P("length", "integer", "How many characters"),
    SEED,
  )
  random_password(length: number, seed: number): string {
    const chars = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789!#%+";
    const next = seeded(seed);
    return Array.from(
      { length: Math.min(Math.max(length, 1), 128) },
      () => chars[Math.floor(next() * chars.length)],
    ).join("");
  }
}
