import { z } from "zod";

// Apart from passwords.ts so browser code can import the rule without the native argon2 module.
export const NewPassword = z.string().min(12, "must be at least 12 characters").max(200, "must be at most 200 characters");
