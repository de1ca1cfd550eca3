import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';

/**
 * A client on a raw socket that sends a POST's head and then its body a byte at a time, when told to:
 * a slowloris, under the test's control (the test decides when each byte goes, so it can run on a
 * fake clock).
 */
export interface SlowClient {
  /** Sends the next `count` bytes of the body. */
  send(count?: number): void;
  /** Sends the rest of the body at once. */
  sendText(text: string): void;
  /** Everything the server wrote back so far. */
  readonly received: () => string;
  /** Settles when the server (or the client) closed the connection, with what the server wrote. */
  readonly closed: Promise<string>;
}

/** Opens a slow client that declares `contentLength` bytes and sends the head plus the first byte. */
export async function openSlowClient(port: number, contentLength = 150): Promise<SlowClient> {
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
    'POST /hooks/metric HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n' +
    `content-length: ${contentLength}\r\n\r\n`;
  socket.write(`${head}{`);
  return {
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

/**
 * A real HTTP server on 127.0.0.1 that counts the body bytes each request delivered to the handler,
 * and the open connections.
 */
export async function startCountingServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{
  server: Server;
  port: number;
  /** Body bytes received so far, all requests together. */
  bytes: () => number;
  /** Requests the handler was given. */
  requests: IncomingMessage[];
  connections: () => Promise<number>;
  close: () => Promise<void>;
}> {
  let bytes = 0;
  const requests: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    requests.push(req);
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.byteLength;
    });
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    bytes: () => bytes,
    requests,
    connections: () =>
      new Promise((resolve, reject) =>
        server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
