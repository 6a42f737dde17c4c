import { pluralize } from "@/lib/format/plural";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCan } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import type { OperationContext } from "@/lib/operations/context";
import { reserveRateLimitSlots, type RateLimitRule } from "@/lib/rate-limit/rate-limit";
import { UpstreamError, UpstreamInvalidResponseError, UpstreamUnavailableError } from "@/lib/upstream/errors";
import { createEnvironmentClient } from "./environment-client";
import type { CredentialsTestInput, CredentialsTestOutcome, CredentialsTestResult, EnvironmentName } from "./environment-inputs";
import { getEnvironmentCredentials } from "./get-environment-credentials";

/** It carries an owner's password to the service: a few tries per environment, like connecting a location. */
export const credentialsTestLimit: RateLimitRule = { limit: 10, windowSeconds: 15 * 60 };

/**
 * Test credentials (spec 5.5.1): the service checks an environment's API key and client credentials only together
 * with a user's login, so the admin types one owner's email and password; they are sent once, in POST
 * /access_tokens, and nothing else is sent (no retry, nothing that changes the service's data). The password and
 * the token it returns live in this function's frame only: never stored, logged, returned or audited.
 * The audit entry says whether it worked and why not.
 */
export async function testEnvironmentCredentials(
  ctx: OperationContext,
  { name, email, password }: CredentialsTestInput & { name: EnvironmentName },
): Promise<CredentialsTestResult> {
  const { db, actor } = ctx;
  assertCan(actor, "environments.manage");
  const target = { type: "environment", id: name, label: name };
  // Not configured: refused before anything counts or is sent.
  const credentials = await getEnvironmentCredentials(db, name);
  const reservation = await reserveRateLimitSlots(db, [{ key: `credentials-test:environment:${name}`, rule: credentialsTestLimit }]);
  if (!reservation.reserved) {
    const minutes = Math.max(1, Math.ceil(reservation.retryAfterSeconds / 60));
    throw new DomainError(
      "RATE_LIMITED",
      `Too many credential tests of ${name}. Nothing was sent. Try again in ${pluralize(minutes, "minute")}.`,
      [],
      reservation.retryAfterSeconds,
    );
  }
  const origin = new URL(credentials.baseUrl).origin;
  // One attempt: the password goes out once; a short wait, since a person is watching.
  const client = createEnvironmentClient(credentials, { timeoutMs: 10_000, maxAttempts: 1, ...ctx.upstreamClient });
  let result: CredentialsTestResult;
  try {
    await client.createUserAccessToken({ email: email.trim(), password, clientId: credentials.clientId, clientSecret: credentials.clientSecret });
    result = {
      ok: true,
      outcome: "ok",
      message: `The credentials work: ${origin} accepted the API key and the client ID and secret, and issued a token for that login (not kept).`,
    };
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    const outcome = outcomeOf(error);
    result = { ok: false, outcome, message: failureMessages[outcome](origin, error) };
  } finally {
    await client.close();
  }
  await recordAuditEvent(db, { actor, action: "environment.credentials_tested", target, details: { ok: result.ok, outcome: result.outcome } });
  return result;
}

// The sandbox's codes (the real service's error codes are not specified: spec §7).
const upstreamCodeOutcomes: Record<string, FailureOutcome> = {
  invalid_api_key: "api_key",
  invalid_client: "client_credentials",
  invalid_credentials: "login",
};

function outcomeOf(error: UpstreamError): FailureOutcome {
  if (error instanceof UpstreamUnavailableError) return "unreachable";
  // A redirect, a body that is not the service's, or no such path: something else answers at this address.
  if (error instanceof UpstreamInvalidResponseError || error.status === 404 || error.status === 405) return "wrong_origin";
  const known = error.upstreamCode ? upstreamCodeOutcomes[error.upstreamCode] : undefined;
  if (known) return known;
  return "refused";
}

type FailureOutcome = Exclude<CredentialsTestOutcome, "ok">;

/** The client's own description, without its closing full stop (it goes inside parentheses). */
const said = (error: UpstreamError) => error.message.replace(/\.$/, "");

const failureMessages: Record<FailureOutcome, (origin: string, error: UpstreamError) => string> = {
  api_key: (origin) => `${origin} refused the API key. Enter the API key the service issued for this environment and save.`,
  client_credentials: (origin) =>
    `${origin} accepted the API key but refused the client ID or client secret. Enter the ones the service issued for this environment and save.`,
  login: (origin) =>
    `${origin} accepted the API key and the client ID and secret, but not that email and password: the environment's settings are right; try the login again.`,
  refused: (origin, error) =>
    `${origin} refused the request${error.status ? ` (HTTP ${error.status})` : ""} without saying whether the API key, the client credentials or the login is wrong (${said(error)}).`,
  unreachable: (origin, error) =>
    `${origin} could not be reached (${said(error)}). Check the base URL's host and port, and that the service is up; nothing was changed.`,
  wrong_origin: (origin, error) =>
    `Something answers at ${origin}, but not as the Marketing Automation Service (${said(error)}). Check the base URL: scheme, host, port, and no /v1 at the end.`,
};
