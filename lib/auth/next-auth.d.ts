import "next-auth";
import "next-auth/jwt";

declare module "next-auth" {
  interface Session {
    userId?: string;
    sessionEpoch?: number;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    sessionEpoch?: number;
    /** Stable for the whole session (next-auth renews `jti` with every re-issued token); what signing out revokes. */
    sessionId?: string;
  }
}
