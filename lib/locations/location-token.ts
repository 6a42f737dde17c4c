import { locationTokenContext } from "@/lib/crypto/encrypted-columns";
import { openSecret, sealSecret } from "@/lib/crypto/secret-box";
import { DomainError } from "@/lib/errors/domain-error";
import type { LocationRow } from "./get-location";

export function sealLocationToken(locationId: string, token: string): string {
  return sealSecret(token, locationTokenContext(locationId));
}

/** The plaintext Location Access Token, for an upstream call in this process only. */
export function openLocationToken(row: Pick<LocationRow, "id" | "locationTokenEncrypted">): string {
  if (!row.locationTokenEncrypted) throw new DomainError("CONFLICT", "This location is not connected: its owner connects it first.");
  return openSecret(row.locationTokenEncrypted, locationTokenContext(row.id));
}
