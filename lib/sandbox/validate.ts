import type { z } from "zod";
import type { SandboxErrorDetail } from "./errors";

export interface RecordProblem extends SandboxErrorDetail {
  code: string;
}

/** One zod issue → `{index, field, reason}`; the field is the dotted path inside the record. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], index?: number, prefix = ""): RecordProblem[] {
  return issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    const field = [prefix, path].filter(Boolean).join(".");
    return {
      code: "invalid_records",
      ...(index === undefined ? {} : { index }),
      ...(field ? { field } : {}),
      reason: issue.code === "unrecognized_keys" ? `unknown field(s) ${issue.keys.join(", ")}` : issue.message,
    };
  });
}

export function validateRecord<T>(schema: z.ZodType<T>, value: unknown, index: number): { record?: T; problems: RecordProblem[] } {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { record: parsed.data, problems: [] };
  return { problems: describeIssues(parsed.error.issues, index) };
}

/** The local calendar date of a spec date-time: its first ten characters (wall-clock date at its offset). */
export function localDateOf(dateTime: string): string {
  return dateTime.slice(0, 10);
}

export function toDetail(problem: RecordProblem): SandboxErrorDetail {
  return {
    ...(problem.index === undefined ? {} : { index: problem.index }),
    ...(problem.field === undefined ? {} : { field: problem.field }),
    reason: problem.reason,
  };
}
