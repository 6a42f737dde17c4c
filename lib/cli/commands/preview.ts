import { systemContext } from "@/lib/operations/context";
import { once } from "node:events";
import type { Command } from "commander";
import { eq, sql } from "drizzle-orm";
import { sendableStatusList } from "@/lib/pipeline/record-status-sql";
import { getDatabase } from "@/db/client";
import { cursorRows } from "@/db/raw-sql";
import { previewRuns } from "@/db/schema";
import { DomainError } from "@/lib/errors/domain-error";
import { getLocationRow } from "@/lib/locations/get-location";
import { LocationId } from "@/lib/locations/location-inputs";
import { upstreamTypeOf } from "@/lib/mapping/map-row";
import { computePreview } from "@/lib/preview/compute-preview";
import { defaultPreviewLeaseSeconds, failStoppedPreviewRuns, leaseFromNow } from "@/lib/preview/preview-run-lease";
import { previewRecordTypes, type PreviewRecordType } from "@/lib/preview/preview-plan";
import { sourceResources, type SourceResource } from "@/lib/source/source-rows";
import { runWithDatabase } from "../run-with-database";
import { forTerminal, jsonForTerminal } from "../terminal-output";

async function write(text: string) {
  if (!process.stdout.write(text)) await once(process.stdout, "drain");
}

function recordTypeOf(resource: string | undefined): PreviewRecordType | null {
  if (!resource) return null;
  if ((previewRecordTypes as readonly string[]).includes(resource)) return resource as PreviewRecordType;
  if ((sourceResources as readonly string[]).includes(resource)) return upstreamTypeOf[resource as SourceResource];
  throw new DomainError("INVALID", `--resource: must be one of ${[...previewRecordTypes, ...sourceResources].join(", ")}`);
}

export function register(program: Command) {
  program
    .command("preview")
    .description("compute what a first sync of a location would send: the valid mapped records and every issue")
    .argument("<location>", "the location's id (location:list)")
    .option("--resource <resource>", "only this record type (calendars, contact_details, …) or source resource (staff, customers, …)")
    .option("--json", "print { counts, records, issues } as JSON (streamed)")
    .option("--rebuild", "map every source row again, not only the ones changed since the last preview")
    .action(async (location: string, options: { resource?: string; json?: boolean; rebuild?: boolean }) => {
      await runWithDatabase(async () => {
        const parsed = LocationId.safeParse({ locationId: location });
        if (!parsed.success)
          throw new DomainError("INVALID", `<location>: must be a location id (see location:list), got "${forTerminal(location)}"`);
        const type = recordTypeOf(options.resource);
        const db = getDatabase();
        await getLocationRow(db, parsed.data.locationId);
        const leaseSeconds = defaultPreviewLeaseSeconds();
        const insertRun = () =>
          db
            .insert(previewRuns)
            .values({
              locationId: parsed.data.locationId,
              requestedByEmail: "cli",
              rebuild: options.rebuild ?? false,
              leaseExpiresAt: leaseFromNow(leaseSeconds),
            })
            .onConflictDoNothing()
            .returning();
        let [run] = await insertRun();
        // The run in flight may be one whose process stopped (an interrupted `preview`): failed, then ours starts.
        if (!run && (await failStoppedPreviewRuns(db, parsed.data.locationId)) > 0) [run] = await insertRun();
        if (!run) throw new DomainError("CONFLICT", "A preview of this location is being computed right now; run this again when it has finished.");
        await computePreview(systemContext(db), { runId: run.id, leaseSeconds });
        const [done] = await db.select().from(previewRuns).where(eq(previewRuns.id, run.id));
        if (done?.status !== "succeeded") throw new DomainError("CONFLICT", done?.error ?? "The preview failed.");
        const counts = type ? { [type]: done.counts![type] } : done.counts!;
        if (!options.json) {
          for (const [name, count] of Object.entries(counts)) {
            if (!count) continue;
            await write(
              `${name.padEnd(20)} ${count.sourceRows} rows · ${count.valid} valid (${count.warnings} with warnings) · ${count.errors} errors · ${count.excludedByRule} excluded by rule\n`,
            );
          }
          return;
        }
        await write(`{"counts":${jsonForTerminal(counts)},"records":[`);
        let first = true;
        const typeFilter = type ? sql`and record_type = ${type}` : sql``;
        for await (const rows of cursorRows<{ record_type: string; payload: unknown }>(
          db,
          sql`select record_type, payload from preview_records
              where location_id = ${run.locationId} and status in ${sendableStatusList} ${typeFilter} order by record_type, seq`,
          1000,
        )) {
          for (const row of rows) {
            await write(`${first ? "" : ","}${jsonForTerminal({ type: row.record_type, record: row.payload })}`);
            first = false;
          }
        }
        await write(`],"issues":[`);
        first = true;
        for await (const rows of cursorRows<Record<string, string | null>>(
          db,
          sql`select i.record_type as type, r.source_id, r.record_key as external_id, i.severity, i.field, i.code, i.reason, i.original
              from preview_issues i join preview_records r on r.location_id = i.location_id and r.record_type = i.record_type and r.seq = i.seq
              where i.location_id = ${run.locationId} ${type ? sql`and i.record_type = ${type}` : sql``} order by i.record_type, i.seq`,
          1000,
        )) {
          for (const row of rows) {
            await write(`${first ? "" : ","}${jsonForTerminal(row)}`);
            first = false;
          }
        }
        await write("]}\n");
      });
    });
}
