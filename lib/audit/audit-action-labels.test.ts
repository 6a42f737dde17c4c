import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { auditActionLabel, auditActionLabels } from "./audit-action-labels";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

describe("audit action labels", () => {
  it("every action the code records has a readable label on the audit page", () => {
    const recorded = new Set<string>();
    for (const file of sourceFiles(path.resolve("lib"))) {
      const source = readFileSync(file, "utf8");
      if (!source.includes("recordAuditEvent(")) continue;
      for (const match of source.matchAll(/action:\s*(?:[^,{}]*?\?\s*)?"([a-z]+\.[a-z_]+)"(?:\s*:\s*"([a-z]+\.[a-z_]+)")?/g)) {
        recorded.add(match[1]!);
        if (match[2]) recorded.add(match[2]);
      }
    }
    expect(recorded).toContain("sync.session_started");
    expect(recorded).toContain("location.schedule_resumed");
    expect([...recorded].filter((action) => !(action in auditActionLabels))).toEqual([]);
  });

  it("shows an unknown action as its code", () => {
    expect(auditActionLabel("sync.session_cancelled")).toBe("Sync cancelled");
    expect(auditActionLabel("something.old")).toBe("something.old");
  });
});
