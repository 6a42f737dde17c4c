import type { DateTimeStyle } from "@/lib/upstream/formats";
import { recordSchemasOf, type UpstreamRecordType } from "@/lib/upstream/records";
import { errorIssue, hasError } from "./issues";
import type { MappedRow, MappingContext, MappingIssue, UpstreamRecordOf } from "./mapping-types";
import { passesPlainCheck } from "./record-checks";

type RecordSchemas = ReturnType<typeof recordSchemasOf>;
const schemasByStyle = new Map<DateTimeStyle, RecordSchemas>();

function schemasOf(style: DateTimeStyle): RecordSchemas {
  let schemas = schemasByStyle.get(style);
  if (schemas === undefined) {
    schemas = recordSchemasOf(style);
    schemasByStyle.set(style, schemas);
  }
  return schemas;
}

/** The record without its undefined fields: an omitted field is absent, not `undefined`. */
export function withoutUndefined<T extends object>(record: T): T {
  const defined: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    const value = (record as Record<string, unknown>)[key];
    if (value === undefined) continue;
    // Assigning __proto__ would set the prototype; an own property of that name is defined instead.
    if (key === "__proto__") Object.defineProperty(defined, key, { value, enumerable: true, writable: true, configurable: true });
    else defined[key] = value;
  }
  return defined as T;
}

/** A row that an error excludes. */
export function rejectedRow<R>(sourceId: string, issues: MappingIssue[]): MappedRow<R> {
  return { sourceId, record: null, issues, excludedByRule: null };
}

/**
 * A built record, checked against the upstream schema of its type as the last step: the contract with the sync engine
 * is that every emitted record passes it. A record that does not (a mapping bug) is excluded with an error, never sent.
 * The plain check (record-checks.ts) answers first for the types it knows; the schema decides whatever it does not pass.
 */
export function checkedRow<T extends UpstreamRecordType>(
  type: T,
  sourceId: string,
  record: UpstreamRecordOf[T],
  issues: MappingIssue[],
  ctx: MappingContext,
): MappedRow<UpstreamRecordOf[T]> {
  if (hasError(issues)) return rejectedRow(sourceId, issues);
  if (passesPlainCheck(type, record, ctx.dateTimeStyle)) return { sourceId, record, issues, excludedByRule: null };
  const result = schemasOf(ctx.dateTimeStyle)[type].safeParse(record);
  if (result.success) return { sourceId, record, issues, excludedByRule: null };
  const schemaIssues = result.error.issues.map((issue) =>
    errorIssue(String(issue.path[0] ?? "record"), "invalid_record", `does not match the upstream schema: ${issue.message}`, null),
  );
  return rejectedRow(sourceId, [...issues, ...schemaIssues]);
}
