import { describe, expect, it } from "vitest";
import { DomainError } from "@/lib/errors/domain-error";
import {
  actions,
  assertCan,
  can,
  FORBIDDEN_MESSAGE,
  HIDDEN_LOCATION_MESSAGE,
  locationScopeOf,
  permissionsOf,
  permissionTable,
  rolesAllowed,
  seesOwnLocationsOnly,
  systemActorAs,
  type Action,
  type UserActor,
} from "./permissions";
import { ALL_ROLES, type Role } from "./roles";

const actorOf = (role: Role, id = `00000000-0000-4000-8000-00000000000${ALL_ROLES.indexOf(role)}`): UserActor => ({ id, role });
const owner = actorOf("owner");
const stranger = actorOf("owner", "00000000-0000-4000-8000-0000000000ff");
const theirs = { id: "00000000-0000-4000-8000-00000000aaaa", memberIds: [owner.id] };
const system = systemActorAs("cli", "cli");

function refusal(run: () => void): DomainError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error("allowed");
}

describe("the permission table", () => {
  // What the code allowed before the table existed: the table must say the same (a change here is a change of who may do what).
  it("allows each action to exactly these roles", () => {
    const matrix = Object.fromEntries(actions.map((action) => [action, ALL_ROLES.filter((role) => can(actorOf(role), action)).join(" ")]));
    expect(matrix).toEqual({
      "location.view": "admin support engineer owner",
      "location.details.view": "admin support engineer",
      "location.create": "admin support",
      "location.edit": "admin support",
      "location.connect": "admin support owner",
      "location.archive": "admin support",
      "location.delete": "admin",
      "location.environment.move": "admin support",
      "location.import": "admin support",
      "location.owners.view": "admin support engineer",
      "location.owners.invite": "admin support",
      "schedule.pause": "admin support",
      "preview.view": "admin support engineer",
      "preview.refresh": "admin support",
      "preview.rebuild": "admin support",
      "session.view": "admin support engineer",
      "session.attempts.view": "admin support engineer",
      "fixture.export": "admin support engineer",
      "sync.start": "admin support",
      "sync.replay": "admin support engineer",
      "sync.cancel": "admin support",
      "sync.resume": "admin support",
      "sync.close-upstream": "admin support",
      "sync.confirm-removals": "admin support",
      "fleet.view": "admin support engineer",
      "users.manage": "admin",
      "account.password": "admin support engineer owner",
      "environments.manage": "admin",
      "alerts.manage": "admin",
      "audit.view": "admin",
      "sandbox.inspect": "admin engineer",
      "api.docs.view": "admin support engineer",
      "times.utc": "admin support engineer",
      "sandbox.faults": "admin engineer",
    });
  });

  it("names its roles by the Role enum only, and describes every action", () => {
    for (const action of actions) {
      expect(rolesAllowed(action).every((role) => ALL_ROLES.includes(role))).toBe(true);
      expect(permissionTable[action].description).not.toBe("");
    }
  });

  it("lets the system actor (CLI, jobs) take every action, on every location", () => {
    for (const action of actions) expect(can(system, action, theirs)).toBe(true);
    expect(locationScopeOf(system, "location.view")).toBe("all");
    expect(seesOwnLocationsOnly(system)).toBe(false);
  });
});

describe("the membership rule", () => {
  const locationActions = actions.filter((action) => permissionTable[action].scope === "location");

  it("lets an owner act on the locations they are a member of, and hides every other one", () => {
    for (const action of locationActions.filter((action) => can(owner, action))) {
      expect(can(owner, action, theirs)).toBe(true);
      expect(can(stranger, action, theirs)).toBe(false);
    }
    expect(seesOwnLocationsOnly(owner)).toBe(true);
    expect(locationScopeOf(owner, "location.view")).toEqual({ memberId: owner.id });
  });

  it("does not apply to staff, who act on every location their role allows", () => {
    for (const role of ["admin", "support", "engineer"] as const) {
      const staff = actorOf(role);
      for (const action of locationActions) expect(can(staff, action, theirs)).toBe(can(staff, action));
      expect(locationScopeOf(staff, "location.view")).toBe("all");
      expect(seesOwnLocationsOnly(staff)).toBe(false);
    }
  });

  it("does not apply to actions on no location", () => {
    expect(can(actorOf("admin"), "users.manage", { id: theirs.id, memberIds: [] })).toBe(true);
  });
});

describe("assertCan", () => {
  it("refuses a role with FORBIDDEN (403) before it looks at the location", () => {
    expect(refusal(() => assertCan(actorOf("engineer"), "sync.start", theirs))).toMatchObject({ code: "FORBIDDEN", message: FORBIDDEN_MESSAGE });
    // An owner asking for another's location with an action their role may not take: the role answers (403), as before.
    expect(refusal(() => assertCan(stranger, "location.edit", theirs))).toMatchObject({ code: "FORBIDDEN" });
  });

  it("answers a location hidden by the membership rule like one that does not exist (404)", () => {
    expect(refusal(() => assertCan(stranger, "location.connect", theirs))).toMatchObject({ code: "NOT_FOUND", message: HIDDEN_LOCATION_MESSAGE });
    expect(refusal(() => assertCan(stranger, "location.view", theirs, { hiddenAs: "Sync session not found." }))).toMatchObject({
      code: "NOT_FOUND",
      message: "Sync session not found.",
    });
    expect(() => assertCan(owner, "location.connect", theirs)).not.toThrow();
  });

  it("refuses owners every operator action on their own location: syncing, the preview, sessions, the schedule", () => {
    const operatorActions: Action[] = [
      "sync.start",
      "sync.cancel",
      "sync.resume",
      "preview.view",
      "preview.refresh",
      "preview.rebuild",
      "session.view",
      "schedule.pause",
      "location.details.view",
    ];
    for (const action of operatorActions)
      expect(
        refusal(() => assertCan(owner, action, theirs)),
        action,
      ).toMatchObject({ code: "FORBIDDEN" });
  });

  it("refuses a list over locations to a role that may not take the action at all", () => {
    expect(refusal(() => locationScopeOf(owner, "fleet.view"))).toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("permissionsOf (what client components are handed)", () => {
  it("is every action with can's answer, and serialises as plain JSON", () => {
    const permissions = permissionsOf(actorOf("support"));
    expect(Object.keys(permissions).sort()).toEqual([...actions].sort());
    for (const action of actions) expect(permissions[action as Action]).toBe(can(actorOf("support"), action));
    expect(JSON.parse(JSON.stringify(permissions))).toEqual(permissions);
    expect(permissionsOf(stranger, theirs)["location.connect"]).toBe(false);
  });
});
