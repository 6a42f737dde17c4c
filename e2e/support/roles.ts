import path from "node:path";
import { demoUsers } from "../../lib/runtime/seed-demo";
import type { Role } from "../../lib/auth/roles";

export const roles: Role[] = ["admin", "support", "engineer", "owner"];

export function demoUser(role: Role) {
  const user = demoUsers.find((candidate) => candidate.role === role);
  if (!user) throw new Error(`no demo user for ${role}`);
  return user;
}

export const storageStateOf = (role: Role) => path.resolve(`e2e/.artifacts/state-${role}.json`);
