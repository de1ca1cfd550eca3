import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import type { ClientOptions } from '../../src/client-options.js';
import { testClient } from './test-client.js';

export type Route = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/**
 * A real HTTP server on 127.0.0.1 for one test file, for what an in-process mock cannot do
 * faithfully: bodies that stall, sockets that reset. `route` is swapped per test.
 */
export function useRealServer() {
  const notFound: Route = (_req, res) => {
    res.writeHead(404).end();
  };
  const state = { route: notFound, base: '', hits: 0 };
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer((req, res) => {
    state.hits++;
    Promise.resolve(state.route(req, res)).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    state.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    /** Serve this route from now on and reset the hit count. */
    serve(route: Route) {
      state.route = route;
      state.hits = 0;
    },
    get hits() {
      return state.hits;
    },
    /** The base URL the client is given, `http://127.0.0.1:<port>/api/v1`. */
    get base() {
      return state.base;
    },
    /** `testClient` of this server (the test key); options override. */
    client(options: ClientOptions = {}) {
      return testClient(options, { base: state.base });
    },
  };
}
