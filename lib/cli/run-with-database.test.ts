import { describe, expect, it } from "vitest";
import { previewRuns } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { describeFailure } from "./run-with-database";

const { db } = await useTestDatabase();

describe("the CLI's failure line", () => {
  it("shows of an unexpected failed query the first line only, never the parameters that follow its SQL", async () => {
    const email = "person.private@example.test";
    const failure = await db
      .insert(previewRuns)
      .values({ locationId: "00000000-0000-4000-8000-000000000000", requestedByEmail: email })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(String((failure as Error).message)).toContain(email);
    const described = describeFailure(failure);
    expect(described).toMatch(/^\w+: Failed query: insert into "preview_runs"/);
    expect(described).not.toContain("\n");
    expect(described).not.toContain(email);
  });
});
