import { describe, expect, it } from "vitest";
import { formatCount, pluralize } from "./plural";

describe("pluralize", () => {
  it("puts the noun in the number the count asks for", () => {
    expect(pluralize(0, "error")).toBe("0 errors");
    expect(pluralize(1, "error")).toBe("1 error");
    expect(pluralize(2, "error")).toBe("2 errors");
    expect(pluralize(1, "record was", "records were")).toBe("1 record was");
    expect(pluralize(365, "record was", "records were")).toBe("365 records were");
  });

  it("writes large counts with thousands separators", () => {
    expect(pluralize(3444, "record")).toBe("3,444 records");
    expect(formatCount(1234567)).toBe("1,234,567");
  });
});
