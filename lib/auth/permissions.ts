import { DomainError } from "@/lib/errors/domain-error";
import { ALL_ROLES, STAFF_ROLES, type Role } from "./roles";

/**
 * The one permission table: every action someone can take in the dashboard, the roles allowed to take it, and
 * whether it acts on one location (then the membership rule applies too). Route handlers, pages and lib
 * operations ask `can` / `assertCan`; nothing outside lib/auth compares roles (an ESLint rule keeps it so).
 *
 * The membership rule: roles in MEMBER_SCOPED_ROLES (business owners) act only on the locations they are
 * members of; another location answers exactly like one that does not exist (404, "Location not found."),
 * so that its existence does not leak. Staff act on every location.
 */

const EDITORS: readonly Role[] = ["admin", "support"];
const ACTORS: readonly Role[] = ["admin", "support", "owner"];

/** Roles that see and act on only the locations they are members of. */
const MEMBER_SCOPED_ROLES: readonly Role[] = ["owner"];

type Scope = "global" | "location";

interface Permission {
  readonly roles: readonly Role[];
  /** "location": the action is on one location, and the membership rule applies. */
  readonly scope: Scope;
  readonly description: string;
  /** The 403 detail when the role may not; default FORBIDDEN_MESSAGE. */
  readonly forbidden?: string;
}

export const FORBIDDEN_MESSAGE = "Your role does not allow this.";
export const HIDDEN_LOCATION_MESSAGE = "Location not found.";

export const permissionTable = {
  "location.view": {
    roles: ALL_ROLES,
    scope: "location",
    description: "See a location, its connection, the outcome of its last sync and its next one; list locations.",
  },
  "location.details.view": {
    roles: STAFF_ROLES,
    scope: "location",
    description: "See a location's operator details: environment, upstream location ID, country, source (the time zone is everyone's).",
  },
  "location.create": { roles: EDITORS, scope: "global", description: "Add a location." },
  "location.edit": { roles: EDITORS, scope: "location", description: "Change a location's settings." },
  "location.connect": { roles: ACTORS, scope: "location", description: "Connect, reconnect, disconnect a location, or test its connection." },
  "location.archive": { roles: EDITORS, scope: "location", description: "Archive a location (disconnect it, stop its schedule) or restore it." },
  "location.delete": {
    roles: ["admin"],
    scope: "location",
    description: "Delete an archived location for good, with its records, sessions and tokens.",
    forbidden: "Only admins may delete a location.",
  },
  "location.environment.move": {
    roles: EDITORS,
    scope: "location",
    description: "Move a location to another environment (staging → production); its owner reconnects.",
  },
  "location.import": { roles: EDITORS, scope: "global", description: "Import locations from a CSV file and invite their owners." },
  "location.owners.view": { roles: STAFF_ROLES, scope: "location", description: "See who owns a location." },
  "location.owners.invite": { roles: EDITORS, scope: "location", description: "Invite a location's owner." },
  "schedule.pause": { roles: EDITORS, scope: "location", description: "Pause or resume a location's daily sync." },
  "preview.view": { roles: STAFF_ROLES, scope: "location", description: "See a location's preview, its records and issues (CSV)." },
  "preview.refresh": { roles: EDITORS, scope: "location", description: "Start a new preview run (Refresh preview)." },
  "preview.rebuild": { roles: EDITORS, scope: "location", description: "Map every source row again (Rebuild preview)." },
  "session.view": { roles: STAFF_ROLES, scope: "location", description: "See sync sessions: history, the session page, the sessions overview." },
  "session.attempts.view": { roles: STAFF_ROLES, scope: "location", description: "See every HTTP attempt of a sync session." },
  "fixture.export": {
    roles: STAFF_ROLES,
    scope: "location",
    description: "Download a failed import as a fixture file: its records (customer data) and its recorded HTTP exchange.",
  },
  "sync.start": { roles: EDITORS, scope: "location", description: "Start a sync (Sync now, Full resync)." },
  "sync.replay": {
    roles: STAFF_ROLES,
    scope: "location",
    description: "Send one step (or a date range of appointments) again, with a reason (scoped replay).",
  },
  "sync.cancel": { roles: EDITORS, scope: "location", description: "Cancel a sync session." },
  "sync.resume": { roles: EDITORS, scope: "location", description: "Resume a failed or cancelled session." },
  "sync.close-upstream": { roles: EDITORS, scope: "location", description: "Close a session left open upstream." },
  "sync.confirm-removals": { roles: EDITORS, scope: "location", description: "Confirm the removals the safety valve stopped." },
  "fleet.view": { roles: STAFF_ROLES, scope: "location", description: "See the fleet matrix of every location by sync step." },
  "users.manage": {
    roles: ["admin"],
    scope: "global",
    description:
      "List, create, change and deactivate users; reissue invites; send password reset links; assign a role to a new single sign-on account.",
  },
  "account.password": { roles: ALL_ROLES, scope: "global", description: "Change one's own password." },
  "environments.manage": {
    roles: ["admin"],
    scope: "global",
    description: "See and change the upstream environments and their credentials, and test them with an owner's login.",
  },
  "alerts.manage": { roles: ["admin"], scope: "global", description: "See and change where alerts go." },
  "audit.view": { roles: ["admin"], scope: "global", description: "Read the audit log." },
  "sandbox.inspect": { roles: ["admin", "engineer"], scope: "global", description: "Inspect the built-in upstream simulator." },
  "api.docs.view": { roles: STAFF_ROLES, scope: "global", description: "Read the dashboard's API reference (its OpenAPI document)." },
  "times.utc": { roles: STAFF_ROLES, scope: "global", description: "Switch the dashboard's times between each location's own time and UTC." },
  "sandbox.faults": {
    roles: ["admin", "engineer"],
    scope: "global",
    description: "Inject and clear faults in the built-in upstream simulator (never in production mode).",
  },
} as const satisfies Record<string, Permission>;

export type Action = keyof typeof permissionTable;
/** The table as the checks read it. */
const table: Record<Action, Permission> = permissionTable;
export type LocationAction = { [A in Action]: (typeof permissionTable)[A]["scope"] extends "location" ? A : never }[Action];

export const actions = Object.keys(permissionTable) as Action[];

/** A signed-in person (CurrentUser is one). */
export interface UserActor {
  readonly id: string;
  readonly role: Role;
}

/** The operator's tools (CLI, jobs, seeding): trusted with every action, on every location. */
export interface SystemActor {
  readonly system: true;
}

export type Actor = UserActor | SystemActor;

/** Who calls an operation: the permission check reads the role (or system), the audit log the rest. */
export type OperationActor = Actor & { readonly id: string | null; readonly email: string | null; readonly clientAddress?: string | null };

/** The system actor, named in the audit log by `email` ("cli", "system"). */
export function systemActorAs(email: string, clientAddress?: string): OperationActor {
  return { system: true, id: null, email, ...(clientAddress === undefined ? {} : { clientAddress }) };
}

/** The location an action is on, as the membership rule needs it: the ids of its members (owners). */
export interface LocationMembers {
  readonly id: string;
  readonly memberIds: readonly string[];
}

export function isSystemActor(actor: Actor): actor is SystemActor {
  return "system" in actor && actor.system === true;
}

/** The roles allowed to take an action (what the role × route matrix test expects). */
export function rolesAllowed(action: Action): readonly Role[] {
  return table[action].roles;
}

/** Whether accounts of this role become members of locations (only they are invited as a location's owner). */
export function joinsLocationsAsMember(role: Role): boolean {
  return MEMBER_SCOPED_ROLES.includes(role);
}

/** Whether this actor's `action` on a location depends on being its member (only then is the membership looked up). */
export function membershipApplies(actor: Actor, action: Action): boolean {
  return table[action].scope === "location" && !isSystemActor(actor) && MEMBER_SCOPED_ROLES.includes(actor.role);
}

/** Whether the membership rule limits this actor to their own locations (pages word themselves for them: "your locations"). */
export function seesOwnLocationsOnly(actor: Actor): boolean {
  return membershipApplies(actor, "location.view");
}

function roleMay(actor: Actor, action: Action): boolean {
  return isSystemActor(actor) || table[action].roles.includes(actor.role);
}

/**
 * Whether `actor` may take `action`. With a location, a location-scoped action also applies the membership rule;
 * without one it is answered for the role alone: what a route refuses up front (403) and what a page offers
 * (a button, a link). The operation itself then checks again with the location.
 */
export function can(actor: Actor, action: Action, location?: LocationMembers): boolean {
  return decide(actor, action, location) === "allowed";
}

export interface AssertOptions {
  /** The 404 detail when the membership rule hides the location; default "Location not found.". */
  hiddenAs?: string;
}

/**
 * Like `can`, but throws: FORBIDDEN (403) when the role may not, NOT_FOUND (404) when the membership rule hides
 * the location (it answers like one that does not exist). The role is checked first.
 */
export function assertCan(actor: Actor, action: Action, location?: LocationMembers, options: AssertOptions = {}): void {
  const decision = decide(actor, action, location);
  if (decision === "forbidden") throw new DomainError("FORBIDDEN", table[action].forbidden ?? FORBIDDEN_MESSAGE);
  if (decision === "hidden") throw new DomainError("NOT_FOUND", options.hiddenAs ?? HIDDEN_LOCATION_MESSAGE);
}

function decide(actor: Actor, action: Action, location: LocationMembers | undefined): "allowed" | "forbidden" | "hidden" {
  if (!roleMay(actor, action)) return "forbidden";
  if (location && membershipApplies(actor, action) && !location.memberIds.includes((actor as UserActor).id)) return "hidden";
  return "allowed";
}

/**
 * For queries over many locations: which locations `actor` may take `action` on. "all", or only those the user
 * with `memberId` is a member of (to filter in SQL). Throws FORBIDDEN when the role may not at all.
 */
export function locationScopeOf(actor: Actor, action: LocationAction): "all" | { memberId: string } {
  assertCan(actor, action);
  return membershipApplies(actor, action) ? { memberId: (actor as UserActor).id } : "all";
}

export type Permissions = Record<Action, boolean>;

/**
 * Every action → whether `actor` may take it (on `location`, when given): computed on the server and handed to
 * client components, which only show or hide controls with it. The server checks again on every request.
 */
export function permissionsOf(actor: Actor, location?: LocationMembers): Permissions {
  return Object.fromEntries(actions.map((action) => [action, can(actor, action, location)])) as Permissions;
}
