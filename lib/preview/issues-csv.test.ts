import { describe, expect, it } from "vitest";
import { spreadsheetSafe } from "./issues-csv";

describe("spreadsheetSafe", () => {
  it("quotes every cell a spreadsheet would read as a formula", () => {
    for (const value of ["=1+1", "+1", "-1", "@SUM(A1)", " =1+1", "  +1", "\n=1+1", "\t1", "\r1", "＝1+1", " ＋1", "－1", "＠A1"])
      expect(spreadsheetSafe(value), JSON.stringify(value)).toBe(`'${value}`);
  });

  it("leaves every other cell as it is", () => {
    for (const value of ["Grace", "a=b", "1-2", "mail@example.com", " Grace", "", "(030) 123"])
      expect(spreadsheetSafe(value), JSON.stringify(value)).toBe(value);
    expect(spreadsheetSafe(null)).toBe("");
    expect(spreadsheetSafe(undefined)).toBe("");
  });
});
