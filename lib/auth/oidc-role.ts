import type { Config } from "@/lib/config/config";
import { Role } from "./roles";

export type OidcRoleSettings = Pick<Config, "OIDC_ROLE_CLAIM" | "OIDC_ROLE_MAP">;

/**
 * The role a new single sign-on account gets from its ID token: the first `value=role` pair of OIDC_ROLE_MAP whose
 * value the claim holds (the claim a string or a list of strings). Null when none matches: the account waits for an
 * admin to assign a role, with no access until then.
 */
export function roleFromClaims(claims: Record<string, unknown>, settings: OidcRoleSettings): Role | null {
  const claim = claims[settings.OIDC_ROLE_CLAIM];
  const values = new Set((Array.isArray(claim) ? claim : [claim]).filter((value): value is string => typeof value === "string"));
  for (const pair of settings.OIDC_ROLE_MAP) {
    const separator = pair.lastIndexOf("=");
    const role = Role.safeParse(pair.slice(separator + 1));
    if (role.success && values.has(pair.slice(0, separator).trim())) return role.data;
  }
  return null;
}
