import { describe, expect, it } from "vitest";
import { parseLocationCsv } from "./parse-location-csv";

const header = "name,time_zone,country,environment,upstream_location_id,source_key";
const row = (n: number) => `Salon ${n},Europe/Berlin,DE,staging,up-${n},s${n}`;

describe("a quote left open", () => {
  it("is reported at the line it opens on, not the file's last line", () => {
    const lines = [header, row(1), row(2), `"Salon 3,Europe/Berlin,DE,staging,up-3,s3`, ...Array.from({ length: 200 }, (_, i) => row(i + 4))];
    const { rows, problems } = parseLocationCsv(lines.join("\n"));
    expect({ rows, problems }).toEqual({ rows: [], problems: [expect.objectContaining({ row: 4, field: "file" })] });
  });

  it("in a later column, after a blank line, a quoted line break and CRLF, names that row's line", () => {
    const csv = ["\ufeff" + header, `"Salon\r\nOne",Europe/Berlin,DE,staging,up-1,s1`, "", `Salon 2,"Europe/Berlin,DE,staging,up-2,s2`, row(3)].join(
      "\r\n",
    );
    expect(parseLocationCsv(csv).problems).toEqual([expect.objectContaining({ row: 5, field: "file" })]);
  });
});

describe("a row of only separators", () => {
  it("(a spreadsheet's formatted blank row) is skipped like a blank line", () => {
    const { rows, problems } = parseLocationCsv([header, row(1), ",,,,,", ",,,,,"].join("\r\n"));
    expect({ rows: rows.length, problems }).toEqual({ rows: 1, problems: [] });
  });

  it("between rows, with spaces or semicolons, leaves the next rows' line numbers right", () => {
    const semicolons = (line: string) => line.replaceAll(",", ";");
    const csv = [header, row(1), " , ,,,,", row(2), "Salon 3,Not/AZone,DE,staging,up-3,s3"].map(semicolons).join("\n");
    const { rows, problems } = parseLocationCsv(csv);
    expect({ rows: rows.map((entry) => entry.row), problems: problems.map((problem) => [problem.row, problem.field]) }).toEqual({
      rows: [2, 4],
      problems: [[5, "time_zone"]],
    });
  });

  it("alone under the header is a file without rows", () => {
    expect(parseLocationCsv([header, ",,,,,"].join("\n")).problems).toEqual([{ row: 1, field: "file", reason: "has no rows under its header" }]);
  });
});
