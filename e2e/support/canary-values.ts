import { randomBytes } from "node:crypto";

// Known, unlikely-to-collide values: the canary test searches every response and log line for them.
export const canary = {
  sessionSecret: "CANARY-SESSION-SECRET-7f3a9c1e5b2d4068a1c3e5f7",
  appSecretKey: Buffer.from("CANARY-APP-KEY-0123456789abcdefX").toString("base64"),
  apiKey: "CANARY-API-KEY-4b8e2a6c0d1f3e5a7c9b",
  clientSecret: "CANARY-CLIENT-SECRET-9d7b5f3e1a2c4e6a8b0d",
  password: "CANARY-PASSWORD-3e5a7c9b1d2f4a6c",
};

export const randomSuffix = () => randomBytes(4).toString("hex");
