import { createServer, connect, type Server, type Socket } from 'node:net';
import { freePort } from '@oanquan/testkit';

export interface TcpForwarder {
  /** `host:port` to dial instead of the target. */
  address: string;
  /** Cuts every connection through it and refuses new ones, as a network partition seen from one side. */
  cut(): Promise<void>;
  /** Accepts connections again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A plain TCP relay on a spare loopback port to `target` (`host:port`), so a
 * test can take one process's route to a server away while the server itself
 * stays up for everyone else.
 */
export async function startTcpForwarder(target: string): Promise<TcpForwarder> {
  const { hostname, port: targetPort } = new URL(`tcp://${target}`);
  const port = await freePort();
  const open = new Set<Socket>();
  let server: Server | undefined;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const listening = createServer((inbound) => {
        const outbound = connect(Number(targetPort), hostname);
        for (const socket of [inbound, outbound]) {
          open.add(socket);
          socket.once('close', () => open.delete(socket));
          socket.on('error', () => {});
        }
        inbound.pipe(outbound).pipe(inbound);
        // Either end gone: the other goes too, as over a real connection.
        inbound.once('close', () => outbound.destroy());
        outbound.once('close', () => inbound.destroy());
      });
      listening.once('error', reject);
      listening.listen(port, '127.0.0.1', () => {
        server = listening;
        resolve();
      });
    });
  const cut = async () => {
    const closing = server;
    server = undefined;
    for (const socket of open) socket.destroy();
    if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
  };
  await listen();
  return {
    address: `127.0.0.1:${port}`,
    cut,
    restore: () => (server ? Promise.resolve() : listen()),
    close: cut,
  };
}
