import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export interface DiscoveredRoute {
  kind: "page" | "api";
  /** The route as written in the app folder, groups removed: /api/users/[id] */
  pattern: string;
  methods: string[];
}

const appDir = path.resolve("app");

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

/** Every page and route handler in app/, so that a new one cannot be added without an expectation. */
export function discoverRoutes(): DiscoveredRoute[] {
  return walk(appDir).flatMap((file): DiscoveredRoute[] => {
    const base = path.basename(file);
    if (base !== "page.tsx" && base !== "route.ts") return [];
    const segments = path
      .relative(appDir, path.dirname(file))
      .split(path.sep)
      .filter((segment) => segment && !(segment.startsWith("(") && segment.endsWith(")")));
    const pattern = `/${segments.join("/")}`;
    if (base === "page.tsx") return [{ kind: "page", pattern, methods: ["GET"] }];
    const source = readFileSync(file, "utf8");
    const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((method) =>
      new RegExp(`export\\s+(const|async function|function)\\s+${method}\\b|export\\s*\\{[^}]*\\bas\\s+${method}\\b`).test(source),
    );
    return [{ kind: "api", pattern, methods }];
  });
}

const sampleParams: Record<string, string> = {
  id: "00000000-0000-4000-8000-000000000000",
  token: "A".repeat(43),
  name: "staging",
  locationId: "00000000-0000-4000-8000-000000000000",
  sessionId: "00000000-0000-4000-8000-000000000000",
  attemptId: "1",
  itemId: "00000000-0000-4000-8000-000000000000",
  seq: "0",
};

export function concretePath(pattern: string): string {
  return pattern.replace(/\[\.{0,3}([^\]]+)\]/g, (_, name: string) => sampleParams[name] ?? "sample");
}
