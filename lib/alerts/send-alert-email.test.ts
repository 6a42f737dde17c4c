import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendAlertEmail, smtpTimeoutsMs } from "./send-alert-email";

// A mail server that takes the connection and then says nothing: nodemailer's own default waits ten minutes.
let silent: net.Server;
const sockets = new Set<net.Socket>();
beforeAll(async () => {
  silent = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  process.env.SMTP_URL = `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});
afterAll(async () => {
  delete process.env.SMTP_URL;
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

describe("sendAlertEmail", () => {
  it("gives up on a mail server that never greets within the greeting timeout, not nodemailer's ten minutes", async () => {
    expect(smtpTimeoutsMs.greeting).toBeLessThanOrEqual(30_000);
    const started = Date.now();
    const failure = await sendAlertEmail(
      ["ops@example.test"],
      { subject: "s", text: "t", slack: { text: "t", blocks: [] } },
      { connection: 300, greeting: 300, socket: 300 },
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
