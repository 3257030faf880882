import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ToolgenError, TOOLGEN_ERROR_CODES } from "../src/errors.ts";
import * as server from "../src/entry/server.ts";
import * as testing from "../src/entry/testing.ts";
import * as toolgen from "../src/index.ts";
import { UnsupportedConstraintError } from "../src/models/http-errors.ts";

describe("ToolgenError", () => {
  it("carries a code, a message and a cause", () => {
    const cause = new Error("disk");
    const error = new ToolgenError("invalid_input", "data.json: not JSON", { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe("invalid_input");
    expect(error.message).toBe("data.json: not JSON");
    expect(error.cause).toBe(cause);
    expect(ToolgenError.isInstance(error)).toBe(true);
    expect(ToolgenError.hasCode(error, "invalid_input")).toBe(true);
    expect(ToolgenError.hasCode(error, "parse")).toBe(false);
  });

  it("recognizes errors from another copy of the package, where instanceof fails", async () => {
    // The query string makes Vite load errors.ts a second time: a second class, as in a second install.
    const copy: typeof import("../src/errors.ts") =
      // @ts-expect-error -- TypeScript does not know Vite's query strings; the module is the same file
      await import("../src/errors.ts?copy");
    expect(copy.ToolgenError).not.toBe(ToolgenError);
    const foreign = new copy.ToolgenError("model_timeout", "no answer");
    expect(foreign instanceof ToolgenError).toBe(false);
    expect(ToolgenError.isInstance(foreign)).toBe(true);
    expect(ToolgenError.hasCode(foreign, "model_timeout")).toBe(true);
  });

  it("is not fooled by a name string or a plain error with a code", () => {
    const faked = Object.assign(new Error("x"), {
      name: "UnsupportedConstraintError",
      code: "unsupported_constraint",
    });
    expect(ToolgenError.isInstance(faked)).toBe(false);
    expect(ToolgenError.isInstance(undefined)).toBe(false);
    expect(ToolgenError.isInstance("unsupported_constraint")).toBe(false);
  });

  it("gives subclasses their own code and keeps their names", () => {
    const error = new UnsupportedConstraintError("no grammar here");
    expect(error.name).toBe("UnsupportedConstraintError");
    expect(ToolgenError.hasCode(error, "unsupported_constraint")).toBe(true);
    expect(new toolgen.ModelTimeoutError("slow").code).toBe("model_timeout");
    expect(new toolgen.ModelResponseError("odd").code).toBe("model_response");
  });

  it("is the base of every error class the package exports", () => {
    const entries: Record<string, unknown> = { ...toolgen, ...server, ...testing };
    const classes = Object.entries(entries).filter(
      (entry): entry is [string, abstract new (...args: never[]) => unknown] =>
        /^[A-Z]\w*Error$/.test(entry[0]) && typeof entry[1] === "function",
    );
    expect(classes.length).toBeGreaterThan(8);
    for (const [name, value] of classes) {
      expect(value === ToolgenError || value.prototype instanceof ToolgenError, name).toBe(true);
    }
  });

  it("has distinct codes, each documented in docs/errors.md", () => {
    expect(new Set(TOOLGEN_ERROR_CODES).size).toBe(TOOLGEN_ERROR_CODES.length);
    const doc = readFileSync(resolve(import.meta.dirname, "../docs/errors.md"), "utf8");
    for (const code of TOOLGEN_ERROR_CODES) expect(doc, code).toContain(`| \`${code}\``);
  });
});
