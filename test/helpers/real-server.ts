import { afterAll, beforeAll } from 'vitest';
import type { ClientOptions } from '../../src/client-options.js';
import {
  type FaultServer,
  type Handler,
  type Scenario,
  startFaultServer,
} from '../reliability/fault-server.js';
import { testClient } from './test-client.js';

const notFound: Handler = (_req, res) => {
  res.writeHead(404).end();
};

/**
 * The fault server (test/reliability/fault-server.ts) for one test file, started before its tests and
 * closed after them. Its root answers with the handlers a test gives `serve`, and `hits` counts them.
 */
export function useRealServer() {
  let server: FaultServer | undefined;
  let routes: [Handler, ...Handler[]] = [notFound];
  let served: Scenario | undefined;
  const base = () => {
    if (!served) throw new Error('useRealServer: the server has not started (it starts in beforeAll)');
    return served.base;
  };
  beforeAll(async () => {
    server = await startFaultServer({ record: false });
    served = server.serve(...routes);
  });
  afterAll(() => server?.close());
  return {
    /** Answer with these handlers in turn from now on (the last one repeats); the hit count restarts. */
    serve(...next: [Handler, ...Handler[]]) {
      routes = next;
      served = server?.serve(...routes);
    },
    get hits() {
      return served?.attempts ?? 0;
    },
    /** The base URL the client is given, `http://127.0.0.1:<port>/api/v1`. */
    get base() {
      return base();
    },
    /** `testClient` of this server (the test key); options override. */
    client(options: ClientOptions = {}) {
      return testClient(options, { base: base() });
    },
  };
}
