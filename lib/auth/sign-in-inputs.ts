import { z } from "zod";
import { findUnstorableCharacter, safeText } from "@/lib/validation/safe-text";

/**
 * What the sign-in form posts, checked before any query: NUL, control characters or an
 * over-long value never reach the database (PostgreSQL fails on NUL, and its error text
 * would carry the value). Anything refused here is answered like a wrong password.
 */
export const SignInInput = z.object({
  email: safeText().trim().min(1).max(254),
  // Passwords are checked by argon2 only, but NUL and lone surrogates are no one's password.
  password: z
    .string()
    .min(1)
    .max(1024)
    .refine((password) => !findUnstorableCharacter(password)),
});
export type SignInInput = z.infer<typeof SignInInput>;
