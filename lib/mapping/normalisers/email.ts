import { ContactDetailRecord } from "@/lib/upstream/records";
import { warningIssue } from "../issues";
import { maskEmail } from "../mask";
import { normalised, type Normalised } from "./normalised";

// The upstream record's own rule, so the mapping never sends what the schema refuses.
const upstreamEmail = ContactDetailRecord.shape.email.unwrap();

/** Trimmed and lower-cased; not an address by the upstream schema's rule → dropped with a warning. */
export function normaliseEmail(value: string | null | undefined): Normalised<string> {
  if (typeof value !== "string") return normalised<string>(undefined);
  const email = value.trim().toLowerCase();
  if (email === "") return normalised<string>(undefined);
  if (upstreamEmail.safeParse(email).success) return normalised(email);
  return normalised<string>(undefined, warningIssue("email", "invalid_email", "is not a valid e-mail address", maskEmail(value)));
}
