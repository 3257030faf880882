import { describe, expect, it } from "vitest";
import { catalogId } from "../src/catalog/catalog.ts";
import { toolToken } from "../src/toolgen/tokens.ts";

describe("catalog ids", () => {
  it("joins tool and api with && and wraps tokens", () => {
    expect(catalogId("Weather", "Get current")).toBe("Weather&&Get current");
    expect(catalogId("multiply")).toBe("multiply");
    expect(toolToken("Weather&&Get current")).toBe("<<Weather&&Get current>>");
  });
});
