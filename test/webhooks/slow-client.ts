import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';

/**
 * A client on a raw socket that sends a POST's head and then its body a byte at a time, when told to:
 * a slowloris, under the test's control (the test decides when each byte goes, so it can run on a
 * fake clock).
 */
export interface SlowClient {
  /** The client's own port: what the server sees as the request's remote port. */
  readonly port: number;
  /** Sends the next `count` bytes of the body. */
  send(count?: number): void;
  /** Sends the rest of the body at once. */
  sendText(text: string): void;
  /** Everything the server wrote back so far. */
  readonly received: () => string;
  /** Settles when the server (or the client) closed the connection, with what the server wrote. */
  readonly closed: Promise<string>;
}

/** Opens a slow client that declares `contentLength` bytes and sends the head (a POST, or `method`) plus the first byte. */
export async function openSlowClient(
  port: number,
  contentLength = 150,
  method = 'POST',
): Promise<SlowClient> {
  const socket: Socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    received += chunk;
  });
  // A reset after the answer is still the end of the connection.
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  const head =
    `${method} /hooks/metric HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
    `content-length: ${contentLength}\r\n\r\n`;
  socket.write(`${head}{`);
  return {
    port: socket.localPort ?? 0,
    send: (count = 1) => {
      if (!socket.destroyed) socket.write(' '.repeat(count));
    },
    sendText: (text) => socket.write(text),
    received: () => received,
    closed,
  };
}

/** Resolves once `condition` holds, checking after each turn of the event loop (no timer involved). */
export async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; !condition(); turn++) {
    if (turn > 200_000) throw new Error('the condition never held');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** What the server saw of one client's connection. */
export interface SeenConnection {
  /** The request the handler was given, once its head arrived. */
  request: IncomingMessage | undefined;
  /** Body bytes the handler has received so far. */
  bytes: number;
  /** Whether the server still holds the connection. */
  open: boolean;
}

/**
 * A real HTTP server on 127.0.0.1 that tells, for each client, the request its handler was given,
 * the body bytes it received and whether the connection is still open. It answers by client rather
 * than in total: another test file's process may connect to a port it took for free a moment ago.
 */
export async function startCountingServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{
  server: Server;
  port: number;
  /** What the server saw of `client`'s connection so far. */
  seen: (client: SlowClient) => SeenConnection;
  close: () => Promise<void>;
}> {
  const byPort = new Map<number, SeenConnection>();
  const seenFrom = (port: number | undefined): SeenConnection => {
    let seen = byPort.get(port ?? 0);
    if (seen === undefined) {
      seen = { request: undefined, bytes: 0, open: false };
      byPort.set(port ?? 0, seen);
    }
    return seen;
  };
  const server = createServer((req, res) => {
    const seen = seenFrom(req.socket.remotePort);
    seen.request = req;
    req.on('data', (chunk: Buffer) => {
      seen.bytes += chunk.byteLength;
    });
    handler(req, res);
  });
  server.on('connection', (socket) => {
    const seen = seenFrom(socket.remotePort);
    seen.open = true;
    socket.once('close', () => {
      seen.open = false;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    seen: (client) => seenFrom(client.port),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
