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
