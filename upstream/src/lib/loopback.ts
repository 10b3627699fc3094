import type http from "node:http";
import type { AddressInfo } from "node:net";

/** Listens on 127.0.0.1 (`port` 0: any free one) and answers the URL and a close that drops open connections. */
export async function listenOnLoopback(server: http.Server, port = 0): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
