DROP INDEX "preview_records_source_idx";--> statement-breakpoint
DROP INDEX "preview_records_contact_idx";