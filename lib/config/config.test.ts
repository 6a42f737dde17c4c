import { afterEach, describe, expect, it } from "vitest";
import { sandboxEnvironments } from "@/db/schema";
import { assertProductionConfiguration } from "@/lib/runtime/mode";
import { ConfigurationError, configurationReference, getConfig, parseConfig, sandboxResponseShapeNames, setEnvironmentDefaults } from "./config";

function errorOf(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected an error");
}

describe("parseConfig", () => {
  it("gives every variable its default when nothing is set", () => {
    expect(parseConfig({})).toEqual({
      NODE_ENV: "development",
      DATABASE_URL: undefined,
      LOCATION_SYNC_EMBEDDED: false,
      DATA_DIR: ".data",
      PORT: 3000,
      HOST: undefined,
      APP_SECRET_KEY: undefined,
      APP_SECRET_KEY_PREVIOUS: [],
      NEXTAUTH_SECRET: undefined,
      NEXTAUTH_URL: undefined,
      APP_ORIGIN: undefined,
      OIDC_ISSUER: undefined,
      OIDC_CLIENT_ID: undefined,
      OIDC_CLIENT_SECRET: undefined,
      OIDC_ROLE_CLAIM: "groups",
      OIDC_ROLE_MAP: [],
      RUN_WORKER: true,
      TRUST_PROXY: false,
      ALERT_WEBHOOK_ALLOW_PRIVATE: false,
      WORKER_HEALTH_PORT: undefined,
      WORKER_HEALTH_HOST: "127.0.0.1",
      AUDIT_RETENTION_DAYS: 400,
      ATTEMPT_DETAILS_RETENTION_DAYS: 30,
      SESSION_RETENTION_DAYS: 400,
      METRICS_TOKEN: undefined,
      UPSTREAM_API_KEY: undefined,
      UPSTREAM_CLIENT_SECRET: undefined,
      SANDBOX_ENABLED: false,
      SANDBOX_FAULTS: "off",
      SANDBOX_UPLOAD_BASE_URL: undefined,
      SANDBOX_RESPONSE_SHAPE: "documented",
      SOURCE_DATABASE_URL: undefined,
      SOURCE_SQL_DIRECTORY: undefined,
      SOURCE_STATEMENT_TIMEOUT_SECONDS: 300,
      SYNC_CONTACT_CHUNK_SIZE: 5000,
      SYNC_STEP_ATTEMPTS: 3,
      SYNC_STEP_BACKOFF_MS: 5000,
      SYNC_REQUEST_BACKOFF_MS: 500,
      SYNC_LEASE_SECONDS: 60,
      SYNC_REMOVAL_THRESHOLD_PERCENT: 10,
      SYNC_REMOVAL_THRESHOLD_MIN: 50,
      SYNC_WORKER_CONCURRENCY: 4,
      SYNC_OPENINGS_CONCURRENCY: 4,
      SMTP_URL: undefined,
      ALERT_EMAIL_FROM: "Location Sync <alerts@location-sync.invalid>",
      SUPPORT_EMAIL: "support@location-sync.invalid",
    });
  });

  it("coerces numbers and flags, and counts a blank value as unset", () => {
    const config = parseConfig({
      PORT: " 8080 ",
      TRUST_PROXY: "true",
      RUN_WORKER: "false",
      SYNC_OPENINGS_CONCURRENCY: "2",
      SYNC_STEP_BACKOFF_MS: "0",
      DATA_DIR: "  ",
      SMTP_URL: "",
    });
    expect(config.PORT).toBe(8080);
    expect(config.TRUST_PROXY).toBe(true);
    expect(config.RUN_WORKER).toBe(false);
    expect(config.SYNC_OPENINGS_CONCURRENCY).toBe(2);
    expect(config.SYNC_STEP_BACKOFF_MS).toBe(0);
    expect(config.DATA_DIR).toBe(".data");
    expect(config.SMTP_URL).toBeUndefined();
  });

  it("splits APP_SECRET_KEY_PREVIOUS into its keys", () => {
    const [a, b] = [Buffer.alloc(32, 1).toString("base64"), Buffer.alloc(32, 2).toString("base64url")];
    expect(parseConfig({ APP_SECRET_KEY_PREVIOUS: ` ${a}, ,${b} ` }).APP_SECRET_KEY_PREVIOUS).toEqual([a, b]);
  });

  it("names the variable and its rule when a value is invalid, quoting values that are not secret", () => {
    const error = errorOf(() => parseConfig({ SYNC_LEASE_SECONDS: "soon" }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toBe('SYNC_LEASE_SECONDS must be a whole number of seconds, at least 1, not "soon".');
    expect(() => parseConfig({ SYNC_OPENINGS_CONCURRENCY: "0" })).toThrow('SYNC_OPENINGS_CONCURRENCY must be a whole number, at least 1, not "0".');
    expect(() => parseConfig({ SYNC_REMOVAL_THRESHOLD_PERCENT: "101" })).toThrow(
      /SYNC_REMOVAL_THRESHOLD_PERCENT must be a whole number from 0 to 100/,
    );
    expect(() => parseConfig({ TRUST_PROXY: "yes" })).toThrow('TRUST_PROXY must be true or false, not "yes".');
    expect(() => parseConfig({ PORT: "70000" })).toThrow(/PORT must be a port number \(1–65535\)/);
    expect(() => parseConfig({ NODE_ENV: "staging" })).toThrow(/NODE_ENV must be one of: development, production, test/);
    expect(() => parseConfig({ NEXTAUTH_URL: "sync.example.com" })).toThrow(/NEXTAUTH_URL must be an http:\/\/ or https:\/\/ URL/);
  });

  it("names every invalid variable at once", () => {
    const message = errorOf(() => parseConfig({ PORT: "x", AUDIT_RETENTION_DAYS: "-1", SANDBOX_FAULTS: "maybe" })).message;
    for (const name of ["PORT", "AUDIT_RETENTION_DAYS", "SANDBOX_FAULTS"]) expect(message).toContain(`${name} must`);
  });

  it("never repeats the value of a secret", () => {
    const secrets = {
      DATABASE_URL: "mysql://app:hunter2-db@db.internal/app",
      SOURCE_DATABASE_URL: "source:hunter2-source",
      APP_SECRET_KEY: "hunter2-key",
      APP_SECRET_KEY_PREVIOUS: "hunter2-previous",
      SMTP_URL: "http://mail:hunter2-smtp@mail.internal",
    };
    const message = errorOf(() => parseConfig(secrets)).message;
    for (const name of Object.keys(secrets)) expect(message).toContain(`${name} must`);
    expect(message).not.toContain("hunter2");
    expect(message).toContain("(value not shown)");
  });

  it("knows the same response shapes as the sandbox's table", () => {
    expect([...sandboxResponseShapeNames]).toEqual(sandboxEnvironments.responseShape.enumValues);
  });

  it("describes every variable it parses", () => {
    const reference = configurationReference();
    expect(reference.map((row) => row.name)).toEqual(Object.keys(parseConfig({})));
    for (const row of reference) expect(row.description, row.name).not.toBe("");
  });
});

describe("SUPPORT_EMAIL", () => {
  const production = {
    NODE_ENV: "production",
    DATABASE_URL: "postgres://db/app",
    APP_SECRET_KEY: Buffer.alloc(32, 7).toString("base64"),
    NEXTAUTH_SECRET: "s",
  };
  const check = (env: Record<string, string>) => () => assertProductionConfiguration(parseConfig(env));

  it("production mode refuses to start without it, naming the variable", () => {
    const error = errorOf(check(production));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toMatch(/^Production mode needs SUPPORT_EMAIL: the address business owners write to/);
  });

  it("production mode refuses an address at a reserved domain, which receives no mail", () => {
    for (const [address, reserved] of [
      ["help@location-sync.invalid", ".invalid"],
      ["help@salons.example", ".example"],
      ["help@Salons.TEST", ".test"],
      ["help@box.localhost", ".localhost"],
      ["help@mail.example.com", "example.com"],
    ]) {
      const message = errorOf(check({ ...production, SUPPORT_EMAIL: address! })).message;
      expect(message, address).toContain(`SUPPORT_EMAIL must be an address that receives mail in production mode, not "${address}": ${reserved}`);
    }
    expect(check({ ...production, SUPPORT_EMAIL: "help@salons-testing.de" })).not.toThrow();
  });

  it("the demo (npm start on the embedded database) and the tests start without it and show the demo address", () => {
    const demo = { NODE_ENV: "production" };
    const demoAfterStart = { NODE_ENV: "production", DATABASE_URL: "postgres://127.0.0.1:5433/app", LOCATION_SYNC_EMBEDDED: "1" };
    const testRun = { NODE_ENV: "test", DATABASE_URL: "postgres://127.0.0.1/test_x" };
    for (const env of [demo, demoAfterStart, testRun, {}]) {
      expect(check(env)).not.toThrow();
      expect(parseConfig(env).SUPPORT_EMAIL).toBe("support@location-sync.invalid");
    }
  });
});

describe("getConfig", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  });

  it("parses once and sees a later write to the environment", () => {
    delete process.env.SYNC_LEASE_SECONDS;
    const first = getConfig();
    expect(getConfig()).toBe(first);
    expect(first.SYNC_LEASE_SECONDS).toBe(60);
    process.env.SYNC_LEASE_SECONDS = "2";
    expect(getConfig().SYNC_LEASE_SECONDS).toBe(2);
    process.env.SYNC_LEASE_SECONDS = "two";
    expect(() => getConfig()).toThrow(/SYNC_LEASE_SECONDS must/);
  });

  it("setEnvironmentDefaults fills in only what is unset", () => {
    process.env.WORKER_HEALTH_HOST = "0.0.0.0";
    delete process.env.APP_ORIGIN;
    setEnvironmentDefaults({ WORKER_HEALTH_HOST: "127.0.0.1", APP_ORIGIN: "https://sync.example.com" });
    expect(getConfig().WORKER_HEALTH_HOST).toBe("0.0.0.0");
    expect(getConfig().APP_ORIGIN).toBe("https://sync.example.com");
  });
});
