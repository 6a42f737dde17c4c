import { z } from "zod";

export const Role = z.enum(["admin", "support", "engineer", "owner"]);
export type Role = z.infer<typeof Role>;

export const roleLabels: Record<Role, string> = {
  admin: "Admin",
  support: "Support",
  engineer: "Engineer",
  owner: "Business owner",
};

export const STAFF_ROLES: Role[] = ["admin", "support", "engineer"];
export const ALL_ROLES: Role[] = ["admin", "support", "engineer", "owner"];

/** The role a user is given when it differs from the one they hold (an edit that changes nothing gives none). */
export function changedRole(current: Role, requested: Role | undefined): Role | null {
  return requested !== undefined && requested !== current ? requested : null;
}
