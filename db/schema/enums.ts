import { pgEnum } from "drizzle-orm/pg-core";

// Enums live apart from the tables so schema files can share them without import cycles.
export const environmentName = pgEnum("environment_name", ["staging", "production"]);
