import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { locations, syncSessions } from "../db/schema";
import { sandboxDemo } from "../lib/sandbox/provision";
import { apiAs, pointEnvironmentAt } from "./support/api";
import { randomSuffix } from "./support/canary-values";
import { connectToAppDatabase } from "./support/database";
import { storageStateOf } from "./support/roles";
import { baseUrl, expect, test } from "./support/test";

// Production posture against the built app: a location's token never follows a base-URL change the admin did not
// confirm (a second upstream on another port records what it receives), and the health check load balancers poll.
const [sandboxOwner] = sandboxDemo.owners;
const database = connectToAppDatabase();
const received: string[] = [];
let recorder: http.Server;
let recorderUrl = "";
let locationId = "";

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  recorder = http.createServer((request, response) => {
    received.push(`${request.method} ${request.url} ${request.headers.authorization ?? ""}`);
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => recorder.listen(0, "127.0.0.1", resolve));
  recorderUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}/api`;

  await pointEnvironmentAt("production");
  const [row] = await database.db
    .insert(locations)
    .values({
      name: `Moved Salon ${randomSuffix()}`,
      environment: "production",
      upstreamLocationId: sandboxOwner.locations[1].id,
      schedulePausedAt: new Date(),
      schedulePauseReason: "e2e",
    })
    .returning();
  locationId = row!.id;
  const support = await apiAs("support");
  const connected = await support.post(`/api/locations/${locationId}/connection`, {
    data: { email: sandboxOwner.email, password: sandboxOwner.password },
  });
  expect(connected.status(), await connected.text()).toBe(200);
  await support.dispose();
});

test.afterAll(async () => {
  await database.db.delete(locations).where(eq(locations.id, locationId));
  await new Promise((resolve) => recorder.close(resolve));
  await database.close();
});

test("a new service address asks whether the service moved; without that, the new address receives nothing and the location needs reconnecting", async ({
  browser,
}) => {
  const context = await browser.newContext({ storageState: storageStateOf("admin"), baseURL: baseUrl() });
  const page = await context.newPage();
  await page.goto("/settings/environments");
  const form = page.getByRole("form", { name: "Production environment" });
  await form.getByLabel("Base URL").fill(recorderUrl);
  await form.getByLabel("API key").fill("made-up-key");
  await form.getByLabel("Client secret").fill("made-up-secret");
  await form.getByRole("button", { name: "Save production" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Did the service itself move?" });
  await expect(dialog).toContainText("1 connected location holds a token issued by");
  await dialog.getByRole("button", { name: "Save; owners reconnect" }).click();
  await expect(page.getByText("Saved production settings.")).toBeVisible();
  await context.close();

  const support = await apiAs("support");
  const check = await support.post(`/api/locations/${locationId}/connection/test`);
  expect(check.status()).toBe(200);
  expect(await check.json()).toMatchObject({ ok: false, message: expect.stringMatching(/^Reconnect needed: the service address changed/) });
  const started = await support.post(`/api/locations/${locationId}/sessions`, { data: {} });
  expect(started.status(), await started.text()).toBeLessThan(300);
  const location = await (await support.get(`/api/locations/${locationId}`)).json();
  expect(location.location.attentionReason).toMatch(/^Reconnect needed: the service address changed/);
  // The sync fails before it sends anything.
  await expect
    .poll(
      async () =>
        (await database.db.select().from(syncSessions).where(eq(syncSessions.locationId, locationId))).map(
          (session) => `${session.status}: ${session.error}`,
        ),
      { timeout: 30_000 },
    )
    .toEqual([expect.stringMatching(/^failed: Reconnect needed: the service address changed/)]);
  expect(received).toEqual([]);

  // The old address again: the token is usable where it came from, and no dialog was needed.
  await pointEnvironmentAt("production");
  const again = await support.post(`/api/locations/${locationId}/connection/test`);
  expect(await again.json()).toMatchObject({ ok: true });
  await support.dispose();
});

test("GET /api/health answers 200 { status: ok } to anyone; plain http gets no HSTS", async () => {
  const anonymous = await apiAs(null);
  const response = await anonymous.get("/api/health");
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({ status: "ok" });
  expect(response.headers()["strict-transport-security"]).toBeUndefined();
  await anonymous.dispose();
});
