import { z } from "zod";
import { AlertChannelsInput } from "@/lib/alerts/alert-channel-inputs";
import { AuditLogQuery } from "@/lib/audit/list-audit-events";
import type { Action } from "@/lib/auth/permissions";
import {
  CredentialsTestInput,
  CredentialsTestResult,
  EnvironmentNameParams,
  EnvironmentUpdateInput,
  EnvironmentView,
} from "@/lib/environments/environment-inputs";
import { FleetMatrixQuery, FleetSessionQuery } from "@/lib/fleet/fleet-inputs";
import { FleetMatrixPageResponse } from "@/lib/fleet/fleet-matrix-responses";
import { FleetSessionPageResponse } from "@/lib/fleet/fleet-session-responses";
import { SchedulePauseInput } from "@/lib/fleet/schedule-pause";
import {
  ConnectLocationInput,
  LocationId,
  LocationInput,
  LocationListQuery,
  LocationUpdateInput,
  OwnerInvitationInput,
} from "@/lib/locations/location-inputs";
import { LocationConnectionResponse } from "@/lib/locations/location-response";
import { PreviewQuery, PreviewRecordParams, PreviewRecordQuery, RequestPreviewInput } from "@/lib/preview/preview-inputs";
import { PreviewRunsResponse } from "@/lib/preview/preview-runs-response";
import { ClearSandboxFaultsQuery, InjectSandboxFaultInput, SandboxFaultsView } from "@/lib/sandbox/fault-inputs";
import { ConfirmRemovalsInput, ReplayInput, SessionAttemptId, SessionHistoryQuery, SessionId, StartSessionInput } from "@/lib/sync/session-inputs";
import { SessionHistoryResponse } from "@/lib/sync/session-responses";
import { AttemptExchangeView, SessionView } from "@/lib/sync/session-view";
import { AcceptInviteInput, CreateUserInput, InviteToken, UpdateUserInput, UserId } from "@/lib/users/user-inputs";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * One operation of the dashboard's API as the document describes it. `params`, `query` and `body` are the very schemas
 * the route handler parses with (lib/api-docs/api-document.test.ts checks that they are the same objects).
 */
export interface ApiOperation {
  method: HttpMethod;
  /** OpenAPI form: `/api/locations/{locationId}`. */
  path: string;
  tag: string;
  summary: string;
  /** The permission the handler names (lib/auth/permissions); "public": no sign-in. */
  action: Action | "public";
  /** A public operation that takes a bearer token setting instead of a sign-in. */
  auth?: "metricsToken";
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The handler reads its (optional) body itself: documented, but not parsed by routeHandler. */
  bodyReadByHandler?: boolean;
  /** The success status and what it carries; a JSON body without `schema` is described only by `description`. */
  response: { status: number; description: string; schema?: z.ZodType; contentType?: string };
}

/** Named request and response shapes: the document's components. */
export const apiSchemas = {
  LocationInput,
  LocationUpdateInput,
  LocationListQuery,
  ConnectLocationInput,
  OwnerInvitationInput,
  LocationConnectionResponse,
  SchedulePauseInput,
  PreviewQuery,
  RequestPreviewInput,
  PreviewRunsResponse,
  StartSessionInput,
  SessionHistoryQuery,
  SessionHistoryResponse,
  SessionView,
  AttemptExchangeView,
  ConfirmRemovalsInput,
  FleetSessionQuery,
  FleetSessionPageResponse,
  FleetMatrixQuery,
  FleetMatrixPageResponse,
  EnvironmentUpdateInput,
  EnvironmentView,
  AlertChannelsInput,
  AuditLogQuery,
  CreateUserInput,
  UpdateUserInput,
  AcceptInviteInput,
  InjectSandboxFaultInput,
  ClearSandboxFaultsQuery,
  SandboxFaultsView,
} satisfies Record<string, z.ZodType>;

const json = (description: string, schema?: z.ZodType, status = 200) => ({ status, description, schema });

export const apiOperations: ApiOperation[] = [
  // Locations
  {
    method: "GET",
    path: "/api/locations",
    tag: "Locations",
    summary: "One page of the locations the caller may see",
    action: "location.view",
    query: LocationListQuery,
    response: json("`{ locations, nextCursor, previousCursor }`"),
  },
  {
    method: "POST",
    path: "/api/locations",
    tag: "Locations",
    summary: "Add a location",
    action: "location.create",
    body: LocationInput,
    response: json("`{ location }`", undefined, 201),
  },
  {
    method: "GET",
    path: "/api/locations/{locationId}",
    tag: "Locations",
    summary: "One location (never its token)",
    action: "location.view",
    params: LocationId,
    response: json("`{ location }`; the fields the dashboard reads are shown", LocationConnectionResponse),
  },
  {
    method: "PATCH",
    path: "/api/locations/{locationId}",
    tag: "Locations",
    summary: "Edit a location's settings",
    action: "location.edit",
    params: LocationId,
    body: LocationUpdateInput,
    response: json("`{ location }`"),
  },
  {
    method: "POST",
    path: "/api/locations/{locationId}/connection",
    tag: "Locations",
    summary: "Connect or reconnect with the upstream account's credentials (used once, never stored)",
    action: "location.connect",
    params: LocationId,
    body: ConnectLocationInput,
    response: json("`{ location }`"),
  },
  {
    method: "DELETE",
    path: "/api/locations/{locationId}/connection",
    tag: "Locations",
    summary: "Disconnect",
    action: "location.connect",
    params: LocationId,
    response: json("`{ location }`"),
  },
  {
    method: "POST",
    path: "/api/locations/{locationId}/connection/test",
    tag: "Locations",
    summary: "Check the stored token with the upstream's GET /users/me",
    action: "location.connect",
    params: LocationId,
    response: json("The check's outcome"),
  },
  {
    method: "POST",
    path: "/api/locations/{locationId}/owner-invitations",
    tag: "Locations",
    summary: "Invite the location's owner (a one-time link to set a password and connect)",
    action: "location.owners.invite",
    params: LocationId,
    body: OwnerInvitationInput,
    response: json("`{ invitation }`", undefined, 201),
  },
  {
    method: "POST",
    path: "/api/locations/{locationId}/schedule",
    tag: "Locations",
    summary: "Pause or resume the location's daily sync, with why",
    action: "schedule.pause",
    params: LocationId,
    body: SchedulePauseInput,
    response: json("`{ schedule }`"),
  },
  // Preview
  {
    method: "GET",
    path: "/api/locations/{locationId}/preview",
    tag: "Preview",
    summary: "The shown preview's counts and the run in flight",
    action: "preview.view",
    params: LocationId,
    response: json("The runs; the fields the dashboard reads are shown", PreviewRunsResponse),
  },
  {
    method: "POST",
    path: "/api/locations/{locationId}/preview",
    tag: "Preview",
    summary: 'Refresh the preview (an empty body), or rebuild it with `{ "rebuild": true }`',
    action: "preview.refresh",
    params: LocationId,
    body: RequestPreviewInput,
    bodyReadByHandler: true,
    response: json("`{ run }`", undefined, 202),
  },
  {
    method: "GET",
    path: "/api/locations/{locationId}/preview/records",
    tag: "Preview",
    summary: "One page of the shown preview's mapped records",
    action: "preview.view",
    params: LocationId,
    query: PreviewQuery,
    response: json("`{ runId, … }`: the page of records"),
  },
  {
    method: "GET",
    path: "/api/locations/{locationId}/preview/records/{seq}",
    tag: "Preview",
    summary: "One record of the preview beside its source rows, read from the source now (the side panel)",
    action: "preview.view",
    params: PreviewRecordParams,
    query: PreviewRecordQuery,
    response: json("The record, its issues and its source rows"),
  },
  {
    method: "GET",
    path: "/api/locations/{locationId}/preview/issues",
    tag: "Preview",
    summary: "Every issue of the shown preview as CSV (personal values masked)",
    action: "preview.view",
    params: LocationId,
    response: { status: 200, description: "A CSV file", contentType: "text/csv" },
  },
  // Sync sessions
  {
    method: "GET",
    path: "/api/locations/{locationId}/sessions",
    tag: "Sync sessions",
    summary: "The location's session history, newest first",
    action: "session.view",
    params: LocationId,
    query: SessionHistoryQuery,
    response: json("A page of sessions", SessionHistoryResponse),
  },
  {
    method: "POST",
    path: "/api/locations/{locationId}/sessions",
    tag: "Sync sessions",
    summary: "Start a sync session (Sync now, Full resync)",
    action: "sync.start",
    params: LocationId,
    body: StartSessionInput,
    response: json("`{ sessionId }` of the queued session", undefined, 202),
  },
  {
    method: "POST",
    path: "/api/locations/{locationId}/replays",
    tag: "Sync sessions",
    summary: "Send one or more steps again from the source (appointments: of a date range) inside open/close, with a reason",
    action: "sync.replay",
    params: LocationId,
    body: ReplayInput,
    response: json("`{ sessionId }` of the queued replay", undefined, 202),
  },
  {
    method: "GET",
    path: "/api/sessions",
    tag: "Sync sessions",
    summary: "Sessions across the visible locations: running first, then failures needing attention, then newest",
    action: "session.view",
    query: FleetSessionQuery,
    response: json("A page of sessions", FleetSessionPageResponse),
  },
  {
    method: "GET",
    path: "/api/sessions/{sessionId}",
    tag: "Sync sessions",
    summary: "The whole session: steps, items and (staff only) every HTTP attempt",
    action: "session.view",
    params: SessionId,
    response: json("The session", SessionView),
  },
  {
    method: "GET",
    path: "/api/sessions/{sessionId}/attempts/{attemptId}",
    tag: "Sync sessions",
    summary: "One HTTP attempt's recorded request and response (redacted)",
    action: "session.attempts.view",
    params: SessionAttemptId,
    response: json("The exchange", AttemptExchangeView),
  },
  {
    method: "POST",
    path: "/api/sessions/{sessionId}/cancel",
    tag: "Sync sessions",
    summary: "Stop a session between requests (a queued one at once)",
    action: "sync.cancel",
    params: SessionId,
    response: json("The cancellation's outcome"),
  },
  {
    method: "POST",
    path: "/api/sessions/{sessionId}/resume",
    tag: "Sync sessions",
    summary: "A new session that continues a failed or cancelled one from its failed step",
    action: "sync.resume",
    params: SessionId,
    response: json("`{ sessionId }` of the new session", undefined, 202),
  },
  {
    method: "POST",
    path: "/api/sessions/{sessionId}/close-upstream",
    tag: "Sync sessions",
    summary: "Tell the upstream the sync is finished",
    action: "sync.close-upstream",
    params: SessionId,
    response: json("`{ closed: true }`"),
  },
  {
    method: "POST",
    path: "/api/sessions/{sessionId}/confirm-removals",
    tag: "Sync sessions",
    summary: "Confirm and send what the removal safety valve stopped, with a reason",
    action: "sync.confirm-removals",
    params: SessionId,
    body: ConfirmRemovalsInput,
    response: json("The new session", undefined, 202),
  },
  {
    method: "GET",
    path: "/api/fleet",
    tag: "Sync sessions",
    summary: "A page of the locations × sync steps matrix, worst first",
    action: "fleet.view",
    query: FleetMatrixQuery,
    response: json("A page of the matrix", FleetMatrixPageResponse),
  },
  // Administration
  {
    method: "GET",
    path: "/api/users",
    tag: "Administration",
    summary: "List dashboard users",
    action: "users.manage",
    response: json("`{ users }`"),
  },
  {
    method: "POST",
    path: "/api/users",
    tag: "Administration",
    summary: "Create a user and their invite link",
    action: "users.manage",
    body: CreateUserInput,
    response: json("`{ user }`", undefined, 201),
  },
  {
    method: "PATCH",
    path: "/api/users/{id}",
    tag: "Administration",
    summary: "Change a user's role, or deactivate / reactivate them",
    action: "users.manage",
    params: UserId,
    body: UpdateUserInput,
    response: json("`{ ok: true }`"),
  },
  {
    method: "POST",
    path: "/api/users/{id}/invite",
    tag: "Administration",
    summary: "A fresh one-time invite link (earlier ones stop working)",
    action: "users.manage",
    params: UserId,
    response: json("`{ invite }`"),
  },
  {
    method: "POST",
    path: "/api/invites/{token}",
    tag: "Administration",
    summary: "The invited person sets their password (the link is the credential)",
    action: "public",
    params: InviteToken,
    body: AcceptInviteInput,
    response: json("`{ email, locationId, passwordSet }`"),
  },
  {
    method: "GET",
    path: "/api/environments",
    tag: "Administration",
    summary: "Both upstream environments, secrets shown only as set/hint",
    action: "environments.manage",
    response: json("`{ environments }`", z.object({ environments: z.array(EnvironmentView) })),
  },
  {
    method: "GET",
    path: "/api/environments/{name}",
    tag: "Administration",
    summary: "One upstream environment (masked)",
    action: "environments.manage",
    params: EnvironmentNameParams,
    response: json("`{ environment }`", z.object({ environment: EnvironmentView })),
  },
  {
    method: "PUT",
    path: "/api/environments/{name}",
    tag: "Administration",
    summary: "Change an environment's settings and credentials (omitted secrets are kept)",
    action: "environments.manage",
    params: EnvironmentNameParams,
    body: EnvironmentUpdateInput,
    response: json("`{ environment }`", z.object({ environment: EnvironmentView })),
  },
  {
    method: "POST",
    path: "/api/environments/{name}/credentials-test",
    tag: "Administration",
    summary: "Check the environment's credentials with one owner login (sent once for a User Access Token, never kept)",
    action: "environments.manage",
    params: EnvironmentNameParams,
    body: CredentialsTestInput,
    response: json("What the test found", CredentialsTestResult),
  },
  {
    method: "GET",
    path: "/api/alerts/channels",
    tag: "Administration",
    summary: "Where alerts go (the webhook URL only by its last 4 characters)",
    action: "alerts.manage",
    response: json("`{ channels }`"),
  },
  {
    method: "PUT",
    path: "/api/alerts/channels",
    tag: "Administration",
    summary: "Change where alerts go",
    action: "alerts.manage",
    body: AlertChannelsInput,
    response: json("`{ channels }`"),
  },
  {
    method: "GET",
    path: "/api/audit-log",
    tag: "Administration",
    summary: "Audit entries, newest first, filtered, keyset-paginated",
    action: "audit.view",
    query: AuditLogQuery,
    response: json("`{ events, nextCursor }`"),
  },
  // Sandbox
  {
    method: "GET",
    path: "/api/sandbox/faults",
    tag: "Sandbox",
    summary: "The built-in sandbox's armed faults",
    action: "sandbox.inspect",
    response: json("The faults", SandboxFaultsView),
  },
  {
    method: "POST",
    path: "/api/sandbox/faults",
    tag: "Sandbox",
    summary: "Arm a fault (never in production mode)",
    action: "sandbox.faults",
    body: InjectSandboxFaultInput,
    response: json("The armed fault", undefined, 201),
  },
  {
    method: "DELETE",
    path: "/api/sandbox/faults",
    tag: "Sandbox",
    summary: "Clear one fault (`id`) or all of them",
    action: "sandbox.faults",
    query: ClearSandboxFaultsQuery,
    response: json("What was cleared"),
  },
  // Operations
  {
    method: "GET",
    path: "/api/health",
    tag: "Operations",
    summary: "For load balancers: 200 when the database answers and every migration is applied, else 503",
    action: "public",
    response: json("The health report"),
  },
  {
    method: "GET",
    path: "/api/metrics",
    tag: "Operations",
    summary: "Prometheus metrics (Authorization: Bearer METRICS_TOKEN; 404 while no token is configured)",
    action: "public",
    auth: "metricsToken",
    response: { status: 200, description: "The Prometheus text format", contentType: "text/plain" },
  },
  {
    method: "GET",
    path: "/api/openapi.json",
    tag: "Operations",
    summary: "This document",
    action: "api.docs.view",
    response: json("An OpenAPI 3.1 document"),
  },
  // next-auth's own endpoints
  {
    method: "GET",
    path: "/api/auth/{nextauth}",
    tag: "Sign-in",
    summary: "next-auth: session, CSRF token, providers, sign-in and sign-out pages",
    action: "public",
    response: json("next-auth's answer"),
  },
  {
    method: "POST",
    path: "/api/auth/{nextauth}",
    tag: "Sign-in",
    summary: "next-auth: sign in with email and password, sign out (a form or JSON body of at most 8 KB)",
    action: "public",
    response: json("next-auth's answer"),
  },
];
