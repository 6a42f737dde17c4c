export * from "./audit-log";
export * from "./environments";
export * from "./locations";
export * from "./rate-limits";
export * from "./users";
export * from "./sandbox";
export * from "./demo-source";
