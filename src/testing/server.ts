import type { IncomingMessage, ServerResponse } from 'node:http';

import { createMockApi, type MockApi, type MockApiOptions } from './mock-api.js';

/**
 * Options of {@link startMockServer}: where to listen, plus the mock's own options.
 *
 * @example
 * ```ts
 * await startMockServer({ port: 4010, seed: 7, limits: { perMinute: 100 } });
 * ```
 */
export interface MockServerOptions extends MockApiOptions {
  /** TCP port; 0 picks a free one. @default 0 */
  readonly port?: number | undefined;
  /** Interface to bind. Keep it on loopback: the mock accepts well-known keys. @default '127.0.0.1' */
  readonly host?: string | undefined;
  /** Serve this mock instead of creating one from the options (then only `port` and `host` apply). @default undefined */
  readonly api?: MockApi | undefined;
}

/**
 * A running mock server.
 *
 * @example
 * ```ts
 * const server = await startMockServer();
 * try { console.log(server.url); } finally { await server.close(); }
 * ```
 */
export interface MockServer {
  /** Base URL of the API, e.g. `http://127.0.0.1:53187/api/v1`. */
  readonly url: string;
  /** The port actually bound. */
  readonly port: number;
  /** The mock behind the server: its dataset, keys, faults, `updateScore`… */
  readonly api: MockApi;
  /** Stops listening and drops open connections. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Starts the mock as a real HTTP server on loopback, for clients in other processes or languages,
 * browser pages, and tests over real sockets.
 *
 * @example
 * ```ts
 * import { startMockServer, MOCK_API_KEY } from 'scholarly-metrics/testing';
 * const server = await startMockServer({ port: 0 });
 * const client = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: server.url });
 * await server.close();
 * ```
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  // Loaded here, not at the top, so that importing `scholarly-metrics/testing` in a browser (for msw's
  // setupWorker) never touches a Node module.
  const { createServer } = await import('node:http');
  const { port = 0, host = '127.0.0.1', api: given, ...mockOptions } = options;
  const api = given ?? createMockApi(mockOptions);
  let origin = 'http://127.0.0.1';
  const server = createServer((req, res) => {
    serve(api, req, res, origin).catch((error: unknown) => {
      res.destroy(error instanceof Error ? error : undefined);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The mock server has no TCP address');
  const hostInUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  origin = `http://${hostInUrl}:${address.port}`;
  let closing: Promise<void> | undefined;
  return {
    url: `${origin}${api.basePath}`,
    port: address.port,
    api,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** Connection-level headers a Fetch `Request` must not carry. */
const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection']);

async function serve(api: MockApi, req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
  const abort = new AbortController();
  // A client that hangs up mid-delay cancels the delay instead of leaving a timer behind.
  res.once('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (hopByHop.has(name)) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const chunks: Buffer[] = [];
  if (hasBody) for await (const chunk of req) chunks.push(chunk as Buffer);
  // Concatenated, not resolved: a path such as `//journals` must stay a path, not become a host.
  const target = req.url?.startsWith('/') ? `${origin}${req.url}` : new URL(req.url ?? '/', origin).href;
  const request = new Request(target, {
    method: req.method ?? 'GET',
    headers,
    body: hasBody && chunks.length > 0 ? Buffer.concat(chunks) : undefined,
    signal: abort.signal,
  });
  const response = await api.handle(request);
  if (response.type === 'error') {
    req.socket.destroy(); // a `reset` fault: the client sees the connection drop
    return;
  }
  const body = response.body === null ? undefined : Buffer.from(await response.arrayBuffer());
  const outHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    outHeaders[name] = value;
  });
  if (body !== undefined) outHeaders['content-length'] = String(body.length);
  res.writeHead(response.status, outHeaders);
  res.end(body);
}
