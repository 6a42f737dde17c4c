CREATE TABLE "revoked_sessions" (
	"jti" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "location_token_origin" text;--> statement-breakpoint
CREATE INDEX "revoked_sessions_expires_idx" ON "revoked_sessions" USING btree ("expires_at");--> statement-breakpoint
UPDATE "user_invites" i SET "used_at" = now() WHERE i."used_at" IS NULL AND EXISTS (SELECT 1 FROM "user_invites" n WHERE n."user_id" = i."user_id" AND n."used_at" IS NULL AND (n."created_at", n."id") > (i."created_at", i."id"));--> statement-breakpoint
UPDATE "locations" l SET "location_token_origin" = regexp_replace(regexp_replace(lower(substring(e."base_url" from '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]+')), '^(https://[^/]+):443$', '\1'), '^(http://[^/]+):80$', '\1') FROM "environments" e WHERE e."name" = l."environment" AND l."location_token_encrypted" IS NOT NULL AND e."base_url" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "user_invites_one_unused" ON "user_invites" USING btree ("user_id") WHERE "user_invites"."used_at" is null;