import { and, eq } from "drizzle-orm";
import { headers } from "next/headers";
import { forbidden, notFound, redirect } from "next/navigation";
import { getDatabase } from "@/db/client";
import { locationMembers } from "@/db/schema";
import { DomainError } from "@/lib/errors/domain-error";
import { getCurrentUser, type CurrentUser } from "./current-user";
import type { Role } from "./roles";

export type { CurrentUser };

export interface GuardOptions {
  /** Roles allowed; omitted = any signed-in role. */
  roles?: readonly Role[];
}

/** Pages: not signed in → sign-in page; wrong role → 403 page. */
export async function requirePageUser(options: GuardOptions = {}): Promise<CurrentUser> {
  const user = await getCurrentUser();
  if (!user) {
    const path = (await headers()).get("x-location-sync-path") ?? "/";
    redirect(`/sign-in?callbackUrl=${encodeURIComponent(path)}`);
  }
  if (options.roles && !options.roles.includes(user.role)) forbidden();
  return user;
}

/** Route handlers: not signed in → 401; wrong role → 403 (as DomainErrors mapped to problem+json). */
export async function requireApiUser(options: GuardOptions = {}): Promise<CurrentUser> {
  const user = await getCurrentUser();
  if (!user) throw new DomainError("UNAUTHENTICATED", "Sign in to continue.");
  if (options.roles && !options.roles.includes(user.role)) throw new DomainError("FORBIDDEN", "Your role does not allow this.");
  return user;
}

/** Owners see only the locations they are members of; staff see all. */
export async function canSeeLocation(user: CurrentUser, locationId: string): Promise<boolean> {
  if (user.role !== "owner") return true;
  const [membership] = await getDatabase()
    .select({ locationId: locationMembers.locationId })
    .from(locationMembers)
    .where(and(eq(locationMembers.locationId, locationId), eq(locationMembers.userId, user.id)))
    .limit(1);
  return Boolean(membership);
}

/** A location the caller may not see answers exactly like one that does not exist. */
export async function assertLocationVisible(user: CurrentUser, locationId: string): Promise<void> {
  if (!(await canSeeLocation(user, locationId))) throw new DomainError("NOT_FOUND", "Location not found.");
}

export async function requirePageLocation(user: CurrentUser, locationId: string): Promise<void> {
  if (!(await canSeeLocation(user, locationId))) notFound();
}
