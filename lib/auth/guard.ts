import { headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { DomainError } from "@/lib/errors/domain-error";
import { getCurrentUser, type CurrentUser } from "./current-user";
import { assertCan, can, type Action } from "./permissions";

export type { CurrentUser };

export interface GuardOptions {
  /** The action the page or route takes (lib/auth/permissions); omitted = any signed-in role. */
  action?: Action;
}

/** Pages: not signed in → sign-in page; a role the action does not allow → 403 page. */
export async function requirePageUser(options: GuardOptions = {}): Promise<CurrentUser> {
  const user = await getCurrentUser();
  if (!user) {
    const path = (await headers()).get("x-location-sync-path") ?? "/";
    redirect(`/sign-in?callbackUrl=${encodeURIComponent(path)}`);
  }
  if (options.action && !can(user, options.action)) forbidden();
  return user;
}

/** Route handlers: not signed in → 401; a role the action does not allow → 403 (as DomainErrors mapped to problem+json). */
export async function requireApiUser(options: GuardOptions = {}): Promise<CurrentUser> {
  const user = await getCurrentUser();
  if (!user) throw new DomainError("UNAUTHENTICATED", "Sign in to continue.");
  if (options.action) assertCan(user, options.action);
  return user;
}
