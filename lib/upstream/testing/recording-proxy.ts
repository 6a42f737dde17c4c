import http from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedExchange {
  method: string;
  path: string;
  requestHeaders: http.IncomingHttpHeaders;
  requestBody: string;
  status: number;
  responseBody: string;
}

export interface RecordingProxy {
  /** Use in place of the target's origin. */
  url: string;
  exchanges: RecordedExchange[];
  close(): Promise<void>;
}

/**
 * A real HTTP hop between the app and the upstream (tests): forwards every request
 * to `targetOrigin` and keeps what crossed the wire, e.g. the tokens the upstream issued.
 */
export async function startRecordingProxy(targetOrigin: string): Promise<RecordingProxy> {
  const exchanges: RecordedExchange[] = [];
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const requestBody = Buffer.concat(chunks).toString("utf8");
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(
        ([name, value]) => typeof value === "string" && !["host", "connection", "content-length"].includes(name),
      ),
    ) as Record<string, string>;
    try {
      const upstream = await fetch(`${targetOrigin}${request.url}`, { method: request.method, headers, body: requestBody || undefined });
      const responseBody = await upstream.text();
      exchanges.push({
        method: request.method ?? "",
        path: request.url ?? "",
        requestHeaders: request.headers,
        requestBody,
        status: upstream.status,
        responseBody,
      });
      response.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" });
      response.end(responseBody);
    } catch {
      response.writeHead(502).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exchanges,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
