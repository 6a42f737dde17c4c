import { DomainError } from "@/lib/errors/domain-error";
import { UpstreamAuthenticationError, UpstreamError, UpstreamUnavailableError } from "@/lib/upstream/errors";

/** Which call of the connect flow failed: the message a person needs depends on it. */
export type ConnectStep = "user_token" | "location_token";

// Sandbox codes for credentials of the environment itself (the real service's codes are not specified).
const environmentCredentialCodes = new Set(["invalid_api_key", "invalid_client"]);

/** Plain-language failures of the connect flow, one per cause. Messages never hold what was typed. */
export function connectionProblem(error: unknown, step: ConnectStep, where: { environment: string; upstreamLocationId: string }): DomainError {
  if (!(error instanceof UpstreamError)) throw error;
  if (error instanceof UpstreamUnavailableError) {
    return new DomainError(
      "UPSTREAM_UNAVAILABLE",
      `The Marketing Automation Service (${where.environment}) could not be reached. Nothing was changed. Try again in a few minutes; if it keeps failing, ask an admin to check the environment's base URL.`,
    );
  }
  if (error.upstreamCode && environmentCredentialCodes.has(error.upstreamCode)) {
    return new DomainError(
      "NOT_CONFIGURED",
      `The Marketing Automation Service refused the ${where.environment} environment's API key or client credentials. Nothing was changed. An admin checks them under Settings → Environments.`,
    );
  }
  if (step === "user_token" && (error instanceof UpstreamAuthenticationError || error.status === 400 || error.status === 422)) {
    return new DomainError("INVALID", "The email or password is wrong for the Marketing Automation Service account. Nothing was stored.", [
      { field: "password", reason: "does not match this email at the Marketing Automation Service" },
    ]);
  }
  if (step === "location_token" && error.status === 404) {
    return new DomainError(
      "CONFLICT",
      `The Marketing Automation Service (${where.environment}) has no location with ID “${where.upstreamLocationId}”. Nothing was stored. Support checks the upstream location ID of this location.`,
    );
  }
  if (step === "location_token" && (error.status === 401 || error.status === 403)) {
    return new DomainError(
      "INVALID",
      `That account does not own location “${where.upstreamLocationId}” at the Marketing Automation Service. Nothing was stored. Sign in with the account of the location's owner.`,
      [{ field: "email", reason: "is not the owner of this location" }],
    );
  }
  return new DomainError(
    "UPSTREAM_REJECTED",
    `The Marketing Automation Service refused the connection${error.status ? ` (HTTP ${error.status})` : ""}: ${error.message}. Nothing was stored.`,
  );
}
