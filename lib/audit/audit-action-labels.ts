/** What each audit action means, as the audit page shows it; the filter offers them in this order. */
export const auditActionLabels: Record<string, string> = {
  "auth.sign_in": "Signed in",
  "auth.sign_in_failed": "Sign-in failed",
  "auth.sign_in_throttled": "Sign-in refused: too many attempts",
  "auth.sign_out": "Signed out",
  "user.created": "User created",
  "user.invited": "Invite link issued",
  "user.invite_accepted": "Invite link used",
  "user.role_changed": "Role changed",
  "user.deactivated": "User deactivated",
  "user.reactivated": "User reactivated",
  "user.password_changed": "Password changed",
  "user.password_reset_sent": "Password reset link issued",
  "user.password_reset": "Password reset through a link",
  "user.oidc_created": "Single sign-on account created",
  "environment.updated": "Environment changed",
  "sandbox.fault_injected": "Sandbox fault injected",
  "sandbox.faults_cleared": "Sandbox faults cleared",
  "environment.credentials_changed": "Environment credentials changed",
  "environment.location_tokens_moved": "Service moved: location tokens go to the new address",
  "secrets.rotated": "Encryption key rotated",
  "alerts.channels_updated": "Alert channels changed",
  "location.created": "Location created",
  "location.updated": "Location edited",
  "location.connected": "Location connected",
  "location.reconnected": "Location reconnected",
  "location.connect_failed": "Connection attempt failed",
  "location.connect_throttled": "Connection refused: too many attempts",
  "location.connection_tested": "Connection tested",
  "location.disconnected": "Location disconnected",
  "location.owner_invited": "Owner invited",
  "location.owner_added": "Owner added",
  "location.archived": "Location archived",
  "location.restored": "Location restored",
  "location.deleted": "Location deleted for good",
  "location.environment_moved": "Location moved to another environment",
  "location.imported": "Locations imported from CSV",
  "location.schedule_paused": "Schedule paused",
  "location.schedule_resumed": "Schedule resumed",
  "sync.session_started": "Sync started",
  "sync.session_resumed": "Sync resumed",
  "sync.session_cancelled": "Sync cancelled",
  "sync.upstream_closed": "Upstream session closed",
  "sync.upstream_close_failed": "Closing the upstream session failed",
  "sync.removals_confirmed": "Removals confirmed",
};

export const auditActions = Object.keys(auditActionLabels);

/** An action recorded before it had a label still shows, as its code. */
export function auditActionLabel(action: string): string {
  return auditActionLabels[action] ?? action;
}
