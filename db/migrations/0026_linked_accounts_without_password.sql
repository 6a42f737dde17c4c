-- An account linked to single sign-on signs in only through it (lib/users/link-single-sign-on.ts): a password kept
-- from before the link is no use and is not kept.
UPDATE "users" SET "password_hash" = NULL WHERE "oidc_subject" IS NOT NULL AND "password_hash" IS NOT NULL;
