import { DomainError } from "@/lib/errors/domain-error";
import { UpstreamAuthenticationError, UpstreamError, UpstreamUnavailableError } from "@/lib/upstream/errors";

/** Which call of the connect flow failed: the message a person needs depends on it. */
export type ConnectStep = "user_token" | "location_token";

// The sandbox's codes for what was refused. The spec shows no error codes (§7): a code is a hint when present, and an
// answer without one (e.g. a gateway's 403 {"message":"Forbidden"}) says nothing about which credential failed.
const refusalCodes: Record<string, RefusedCredential> = {
  invalid_api_key: "environment",
  invalid_client: "environment",
  invalid_credentials: "login",
  missing_token: "token",
  invalid_token: "token",
  wrong_token_kind: "token",
};

/** What a refusal was about: the environment's API key or client credentials, the owner's login, or an access token. */
export type RefusedCredential = "environment" | "login" | "token";

/** What the answer's code says was refused; undefined when it does not say. */
export function refusedCredential(error: UpstreamError): RefusedCredential | undefined {
  return error.upstreamCode ? refusalCodes[error.upstreamCode] : undefined;
}

/** Refused credentials of the environment itself: nothing a location's owner can fix. */
export function environmentCredentialsRefused(environment: string, what: string): DomainError {
  return new DomainError(
    "NOT_CONFIGURED",
    `The Marketing Automation Service refused the ${environment} environment's API key or client credentials. ${what} An admin checks them under Settings → Environments (Test credentials).`,
  );
}

/** Plain-language failures of the connect flow, one per cause. Messages never hold what was typed. */
export function connectionProblem(error: unknown, step: ConnectStep, where: { environment: string; upstreamLocationId: string }): DomainError {
  if (!(error instanceof UpstreamError)) throw error;
  if (error instanceof UpstreamUnavailableError) {
    return new DomainError(
      "UPSTREAM_UNAVAILABLE",
      `The Marketing Automation Service (${where.environment}) could not be reached. Nothing was changed. Try again in a few minutes; if it keeps failing, ask an admin to check the environment's base URL.`,
    );
  }
  const refused = refusedCredential(error);
  if (refused === "environment") return environmentCredentialsRefused(where.environment, "Nothing was changed.");
  if (step === "user_token" && (refused === "login" || error.status === 400 || error.status === 422)) {
    return new DomainError("INVALID", "The email or password is wrong for the Marketing Automation Service account. Nothing was stored.", [
      { field: "password", reason: "does not match this email at the Marketing Automation Service" },
    ]);
  }
  if (step === "user_token" && error instanceof UpstreamAuthenticationError) {
    return new DomainError(
      "UPSTREAM_AUTH",
      `The Marketing Automation Service refused the login (HTTP ${error.status}) and did not say why: either the email or password, or the ${where.environment} environment's API key or client credentials. Nothing was stored. Check the email and password; if they are right, an admin runs Test credentials on the environment under Settings → Environments.`,
    );
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
