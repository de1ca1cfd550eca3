import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Listens on `port` of 127.0.0.1 (0: any) and lets go: the port bound, or a rejection if taken. */
function listenFree(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(bound));
    });
  });
}

/** A TCP port on 127.0.0.1 that nothing listens on (free a moment ago: bind it soon). */
export function freePort(): Promise<number> {
  return listenFree(0);
}

/**
 * A TCP port on 127.0.0.1 to be refused on: one just given back by a server that closed. The same
 * probe as `freePort`, named for what the test does with it (connect, not bind).
 */
export function closedPort(): Promise<number> {
  return listenFree(0);
}

/** The first port the system hands to outgoing connections (Linux's ip_local_port_range). */
function ephemeralStart(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    return 32_768;
  }
}

/**
 * A free port below the ports the system hands to outgoing connections, with the port `plus` above it
 * free too (a Redis Cluster node's bus): a server killed and started again on it cannot find it taken
 * meanwhile by a client's connection, as a port of that range can be. Single servers take theirs from
 * 10000 to 20000, servers with a second port (and that port) above: neither takes the other's.
 */
export async function freeStablePort(plus = 0): Promise<number> {
  const [low, high] = plus === 0 ? [10_000, 20_000] : [20_000, (ephemeralStart() || 32_768) - plus];
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low));
    const free = (candidate: number) =>
      listenFree(candidate).then(
        () => true,
        () => false,
      );
    if ((await free(port)) && (plus === 0 || (await free(port + plus)))) return port;
  }
  throw new Error(`no free port from ${low} to ${high}`);
}
