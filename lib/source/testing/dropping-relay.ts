import { connect, createServer, type Socket } from "node:net";

/**
 * A TCP relay to a database whose `drop()` makes the link between a reader and its source lose everything from then
 * on, new connections included (as a cut link does), without closing a socket; `refuse()` also stops accepting new
 * connections (a host that is down).
 */
export async function startDroppingRelay(url: string) {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  let dropping = false;
  const server = createServer((client) => {
    const source = connect(Number(target.port), target.hostname);
    for (const socket of [client, source]) {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => sockets.delete(socket));
    }
    client.on("data", (chunk) => void (dropping || source.write(chunk)));
    source.on("data", (chunk) => void (dropping || client.write(chunk)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const relayed = new URL(url);
  relayed.hostname = "127.0.0.1";
  relayed.port = String((server.address() as { port: number }).port);
  const closed = new Promise((resolve) => server.once("close", resolve));
  return {
    url: relayed.toString(),
    drop: () => void (dropping = true),
    refuse: () => void server.close(),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      if (server.listening) server.close();
      await closed;
    },
  };
}
