import type { Action, Permissions } from "@/lib/auth/permissions";

/** The sections of Settings; `action`: the one the section's page takes (only those the user may open are shown). */
export const settingsSections: { href: string; title: string; description: string; action: Action }[] = [
  { href: "/settings/account", title: "Your account", description: "Change your password.", action: "account.password" },
  { href: "/settings/users", title: "Users", description: "Invite people, set their role, deactivate accounts.", action: "users.manage" },
  {
    href: "/settings/environments",
    title: "Environments",
    description: "Staging and production credentials of the upstream service.",
    action: "environments.manage",
  },
  {
    href: "/settings/alerts",
    title: "Alerts",
    description: "Webhook and email alerts when a location's sync fails and recovers.",
    action: "alerts.manage",
  },
  { href: "/settings/audit", title: "Audit log", description: "Sign-ins, user changes and credential changes.", action: "audit.view" },
  { href: "/settings/sandbox", title: "Sandbox inspector", description: "What the built-in upstream simulator holds.", action: "sandbox.inspect" },
  {
    href: "/settings/api",
    title: "API reference",
    description: "Every operation of the dashboard's API, its parameters and schemas.",
    action: "api.docs.view",
  },
];

/** Whether Settings has anything for someone with these permissions (else it is not in the navigation). */
export function hasSettings(permissions: Permissions): boolean {
  return settingsSections.some((section) => permissions[section.action]);
}
